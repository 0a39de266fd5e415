package org.bbflow.core;

/** A node without outputs (a sink): sending is a bug in the user's flow. */
final class DispatchNone extends Dispatcher {
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
