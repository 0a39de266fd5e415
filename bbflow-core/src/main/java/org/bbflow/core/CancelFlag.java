package org.bbflow.core;

/** The flow's cancellation flag, read by every node per item; padded (128 bytes each side, a superclass chain) so no other write shares its line. */
final class CancelFlag extends CancelFlagPad1 {
}

/** Thrown inside a node's thread to unwind it once the flow is cancelled. Never escapes the runtime. */
final class Cancelled extends RuntimeException {
    static final Cancelled INSTANCE = new Cancelled();

    private Cancelled() {
        super("flow cancelled", null, false, false);
    }
}
