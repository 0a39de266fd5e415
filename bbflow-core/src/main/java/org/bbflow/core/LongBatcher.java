package org.bbflow.core;

/**
 * The {@link LongOutbox} of a node of {@link LongNodes}: fills a new batch, sends it to the node's
 * outbox when full or flushed. A new batch is made only when a value comes after a send, so an
 * input batch that sends nothing costs nothing.
 */
final class LongBatcher implements LongOutbox {
    private final int capacity;
    private Outbox<LongBatch> out;
    private LongBatch batch;

    LongBatcher(int capacity) {
        this.capacity = requireCapacity(capacity);
    }

    static int requireCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a batch holds at least 1 value, got " + capacity);
        }
        return capacity;
    }

    /** Sends to {@code out} from now on (the outbox of the current call). */
    LongBatcher to(Outbox<LongBatch> out) {
        this.out = out;
        return this;
    }

    @Override
    public void sendLong(long value) {
        LongBatch b = batch;
        if (b == null) {
            b = batch = new LongBatch(capacity);
        }
        b.values[b.size++] = value;
        if (b.size == capacity) {
            batch = null;
            out.send(b);
        }
    }

    @Override
    public void flush() {
        LongBatch b = batch;
        if (b != null && b.size > 0) {
            batch = null;
            out.send(b);
        }
    }
}
