package org.bbflow.core;

/**
 * The {@link DoubleOutbox} of a node of {@link DoubleNodes}: fills a new batch, sends it to the
 * node's outbox when full or flushed (as {@link LongBatcher} does for longs; Java has no primitive
 * generics, so each primitive type has its own, as the JDK's primitive streams do).
 */
final class DoubleBatcher implements DoubleOutbox {
    private final BatchStage<?, ?> stage;
    private final int capacity;
    private Outbox<DoubleBatch> out;
    private DoubleBatch batch;

    DoubleBatcher(BatchStage<?, ?> stage, int capacity) {
        this.stage = stage;
        this.capacity = LongBatcher.requireCapacity(capacity);
    }

    /** Sends to {@code out} from now on (the outbox of the current call). */
    DoubleBatcher to(Outbox<DoubleBatch> out) {
        this.out = out;
        return this;
    }

    @Override
    public void sendDouble(double value) {
        DoubleBatch b = batch;
        if (b == null) {
            b = batch = stage.newDoubleBatch(capacity, capacity);
        }
        b.values[b.size++] = value;
        if (b.size == capacity) {
            batch = null;
            out.send(b);
        }
    }

    @Override
    public void flush() {
        DoubleBatch b = batch;
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
