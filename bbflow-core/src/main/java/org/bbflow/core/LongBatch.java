package org.bbflow.core;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Longs travelling as one item: what the unboxed stages of {@link LongNodes} pass between them. A
 * stream of longs then moves without a box per item, with one channel operation and one allocation
 * (this batch) per up to {@link #DEFAULT_CAPACITY} values instead of one of each per value.
 *
 * <p>A batch does not change while anyone may read it: the stages of {@link LongNodes} never change
 * a batch they received (a batch broadcast to several nodes is read by all of them), they fill their
 * own. Between two such stages joined one to one, the second gives each batch back to the first once
 * it has read it, and the first fills it again (see {@link LongNodes}); a batch that reaches a node
 * of the user's own is never taken back, so such a node may keep it. It reads one with
 * {@link #size()} and {@link #get(int)}.
 */
public final class LongBatch {
    /** The most values a batch made by {@link LongNodes} holds unless told otherwise. */
    public static final int DEFAULT_CAPACITY = 256;

    final long[] values;
    int size;

    LongBatch(int capacity) {
        this.values = new long[capacity];
    }

    /**
     * A batch holding {@code values}, in order (a copy).
     *
     * @param values the values
     * @return the batch
     */
    public static LongBatch of(long... values) {
        Objects.requireNonNull(values, "values");
        LongBatch b = new LongBatch(values.length);
        System.arraycopy(values, 0, b.values, 0, values.length);
        b.size = values.length;
        return b;
    }

    /**
     * How many values the batch holds.
     *
     * @return the number of values
     */
    public int size() {
        return size;
    }

    /**
     * The value at {@code index}.
     *
     * @param index in {@code [0, size())}
     * @return the value
     * @throws IndexOutOfBoundsException if index is outside the batch
     */
    public long get(int index) {
        return values[Objects.checkIndex(index, size)];
    }

    /**
     * Passes every value, in order, to {@code action}.
     *
     * @param action what to do with each value
     */
    public void forEach(LongConsumer action) {
        long[] v = values;
        for (int i = 0, n = size; i < n; i++) {
            action.accept(v[i]);
        }
    }

    /**
     * The values, as a new array.
     *
     * @return a copy of the values
     */
    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }

    @Override
    public String toString() {
        return "LongBatch" + Arrays.toString(toArray());
    }
}
