package org.bbflow.examples.som;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A horizontal strip of a self-organizing map: rows {@code [firstRow, firstRow + rows)} of a grid of
 * neurons with {@code cols} columns, each neuron a weight vector of {@code dims} doubles, stored row
 * by row in one flat array. The whole map is simply a strip starting at row 0, so the sequential
 * and the parallel versions run exactly the same arithmetic and produce bit-identical maps.
 */
public final class SomStrip {
    private final int firstRow;
    private final int rows;
    private final int cols;
    private final int dims;
    private final double[] weights;

    private SomStrip(int firstRow, int rows, int cols, int dims, double[] weights) {
        this.firstRow = firstRow;
        this.rows = rows;
        this.cols = cols;
        this.dims = dims;
        this.weights = weights;
    }

    /** A whole map with weights drawn uniformly from [0, 1) by a generator seeded with {@code seed}. */
    public static SomStrip randomMap(int rows, int cols, int dims, long seed) {
        if (rows < 1 || cols < 1 || dims < 1) {
            throw new IllegalArgumentException("map needs rows, cols, dims >= 1, got " + rows + "x" + cols + "x" + dims);
        }
        double[] w = new double[Math.multiplyExact(Math.multiplyExact(rows, cols), dims)];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < w.length; i++) {
            w[i] = random.nextDouble();
        }
        return new SomStrip(0, rows, cols, dims, w);
    }

    /** A copy of rows {@code [from, to)} of this strip, as a strip of its own. */
    public SomStrip slice(int from, int to) {
        if (from < firstRow || to > firstRow + rows || from >= to) {
            throw new IllegalArgumentException("rows [" + from + ", " + to + ") are not inside this strip");
        }
        int rowLength = cols * dims;
        double[] w = Arrays.copyOfRange(weights, (from - firstRow) * rowLength, (to - firstRow) * rowLength);
        return new SomStrip(from, to - from, cols, dims, w);
    }

    /** Strips joined top to bottom into one map (they must be adjacent and in order). */
    public static SomStrip join(SomStrip... strips) {
        int rows = 0;
        for (SomStrip s : strips) {
            if (s.firstRow != rows) {
                throw new IllegalArgumentException("strip starting at row " + s.firstRow + " does not follow row " + rows);
            }
            rows += s.rows;
        }
        SomStrip first = strips[0];
        double[] w = new double[rows * first.cols * first.dims];
        int at = 0;
        for (SomStrip s : strips) {
            System.arraycopy(s.weights, 0, w, at, s.weights.length);
            at += s.weights.length;
        }
        return new SomStrip(0, rows, first.cols, first.dims, w);
    }

    /** The best-matching neuron of a strip: its index in the whole map (row * cols + col) and distance. */
    public record Match(int index, double distance) {
    }

    /**
     * Finds the neuron closest to {@code x} (squared Euclidean distance); on a tie the first in row
     * order wins.
     */
    public Match bestMatch(double[] x) {
        double best = Double.POSITIVE_INFINITY;
        int bestAt = 0;
        final double[] w = weights;
        final int d = dims;
        for (int n = 0, at = 0, count = rows * cols; n < count; n++, at += d) {
            double dist = 0;
            for (int k = 0; k < d; k++) {
                double diff = x[k] - w[at + k];
                dist += diff * diff;
            }
            if (dist < best) {
                best = dist;
                bestAt = n;
            }
        }
        return new Match(firstRow * cols + bestAt, best);
    }

    /**
     * Moves the neurons around the winner {@code (bmuRow, bmuCol)} towards {@code x}: each neuron
     * within {@code radius} rows and columns moves by {@code alpha * h}, where h is a Gaussian of its
     * grid distance to the winner. Only this strip's rows are touched.
     */
    public void learn(double[] x, int bmuRow, int bmuCol, double alpha, int radius) {
        double sigma = Math.max(radius / 2.0, 0.5);
        double twoSigma2 = 2 * sigma * sigma;
        int r0 = Math.max(bmuRow - radius, firstRow);
        int r1 = Math.min(bmuRow + radius, firstRow + rows - 1);
        int c0 = Math.max(bmuCol - radius, 0);
        int c1 = Math.min(bmuCol + radius, cols - 1);
        for (int r = r0; r <= r1; r++) {
            int dr = r - bmuRow;
            for (int c = c0; c <= c1; c++) {
                int dc = c - bmuCol;
                double rate = alpha * Math.exp(-(dr * dr + dc * dc) / twoSigma2);
                int at = ((r - firstRow) * cols + c) * dims;
                for (int k = 0; k < dims; k++) {
                    weights[at + k] += rate * (x[k] - weights[at + k]);
                }
            }
        }
    }

    /** Whether a learning step around {@code bmuRow} reaches rows above this strip. */
    public boolean reachesAbove(int bmuRow, int radius) {
        return bmuRow - radius < firstRow;
    }

    /** Whether a learning step around {@code bmuRow} reaches rows below this strip. */
    public boolean reachesBelow(int bmuRow, int radius) {
        return bmuRow + radius >= firstRow + rows;
    }

    /** The first row of this strip in the whole map. */
    public int firstRow() {
        return firstRow;
    }

    /** The number of rows. */
    public int rows() {
        return rows;
    }

    /** The number of columns. */
    public int cols() {
        return cols;
    }

    /** The weight-vector length. */
    public int dims() {
        return dims;
    }

    /** A copy of the weights, row by row. */
    public double[] weights() {
        return weights.clone();
    }
}
