package org.bbflow.core;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.DoubleConsumer;

/**
 * Doubles travelling as one item: what the unboxed stages of {@link DoubleNodes} pass between them,
 * as {@link LongBatch} is for longs: one channel operation and one allocation (this batch) per up
 * to {@link LongBatch#DEFAULT_CAPACITY} values instead of a {@code Double} and a hand-off per value.
 *
 * <p>A batch does not change while anyone may read it: the stages of {@link DoubleNodes} never
 * change a batch they received, they fill their own, and between two such stages joined one to one
 * a batch goes back to be filled again only once read, as a {@link LongBatch} does. A node of the
 * user's own that takes {@code DoubleBatch} items may keep them; it reads them with {@link #size()}
 * and {@link #get(int)}.
 */
public final class DoubleBatch {
    final double[] values;
    int size;

    DoubleBatch(int capacity) {
        this.values = new double[capacity];
    }

    /**
     * A batch holding {@code values}, in order (a copy).
     *
     * @param values the values
     * @return the batch
     */
    public static DoubleBatch of(double... values) {
        Objects.requireNonNull(values, "values");
        DoubleBatch b = new DoubleBatch(values.length);
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
    public double get(int index) {
        return values[Objects.checkIndex(index, size)];
    }

    /**
     * Passes every value, in order, to {@code action}.
     *
     * @param action what to do with each value
     */
    public void forEach(DoubleConsumer action) {
        double[] v = values;
        for (int i = 0, n = size; i < n; i++) {
            action.accept(v[i]);
        }
    }

    /**
     * The values, as a new array.
     *
     * @return a copy of the values
     */
    public double[] toArray() {
        return Arrays.copyOf(values, size);
    }

    @Override
    public String toString() {
        return "DoubleBatch" + Arrays.toString(toArray());
    }
}
