package org.bbflow.examples;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Latencies in nanoseconds, kept in an HdrHistogram (3 significant digits, bounded memory however
 * long the run). One recorder per thread; {@link #merge(Latencies...)} combines them afterwards.
 *
 * <p>Coordinated omission: a sender that stalls (a full channel, a GC pause) sends nothing while
 * it stalls, so latencies measured from the moment of sending never show the stall. Measure from
 * the moment an item was <em>due</em> by its schedule instead (the test bench's sensors stamp their
 * samples with their due time), or, for a closed loop with a known rate, use
 * {@link #record(long, long)}, which fills in the samples a stall kept from being taken.
 */
public final class Latencies {
    private static final int SIGNIFICANT_DIGITS = 3;
    private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS); // auto-resizing range

    /** An empty recorder. */
    public Latencies() {
    }

    /**
     * Records one latency; negative values count as 0.
     *
     * @param nanos the latency
     */
    public void record(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    /**
     * Records one latency of a loop meant to take one sample every {@code expectedIntervalNanos}:
     * a latency longer than the interval also records the samples that the stall kept from being
     * taken (latency minus one interval, minus two, ...), as HdrHistogram's
     * {@code recordValueWithExpectedInterval} does.
     *
     * @param nanos the latency
     * @param expectedIntervalNanos the loop's intended time between samples; 0 for none
     */
    public void record(long nanos, long expectedIntervalNanos) {
        histogram.recordValueWithExpectedInterval(Math.max(0, nanos), Math.max(0, expectedIntervalNanos));
    }

    /**
     * How many latencies were recorded.
     *
     * @return the count
     */
    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * The {@code p}-th percentile.
     *
     * @param p a percentile, 0..100
     * @return the latency in nanoseconds (0 if nothing was recorded)
     */
    public long percentile(double p) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(p);
    }

    /**
     * The largest latency.
     *
     * @return the maximum in nanoseconds (0 if nothing was recorded)
     */
    public long max() {
        return count() == 0 ? 0 : histogram.getMaxValue();
    }

    /**
     * A new recorder holding everything several recorders hold.
     *
     * @param all the recorders; they must no longer be recording
     * @return the union
     */
    public static Latencies merge(Latencies... all) {
        Latencies union = new Latencies();
        for (Latencies l : all) {
            union.histogram.add(l.histogram);
        }
        return union;
    }

    /**
     * A one-line summary.
     *
     * @return {@code p50 12.3 us  p90 ...  p99 ...  p99.9 ...  max ...}
     */
    public String summary() {
        return String.format(Locale.ROOT, "p50 %s  p90 %s  p99 %s  p99.9 %s  max %s", micros(percentile(50)),
                micros(percentile(90)), micros(percentile(99)), micros(percentile(99.9)), micros(max()));
    }

    /**
     * A latency in a readable unit.
     *
     * @param nanos a latency in nanoseconds
     * @return {@code 850 ns}, {@code 12.3 us} or {@code 41.2 ms}
     */
    public static String micros(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        return nanos >= 10_000_000 ? String.format(Locale.ROOT, "%.1f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }
}
