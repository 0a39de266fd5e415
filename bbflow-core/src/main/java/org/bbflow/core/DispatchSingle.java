package org.bbflow.core;

/** One output (a pipeline stage), or the way back of a node that closes a feedback loop: output 0. */
final class DispatchSingle extends Dispatcher {
    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchSingle(out);
    }

    DispatchSingle(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        out.put(0, item);
    }
}
