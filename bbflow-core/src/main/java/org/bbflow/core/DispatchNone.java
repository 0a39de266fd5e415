package org.bbflow.core;

/** A node without outputs (a sink): sending is a bug in the user's flow. */
final class DispatchNone extends Dispatcher {
    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchNone(out);
    }

    DispatchNone(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        throw noOutput(out.path());
    }

    static IllegalStateException noOutput(String path) {
        return new IllegalStateException("node " + path + " has no output to send to"
                + " (end the flow with a sink, or do not send from it)");
    }
}
