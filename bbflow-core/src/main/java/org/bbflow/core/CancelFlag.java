package org.bbflow.core;

/** The flow's cancellation flag, read by every node per item; padded so no other write shares its line. */
final class CancelFlag {
    long p01, p02, p03, p04, p05, p06, p07;
    volatile boolean raised;
    long p11, p12, p13, p14, p15, p16, p17;
}

/** Thrown inside a node's thread to unwind it once the flow is cancelled. Never escapes the runtime. */
final class Cancelled extends RuntimeException {
    static final Cancelled INSTANCE = new Cancelled();

    private Cancelled() {
        super("flow cancelled", null, false, false);
    }
}
