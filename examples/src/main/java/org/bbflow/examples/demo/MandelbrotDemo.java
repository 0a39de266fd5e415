package org.bbflow.examples.demo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.examples.Machine;
import org.bbflow.examples.Output;
import org.bbflow.examples.ProgressLine;

/**
 * The main job: renders the Mandelbrot set row by row, with a plain loop and streamed through
 * {@code source -> ordered farm of N workers -> sink} for N = 1 .. max(2, cores), and prints time,
 * speedup and efficiency against the loop, then the per-node statistics of the widest farm. Every
 * configuration first runs once untimed (a warm-up), then the timed rounds run them all in turn and
 * each reports its fastest round. Every farm run must produce exactly the loop's rows, in order.
 *
 * <p>The flow a user copies:
 *
 * <pre>{@code
 * Pipeline<Void, Void> flow = Pipeline.of(
 *     Nodes.source(out -> { for (int y = 0; y < height; y++) out.send(y); }),
 *     Farm.of(workers, () -> Nodes.map((Integer y) -> image.renderRow(y))).ordered(),
 *     new ImageSink(height));                // stores rows[y], checks they arrive in order
 * RunStats stats = flow.run();
 * }</pre>
 */
public final class MandelbrotDemo {
    private MandelbrotDemo() {
    }

    /**
     * What to render and how often.
     *
     * @param rows image height: the number of items streamed
     * @param width pixels per row
     * @param maxIterations the work per pixel (escape-time limit)
     * @param maxWorkers the widest farm; runs use 1 .. maxWorkers workers
     * @param progress whether to print progress lines on long runs
     * @param rounds how many timed rounds (each runs the loop and every farm once, in turn); each
     *        configuration reports its fastest round
     */
    public record Options(int rows, int width, int maxIterations, int maxWorkers, boolean progress, int rounds) {
        /** Checks the counts. */
        public Options {
            if (rows < 1 || width < 1 || maxIterations < 1 || maxWorkers < 1 || rounds < 1) {
                throw new IllegalArgumentException("rows, width, maxIterations, maxWorkers and rounds must be >= 1: "
                        + rows + ", " + width + ", " + maxIterations + ", " + maxWorkers + ", " + rounds);
            }
        }

        /** Two timed rounds. */
        public Options(int rows, int width, int maxIterations, int maxWorkers, boolean progress) {
            this(rows, width, maxIterations, maxWorkers, progress, 2);
        }

        /** Defaults: about 15 s in all on 2 cores (a warm-up, then two rounds). */
        public static Options defaults() {
            return new Options(800, 1_200, 4_000, Math.max(2, Runtime.getRuntime().availableProcessors()), true, 2);
        }

        /** The rows of the warm-up: a quarter of the image, at least one row. */
        int warmupRows() {
            return Math.max(1, rows / 4);
        }
    }

    /** One rendered row: its index and the sum of its pixels' escape times (the row's checksum). */
    public record Row(int y, long iterations) {
    }

    /**
     * One timed run: {@code workers == 0} is the sequential loop; {@code coresUsed} is the JVM's CPU
     * time over the run's wall time (below the worker count when other processes took the cores).
     */
    public record Run(int workers, double seconds, double coresUsed, boolean sameAsSequential, boolean inOrder,
                      RunStats stats) {
        /** Loop time divided by this run's time. */
        public double speedup(double sequentialSeconds) {
            return sequentialSeconds / seconds;
        }
    }

    /**
     * The outcome.
     *
     * @param sequentialRows the loop's result, one checksum per row
     * @param runs per configuration its fastest timed round: the loop first, then one run per farm width
     * @param warmup the untimed runs before the first timed one: the loop and every farm width, on
     *        {@code rows / 4} rows, so that the JIT has compiled the row and the flow before any clock starts
     * @param rounds every timed round, in the order run: each the loop, then the farms, narrowest first
     */
    public record Result(long[] sequentialRows, List<Run> runs, List<Run> warmup, List<List<Run>> rounds) {
        /** The sequential loop's run. */
        public Run sequential() {
            return runs.get(0);
        }

        /** True when every farm run, of every round, equals the loop, row for row and in order. */
        public boolean allMatch() {
            return rounds.stream().flatMap(List::stream).allMatch(r -> r.sameAsSequential && r.inOrder);
        }
    }

    /** The escape time of every pixel of one row of a {@code width x height} view of the set. */
    public static Row renderRow(int y, int width, int height, int maxIterations) {
        double ci = -1.2 + 2.4 * y / height;
        long sum = 0;
        for (int x = 0; x < width; x++) {
            double cr = -2.2 + 3.2 * x / width;
            double zr = 0;
            double zi = 0;
            int i = 0;
            while (i < maxIterations && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                i++;
            }
            sum += i;
        }
        return new Row(y, sum);
    }

    /** Runs the loop and the farms, silently. */
    public static Result run(Options o) {
        return run(o, Output.silent());
    }

    /**
     * Warms up, then runs the loop and the farms; progress lines go to {@code out} if enabled. The
     * warm-up runs every configuration once on a quarter of the rows, untimed; then each of
     * {@code rounds} timed rounds runs the loop and every farm width in turn, so that a change in the
     * machine's speed (another process, a frequency step) hits every configuration alike, and each
     * configuration reports its fastest round.
     */
    public static Result run(Options o, Output out) {
        Options small = new Options(o.warmupRows(), o.width, o.maxIterations, o.maxWorkers, false, 1);
        long[] smallExpected = new long[small.rows];
        List<Run> warmup = new ArrayList<>();
        warmup.add(runLoop(small, smallExpected, Output.silent()));
        for (int w = 1; w <= o.maxWorkers; w++) {
            warmup.add(runFarm(small, w, smallExpected, Output.silent()));
        }
        long[] expected = new long[o.rows];
        List<List<Run>> rounds = new ArrayList<>();
        for (int round = 0; round < o.rounds; round++) {
            List<Run> runs = new ArrayList<>();
            long[] rows = round == 0 ? expected : new long[o.rows];
            runs.add(runLoop(o, rows, out));
            if (round > 0 && !Arrays.equals(rows, expected)) {
                throw new IllegalStateException("the loop computed different rows in round " + (round + 1));
            }
            for (int w = 1; w <= o.maxWorkers; w++) {
                runs.add(runFarm(o, w, expected, out));
            }
            rounds.add(List.copyOf(runs));
        }
        List<Run> best = new ArrayList<>();
        for (int i = 0; i < rounds.get(0).size(); i++) {
            Run fastest = null;
            for (List<Run> round : rounds) {
                if (fastest == null || round.get(i).seconds() < fastest.seconds()) {
                    fastest = round.get(i);
                }
            }
            best.add(fastest);
        }
        return new Result(expected, List.copyOf(best), List.copyOf(warmup), List.copyOf(rounds));
    }

    /** The sequential loop over every row, timed; fills {@code rows}. */
    private static Run runLoop(Options o, long[] rows, Output out) {
        AtomicLong done = new AtomicLong();
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        try (ProgressLine p = o.progress ? ProgressLine.start(out, "sequential", null, done::get, "rows") : null) {
            for (int y = 0; y < o.rows; y++) {
                rows[y] = renderRow(y, o.width, o.rows, o.maxIterations).iterations();
                done.lazySet(y + 1);
            }
        }
        long wall = System.nanoTime() - t0;
        return new Run(0, wall / 1e9, Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall), true, true, null);
    }

    /** The sink: stores each row's checksum and notes whether rows arrived in order. */
    static final class ImageSink implements Node<Row, Void> {
        final long[] rows;
        final AtomicLong received = new AtomicLong(); // read by the progress line while the flow runs
        boolean inOrder = true;

        ImageSink(int height) {
            rows = new long[height];
        }

        @Override
        public void onItem(Row r, Outbox<Void> out) {
            long n = received.get();
            if (r.y() != n) {
                inOrder = false;
            }
            rows[r.y()] = r.iterations();
            received.lazySet(n + 1);
        }

        @Override
        public String name() {
            return "image";
        }
    }

    /** One farm of {@code workers}, timed; its rows are compared with the loop's ({@code expected}). */
    private static Run runFarm(Options o, int workers, long[] expected, Output out) {
        ImageSink image = new ImageSink(o.rows);
        Pipeline<Void, Void> flow = Pipeline.of(
                Nodes.source(rows -> {
                    for (int y = 0; y < o.rows; y++) {
                        rows.send(y);
                    }
                }),
                Farm.of(workers, () -> Nodes.map((Integer y) -> renderRow(y, o.width, o.rows, o.maxIterations)))
                        .ordered(),
                image);
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        Flow running = Flow.start(flow);
        RunStats stats;
        try (ProgressLine p = o.progress
                ? ProgressLine.start(out, "farm " + workers + "w", running, image.received::get, "rows") : null) {
            stats = running.join();
        }
        long wall = System.nanoTime() - t0;
        // join() waited for every node thread, so the sink's fields are visible here
        return new Run(workers, wall / 1e9, Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall),
                Arrays.equals(image.rows, expected) && image.received.get() == o.rows, image.inOrder, stats);
    }

    /** A 1-worker farm cannot beat the loop by more than this share on a steady machine. */
    static final double PLAUSIBLE_ONE_WORKER_SPEEDUP = 1.10;

    /** Prints the speedup table and the widest farm's per-node statistics. */
    public static void print(Options o, Result r, Output out) {
        double seq = r.sequential().seconds();
        out.println("");
        out.println(String.format(Locale.ROOT, "%-12s %9s %10s %8s %10s %10s  %s", "run", "time s", "rows/s", "speedup",
                "efficiency", "cores used", "result"));
        for (Run run : r.runs()) {
            String name = run.workers() == 0 ? "sequential" : "farm " + run.workers() + "w";
            String eff = run.workers() == 0 ? "-" : String.format(Locale.ROOT, "%.2f", run.speedup(seq) / run.workers());
            String check = run.workers() == 0 ? "reference"
                    : run.sameAsSequential() && run.inOrder() ? "same rows, in order" : "MISMATCH";
            out.println(String.format(Locale.ROOT, "%-12s %9.3f %,10.0f %8.2f %10s %10.2f  %s", name, run.seconds(),
                    o.rows / run.seconds(), run.speedup(seq), eff, run.coresUsed(), check));
        }
        out.println(String.format(Locale.ROOT, "(each the fastest of %d round%s, after an untimed warm-up on %d rows)",
                r.rounds().size(), r.rounds().size() == 1 ? "" : "s", o.warmupRows()));
        for (Run run : r.runs()) {
            if (run.workers() == 1 && run.speedup(seq) > PLAUSIBLE_ONE_WORKER_SPEEDUP) {
                out.println(String.format(Locale.ROOT, "note: the 1-worker farm ran %.2fx faster than the loop, which"
                        + " does the same work on one thread: the machine's speed changed between runs (other"
                        + " processes?); rerun with more --rounds on an idle machine", run.speedup(seq)));
            }
        }
        Run widest = r.runs().get(r.runs().size() - 1);
        out.println("");
        out.println("per-node statistics, farm of " + widest.workers() + " workers (busy = CPU time):");
        for (String line : widest.stats().table().split("\n")) {
            out.println(line);
        }
    }

    /**
     * The {@code demo} subcommand: runs the loop and the farms and prints the comparison.
     *
     * @param o the options
     * @param out where to print
     * @return 0 if every farm produced the loop's rows in order, else 1
     */
    public static int main(Options o, Output out) {
        out.println(String.format(Locale.ROOT,
                "BBFlow demo: Mandelbrot set, %d rows x %d pixels, up to %,d iterations per pixel.", o.rows, o.width,
                o.maxIterations));
        out.println(String.format(Locale.ROOT,
                "Sequential loop, then source -> ordered farm of 1..%d workers -> sink (%d cores available);"
                        + " a warm-up, then %d timed round%s.",
                o.maxWorkers, Runtime.getRuntime().availableProcessors(), o.rounds, o.rounds == 1 ? "" : "s"));
        Result r = run(o, out);
        print(o, r, out);
        Machine.warnIfBusy(out);
        if (!r.allMatch()) {
            out.println("ERROR: a farm run differs from the sequential loop");
            return 1;
        }
        return 0;
    }
}
