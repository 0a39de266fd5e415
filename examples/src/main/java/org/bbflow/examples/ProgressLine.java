package org.bbflow.examples;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.bbflow.core.Flow;
import org.bbflow.core.NodeStats;
import org.bbflow.core.RunStats;

/**
 * A progress line for anything that runs longer than a couple of seconds: items done, items per
 * second over the last interval and, for a running {@link Flow}, each stage's busy share over the
 * last interval (farm workers are averaged into one stage). Nothing is printed for a run shorter
 * than the initial delay, so quick runs stay quiet.
 *
 * <pre>{@code
 * Flow flow = Flow.start(pipeline);
 * try (ProgressLine p = ProgressLine.start(out, "farm 2w", flow::stats, sink::count)) {
 *     stats = flow.join();
 * }
 * }</pre>
 *
 * Sample line: {@code [farm 2w] 6,400 items, 1,590 items/s | busy: source 1% worker*2 98% collector 3% sink 0%}
 */
public final class ProgressLine implements AutoCloseable {
    /** Delay before the first line. */
    public static final long FIRST_LINE_MILLIS = 2_000;
    /** Time between lines. */
    public static final long INTERVAL_MILLIS = 1_000;

    private final Output out;
    private final String label;
    private final Supplier<RunStats> stats;
    private final LongSupplier done;
    private final String unit;
    private final Thread thread;
    private final Map<String, long[]> lastBusyIdle = new HashMap<>();
    private volatile boolean closed;

    private ProgressLine(Output out, String label, Supplier<RunStats> stats, LongSupplier done, String unit) {
        this.unit = unit;
        this.out = out;
        this.label = label;
        this.stats = stats;
        this.done = done;
        this.thread = new Thread(this::loop, "progress-" + label);
        this.thread.setDaemon(true);
    }

    /**
     * Starts printing.
     *
     * @param flow the running flow whose stages' busy shares are shown, or null for a plain loop
     * @param done items completed so far
     */
    public static ProgressLine start(Output out, String label, Flow flow, LongSupplier done) {
        return start(out, label, flow, done, "items");
    }

    /** Starts printing, counting in {@code unit} (e.g. {@code MiB}, {@code samples}). */
    public static ProgressLine start(Output out, String label, Flow flow, LongSupplier done, String unit) {
        ProgressLine p = new ProgressLine(out, label, flow == null ? null : flow::stats, done, unit);
        p.thread.start();
        return p;
    }

    private void loop() {
        long start = System.nanoTime();
        long lastNanos = start;
        long lastDone = 0;
        long next = start + FIRST_LINE_MILLIS * 1_000_000L;
        while (!closed) {
            long now = System.nanoTime();
            if (now < next) {
                // a progress display only: waking up late or early changes nothing but the timing of a line
                java.util.concurrent.locks.LockSupport.parkNanos(this, Math.min(next - now, 50_000_000L));
                continue;
            }
            long d = done.getAsLong();
            double rate = (d - lastDone) / ((now - lastNanos) / 1e9);
            String busy = stats == null ? "" : " | busy: " + busyShares(stats.get(), now - lastNanos);
            if (!closed) {
                out.println(String.format(Locale.ROOT, "[%s] %,d %s, %,.0f %s/s%s", label, d, unit, rate, unit, busy));
            }
            lastDone = d;
            lastNanos = now;
            next = now + INTERVAL_MILLIS * 1_000_000L;
        }
    }

    /**
     * Busy share per stage since the previous call, e.g. {@code source done worker*2 98% sink 0%}; a
     * stage whose nodes have all ended is shown as {@code done}.
     */
    private String busyShares(RunStats s, long intervalNanos) {
        Map<String, double[]> byStage = new LinkedHashMap<>(); // stage -> {sum of shares, live nodes, nodes}
        for (NodeStats n : s.nodes()) {
            long[] last = lastBusyIdle.getOrDefault(n.path(), new long[3]);
            long busy = Math.max(0, n.busyNanos() - last[0]); // live snapshots are approximate
            long idle = Math.max(0, n.idleNanos() - last[1]);
            long offCpu = Math.max(0, n.offCpuNanos() - last[2]);
            lastBusyIdle.put(n.path(), new long[] {n.busyNanos(), n.idleNanos(), n.offCpuNanos()});
            double[] acc = byStage.computeIfAbsent(stageOf(n), k -> new double[3]);
            acc[2]++;
            long alive = busy + idle + offCpu;
            if (alive > intervalNanos / 20) { // the node lived through (most of) the interval
                acc[0] += (double) busy / alive;
                acc[1]++;
            }
        }
        StringBuilder b = new StringBuilder();
        byStage.forEach((stage, acc) -> {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(stage);
            if (acc[2] > 1) {
                b.append('*').append((int) acc[2]);
            }
            b.append(acc[1] == 0 ? " done" : String.format(Locale.ROOT, " %.0f%%", 100 * acc[0] / acc[1]));
        });
        return b.toString();
    }

    /**
     * The stage a node belongs to: its own name ({@code sensor}, {@code deflate}), or for the library's
     * generic nodes its place ({@code pipeline/farm[1]/worker-3} becomes {@code worker}).
     */
    static String stageOf(NodeStats n) {
        if (!GENERIC_NAMES.contains(n.name())) {
            return n.name();
        }
        String path = n.path();
        String last = path.substring(path.lastIndexOf('/') + 1);
        return last.replaceAll("\\[\\d+\\]$", "").replaceAll("-\\d+$", "");
    }

    private static final java.util.Set<String> GENERIC_NAMES = java.util.Set.of("map", "filter", "flatMap",
            "stateful", "identity", "node");

    /** Stops printing; waits for the printing thread so no line follows the caller's summary. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
