package org.bbflow.core;

/** The same item (the same reference) to every output. */
final class DispatchBroadcast extends Dispatcher {
    DispatchBroadcast(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        out.putAll(item);
    }
}
