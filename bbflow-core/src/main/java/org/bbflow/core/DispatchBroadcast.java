package org.bbflow.core;

/** The same item (the same reference) to every output. */
final class DispatchBroadcast extends Dispatcher {
    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchBroadcast(out);
    }

    DispatchBroadcast(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        out.putAll(item);
    }
}
