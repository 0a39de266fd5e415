package org.bbflow.bench.bkd;

import java.util.SplittableRandom;

/**
 * The shared benchmark data: uniform 2-D points in [0, 10000), query windows of a given
 * selectivity, kNN query points, and the brute-force answers every benchmark checks its own
 * answers against before it is measured (a benchmark whose counts differ fails).
 */
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

    /** 64 kNN query points, uniform in the domain; rows are {x, y}. */
    static double[][] queryPoints() {
        SplittableRandom r = new SplittableRandom(77);
        double[][] q = new double[64][];
        for (int i = 0; i < q.length; i++) {
            q[i] = new double[] {r.nextDouble() * EXTENT, r.nextDouble() * EXTENT};
        }
        return q;
    }

    /** Brute-force number of points in each window (inclusive bounds, as every index under test). */
    static long[] expectedCounts(double[] xs, double[] ys, double[][] windows) {
        long[] n = new long[windows.length];
        for (int w = 0; w < windows.length; w++) {
            double[] b = windows[w];
            for (int i = 0; i < xs.length; i++) {
                if (xs[i] >= b[0] && xs[i] <= b[2] && ys[i] >= b[1] && ys[i] <= b[3]) {
                    n[w]++;
                }
            }
        }
        return n;
    }

    /** Fails the benchmark unless {@code got} equals the brute-force count of window {@code w}. */
    static void check(String what, int w, long expected, long got) {
        if (expected != got) {
            throw new IllegalStateException(what + ": window " + w + " counted " + got + ", brute force "
                    + expected + " (the benchmark is not comparing equal work)");
        }
    }

    /** Brute-force distance of the k-th nearest point to {@code q} (Euclidean, on the doubles). */
    static double kthDistance(double[] xs, double[] ys, double[] q, int k) {
        double[] best = new double[k];
        java.util.Arrays.fill(best, Double.POSITIVE_INFINITY);
        for (int i = 0; i < xs.length; i++) {
            double dx = xs[i] - q[0];
            double dy = ys[i] - q[1];
            double d = dx * dx + dy * dy;
            if (d < best[k - 1]) {
                int j = k - 1;
                while (j > 0 && best[j - 1] > d) {
                    best[j] = best[j - 1];
                    j--;
                }
                best[j] = d;
            }
        }
        return Math.sqrt(best[k - 1]);
    }
}
