package org.bbflow.core;

/**
 * The {@link LongOutbox} of a node of {@link LongNodes}: fills a batch (its stage's
 * {@link BatchStage#newLongBatch(int, int)}, so a returned one where the output recycles), sends it to the node's
 * outbox when full or flushed. A batch is taken only when a value comes after a send, so an input
 * batch that sends nothing costs nothing.
 */
final class LongBatcher implements LongOutbox {
    private final BatchStage<?, ?> stage;
    private final int capacity;
    private Outbox<LongBatch> out;
    private LongBatch batch;

    LongBatcher(BatchStage<?, ?> stage, int capacity) {
        this.stage = stage;
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
            b = batch = stage.newLongBatch(capacity, capacity);
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

    /** Drops the batch being filled, unsent (its flow is over: see {@link BatchStage#discardKept()}). */
    void discard() {
        batch = null;
    }
}
