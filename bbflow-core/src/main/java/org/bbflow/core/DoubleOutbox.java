package org.bbflow.core;

/**
 * Where an unboxed double stage of {@link DoubleNodes} sends its values, as {@link LongOutbox} for
 * longs: they go out in {@link DoubleBatch}es, each when full, at the end of the input batch being
 * handled (or, for a source, when it returns from its generator), or at {@link #flush()}. Used only
 * by the node's own thread.
 */
public interface DoubleOutbox {

    /**
     * Adds {@code value} to the batch being filled; sends the batch once it is full (waiting while the
     * output channel is full, like {@link Outbox#send}).
     *
     * @param value the value
     */
    void sendDouble(double value);

    /**
     * Sends the batch being filled now, if it holds anything. A source that produces slowly calls this
     * when its values should not wait for a full batch.
     */
    void flush();
}
