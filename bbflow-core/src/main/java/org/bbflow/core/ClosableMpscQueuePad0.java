package org.bbflow.core;

/**
 * 128 bytes of padding before a {@link ClosableMpscQueue}'s fields: nothing of a neighbouring object
 * shares a cache line with them. The queue's fields are laid out by a superclass chain, padding between
 * each group (HotSpot lays a superclass's fields before its subclass's, but reorders one class's; see
 * {@link WaiterPad0}): {@code Pad0 -> Cold (buffer, mask) -> Pad1 -> ProducerIndex -> Pad2 ->
 * ProducerLimit -> Pad3 -> ConsumerIndex -> Pad4 -> ClosableMpscQueue}. Checked with JOL by PaddingTest.
 */
abstract class ClosableMpscQueuePad0 {
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
