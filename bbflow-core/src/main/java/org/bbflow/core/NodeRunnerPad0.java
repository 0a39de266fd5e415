package org.bbflow.core;

/** 128 bytes of padding before {@link NodeRunner}'s per-item fields ({@link NodeRunnerHotFields}). */
abstract class NodeRunnerPad0 {
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
    /** Fills the gap after a compressed class pointer, where a subclass's int would go. */
    int p0fill;
}
