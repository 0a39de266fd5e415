package org.bbflow.core;

/**
 * 128 bytes of padding laid out before {@link Waiter}'s parked slot. HotSpot reorders the fields of
 * one class (the old in-class padding ended up behind the slot), but lays out a superclass's fields
 * before its subclass's: padding, slot and padding are therefore three classes in a chain
 * ({@code WaiterPad0 -> WaiterSlot -> WaiterPad1 -> Waiter}). Checked with JOL by PaddingTest.
 */
abstract class WaiterPad0 {
    long p000;
    long p001;
    long p002;
    long p003;
    long p004;
    long p005;
    long p006;
    long p007;
    long p008;
    long p009;
    long p010;
    long p011;
    long p012;
    long p013;
    long p014;
    long p015;
    /** Fills the 4-byte gap after a 12-byte object header, which HotSpot would give to a subclass field. */
    int p0fill;
}
