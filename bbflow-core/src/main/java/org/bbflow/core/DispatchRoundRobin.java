package org.bbflow.core;

/** One item per output in turn. */
final class DispatchRoundRobin extends Dispatcher {
    private int next;

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
