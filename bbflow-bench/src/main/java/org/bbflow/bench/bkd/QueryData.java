package org.bbflow.bench.bkd;

import java.util.SplittableRandom;

/** The shared benchmark data: uniform 2-D points in [0, 10000) and query windows of a given selectivity. */
final class QueryData {
    static final double EXTENT = 10_000;

    private QueryData() {}

    static double[] xs(int size) {
        return coords(size, 1);
    }

    static double[] ys(int size) {
        return coords(size, 2);
    }

    private static double[] coords(int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] a = new double[size];
        for (int i = 0; i < size; i++) {
            a[i] = r.nextDouble() * EXTENT;
        }
        return a;
    }

    /** 64 square windows covering {@code selectivity} of the domain, at random offsets; rows are {minX, minY, maxX, maxY}. */
    static double[][] windows(double selectivity) {
        double side = EXTENT * Math.sqrt(selectivity);
        SplittableRandom r = new SplittableRandom(99);
        double[][] w = new double[64][];
        for (int i = 0; i < w.length; i++) {
            double x = selectivity >= 1 ? 0 : r.nextDouble() * (EXTENT - side);
            double y = selectivity >= 1 ? 0 : r.nextDouble() * (EXTENT - side);
            w[i] = new double[] {x, y, x + side, y + side};
        }
        return w;
    }
}
