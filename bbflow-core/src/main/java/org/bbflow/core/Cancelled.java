package org.bbflow.core;

/** Thrown inside a node's thread to unwind it once the flow is cancelled. Never escapes the runtime. */
final class Cancelled extends RuntimeException {
    static final Cancelled INSTANCE = new Cancelled();

    private Cancelled() {
        super("flow cancelled", null, false, false);
    }
}
