package org.bbflow.bench.support;

/**
 * The thesis's synthetic CPU-bound task (Code 11 and Code 27): the item is unboxed once to a
 * primitive and {@code y *= 1000; y /= 999} is repeated. Iterating the same step means that
 * {@code spin(spin(x, a), b) == spin(x, a + b)}, so a pipeline of stages each doing a share of the
 * work computes exactly what the sequential loop computes.
 */
public final class Work {
    private Work() {
    }

    /** Repeats the thesis's multiply/divide step {@code reps} times on {@code x}. */
    public static long spin(long x, int reps) {
        long y = x;
        for (int i = 0; i < reps; i++) {
            y *= 1000;
            y /= 999;
        }
        return y;
    }

    /** The sequential reference: the sum of {@code spin(i, reps)} for i = 1..items. */
    public static long sequential(int items, int reps) {
        long acc = 0;
        for (long i = 1; i <= items; i++) {
            acc += spin(i, reps);
        }
        return acc;
    }
}
