package org.bbflow.core;

/** One item per output in turn. */
final class DispatchRoundRobin extends Dispatcher {
    private int next;

    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchRoundRobin(out);
    }

    DispatchRoundRobin(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        int i = next;
        next = i + 1 == n ? 0 : i + 1;
        out.put(i, item);
    }
}
