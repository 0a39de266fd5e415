package org.bbflow.bkd;

import java.util.Arrays;

/**
 * An axis-aligned query window with inclusive bounds on both ends in every dimension.
 *
 * <p>Bounds compare like {@link Double#compare(double, double)}: {@code -0.0} is smaller than
 * {@code 0.0}, and infinities are allowed. NaN bounds and boxes whose minimum exceeds the maximum
 * in some dimension are rejected with {@link IllegalArgumentException}. Instances are immutable.
 */
public final class Box {
    final long[] min;
    final long[] max;
    private final double[] minD;
    private final double[] maxD;

    private Box(double[] min, double[] max) {
        this.minD = min.clone();
        this.maxD = max.clone();
        int dims = min.length;
        this.min = new long[dims];
        this.max = new long[dims];
        for (int d = 0; d < dims; d++) {
            if (Double.isNaN(minD[d]) || Double.isNaN(maxD[d])) {
                throw new IllegalArgumentException("NaN bound in dimension " + d);
            }
            this.min[d] = Coordinates.encode(minD[d]);
            this.max[d] = Coordinates.encode(maxD[d]);
            if (this.min[d] > this.max[d]) {
                throw new IllegalArgumentException("inverted box in dimension " + d + ": min "
                        + minD[d] + " > max " + maxD[d]);
            }
        }
    }

    /**
     * Creates a box from its lower and upper corner (both inclusive).
     *
     * @param min the lower corner
     * @param max the upper corner
     * @return the box
     * @throws IllegalArgumentException on null, mismatched or empty corners, NaN or an inverted bound
     */
    public static Box of(double[] min, double[] max) {
        if (min == null || max == null) {
            throw new IllegalArgumentException("box corners must not be null");
        }
        if (min.length != max.length) {
            throw new IllegalArgumentException("box corners have " + min.length + " and "
                    + max.length + " dimensions");
        }
        if (min.length < 1 || min.length > BkdTree.MAX_DIMS) {
            throw new IllegalArgumentException("box must have 1 to " + BkdTree.MAX_DIMS
                    + " dimensions, got " + min.length);
        }
        return new Box(min, max);
    }

    /**
     * A box containing exactly one point.
     *
     * @param point the point
     * @return the box
     */
    public static Box point(double[] point) {
        return of(point, point);
    }

    /**
     * A box covering every non-NaN point of {@code dims} dimensions.
     *
     * @param dims the number of dimensions
     * @return the box
     */
    public static Box all(int dims) {
        double[] lo = new double[dims];
        double[] hi = new double[dims];
        Arrays.fill(lo, Double.NEGATIVE_INFINITY);
        Arrays.fill(hi, Double.POSITIVE_INFINITY);
        return of(lo, hi);
    }

    /**
     * Number of dimensions.
     *
     * @return the number of dimensions
     */
    public int dims() {
        return min.length;
    }

    /**
     * Inclusive lower bound in dimension {@code d}.
     *
     * @param d the dimension, from 0
     * @return the lower bound
     */
    public double min(int d) {
        return minD[d];
    }

    /**
     * Inclusive upper bound in dimension {@code d}.
     *
     * @param d the dimension, from 0
     * @return the upper bound
     */
    public double max(int d) {
        return maxD[d];
    }

    /**
     * Whether {@code point} lies in this box (with the box's comparison semantics).
     *
     * @param point the coordinates, one per dimension
     * @return whether the point lies in the box
     */
    public boolean contains(double[] point) {
        if (point.length != min.length) {
            throw new IllegalArgumentException("point has " + point.length
                    + " dimensions, box has " + min.length);
        }
        for (int d = 0; d < point.length; d++) {
            long v = Coordinates.encode(point[d]);
            if (Double.isNaN(point[d]) || v < min[d] || v > max[d]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "Box" + Arrays.toString(minD) + ".." + Arrays.toString(maxD);
    }
}
