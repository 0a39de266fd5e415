package org.bbflow.examples;

import java.util.Arrays;
import java.util.Locale;

/**
 * Latencies recorded by one thread, in nanoseconds, with exact percentiles. Holds up to a fixed
 * number of values; beyond that it keeps every k-th value (a uniform sample), so memory stays
 * bounded on long runs.
 */
public final class Latencies {
    private long[] values;
    private int size;
    private long seen;
    private int keepEvery = 1;

    /** A recorder keeping at most {@code capacity} values. */
    public Latencies(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        values = new long[capacity];
    }

    /** Records one latency. */
    public void record(long nanos) {
        if (seen++ % keepEvery != 0) {
            return;
        }
        if (size == values.length) { // full: keep every other value from now on
            for (int i = 0; i < size / 2; i++) {
                values[i] = values[2 * i];
            }
            size /= 2;
            keepEvery *= 2;
        }
        values[size++] = nanos;
    }

    /** How many latencies were recorded (including those not kept). */
    public long count() {
        return seen;
    }

    /** Merges another recorder's kept values into a new sorted snapshot. */
    public static long[] sortedUnion(Latencies... all) {
        int n = 0;
        for (Latencies l : all) {
            n += l.size;
        }
        long[] v = new long[n];
        int at = 0;
        for (Latencies l : all) {
            System.arraycopy(l.values, 0, v, at, l.size);
            at += l.size;
        }
        Arrays.sort(v);
        return v;
    }

    /** The {@code p}-th percentile (0..100) of sorted values; 0 if there are none. */
    public static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** {@code p50 12.3 us  p90 ...  p99 ...  p99.9 ...  max ...} of sorted values. */
    public static String summary(long[] sorted) {
        return String.format(Locale.ROOT, "p50 %s  p90 %s  p99 %s  p99.9 %s  max %s",
                micros(percentile(sorted, 50)), micros(percentile(sorted, 90)), micros(percentile(sorted, 99)),
                micros(percentile(sorted, 99.9)), micros(percentile(sorted, 100)));
    }

    /** A latency in a readable unit: {@code 850 ns}, {@code 12.3 us}, {@code 41.2 ms}. */
    public static String micros(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        return nanos >= 10_000_000 ? String.format(Locale.ROOT, "%.1f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }
}
