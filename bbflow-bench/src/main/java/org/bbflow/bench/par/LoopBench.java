package org.bbflow.bench.par;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.bbflow.bench.support.Work;
import org.bbflow.core.WaitStrategy;
import org.bbflow.core.par.ParallelFor;
import org.bbflow.core.par.Schedule;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parallel loops called again and again, FastFlow's {@code perf_parfor} shape: each benchmark call is
 * one loop of {@code n} iterations; JMH calls it thousands of times, so a pool kept between calls is
 * measured warm, as FastFlow's is.
 *
 * <ul>
 *   <li>{@code fine*}: {@code a[i] = spin(i, steps + (i & 3))}: with {@code steps} 3, a few
 *       nanoseconds an iteration; with 24, tens of nanoseconds;</li>
 *   <li>{@code coarse*}: 64 iterations of 4,000 steps each (tens of microseconds);</li>
 *   <li>{@code reduce*}: the sum of {@code spin(a[i], 1)} over {@code n} longs;</li>
 *   <li>{@code empty*}: one empty iteration per worker: the latency of starting and ending a loop.</li>
 * </ul>
 *
 * Every parallel variant uses {@code workers} threads: BBFlow's pool (the calling thread and
 * workers-1 pool threads), a {@code ForkJoinPool} of that parallelism (the calling thread waits), and
 * the parallel stream on the common pool (on 2 cores: one pool thread plus the calling thread).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class LoopBench {
    /** Iterations of the fine-grained loop and the reduction. */
    @Param({"100000"})
    public int n;

    /**
     * Multiply/divide steps of a fine iteration, plus 0 to 3 ({@code i & 3}): 3 makes iterations of a
     * few nanoseconds, 24 of tens of nanoseconds (FastFlow's perf_parfor grain).
     */
    @Param({"3", "24"})
    public int steps;

    /** Workers of every parallel variant. */
    @Param({"2"})
    public int workers;

    /**
     * How BBFlow's pool waits between calls: {@code default} (the pool's), {@code spin}
     * ({@code busySpin}, FastFlow's spinWait), {@code backoff} (the flows' default backoff).
     */
    @Param({"default"})
    public String wait;

    private static final int COARSE_ITERATIONS = 64;
    private static final int COARSE_STEPS = 4000;

    private ParallelFor pool;
    private ForkJoinPool forkJoin;
    private long[] a;
    private long[] in;
    /** Fork-join leaves: the same count of pieces the parallel stream makes, 4 per worker. */
    private int leaf;

    @Setup(Level.Trial)
    public void setUp() {
        pool = "default".equals(wait) ? ParallelFor.create(workers)
                : ParallelFor.create("bench", workers, "spin".equals(wait) ? WaitStrategy.busySpin()
                        : "blocking".equals(wait) ? WaitStrategy.blocking() : WaitStrategy.backoff());
        forkJoin = new ForkJoinPool(workers);
        a = new long[n];
        in = new long[n];
        for (int i = 0; i < n; i++) {
            in[i] = i * 7L + 3;
        }
        leaf = Math.max(1, n / (4 * workers));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
        forkJoin.shutdown();
    }

    static long fine(int i, int steps) {
        return Work.spin(i, steps + (i & 3));
    }

    static long coarse(int i) {
        return Work.spin(i + 1, COARSE_STEPS);
    }

    // ---- fine grain ------------------------------------------------------------------------------

    @Benchmark
    public long[] fineLoop() {
        long[] out = a;
        int st = steps;
        for (int i = 0; i < out.length; i++) {
            out[i] = fine(i, st);
        }
        return out;
    }

    @Benchmark
    public long[] fineBBFlowStatic() {
        long[] out = a;
        int st = steps;
        pool.parallelForInt(0, out.length, i -> out[i] = fine(i, st));
        return out;
    }

    @Benchmark
    public long[] fineBBFlowDynamic() {
        long[] out = a;
        int st = steps;
        pool.parallelForInt(0, out.length, 1, Schedule.dynamic(2048), i -> out[i] = fine(i, st));
        return out;
    }

    @Benchmark
    public long[] fineParallelStream() {
        long[] out = a;
        int st = steps;
        IntStream.range(0, out.length).parallel().forEach(i -> out[i] = fine(i, st));
        return out;
    }

    @Benchmark
    public long[] fineForkJoin() {
        long[] out = a;
        forkJoin.invoke(new FineAction(out, 0, out.length, leaf, steps));
        return out;
    }

    /** The loop as fork-join divides it: halves down to a leaf of the threshold's size. */
    static final class FineAction extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        final long[] out;
        final int lo;
        final int hi;
        final int leaf;
        final int st;

        FineAction(long[] out, int lo, int hi, int leaf, int st) {
            this.out = out;
            this.lo = lo;
            this.hi = hi;
            this.leaf = leaf;
            this.st = st;
        }

        @Override
        protected void compute() {
            if (hi - lo <= leaf) {
                for (int i = lo; i < hi; i++) {
                    out[i] = fine(i, st);
                }
                return;
            }
            int mid = (lo + hi) >>> 1;
            invokeAll(new FineAction(out, lo, mid, leaf, st), new FineAction(out, mid, hi, leaf, st));
        }
    }

    // ---- coarse grain ----------------------------------------------------------------------------

    @Benchmark
    public long[] coarseLoop() {
        long[] out = a;
        for (int i = 0; i < COARSE_ITERATIONS; i++) {
            out[i] = coarse(i);
        }
        return out;
    }

    @Benchmark
    public long[] coarseBBFlowDynamic() {
        long[] out = a;
        pool.parallelForInt(0, COARSE_ITERATIONS, 1, Schedule.dynamic(1), i -> out[i] = coarse(i));
        return out;
    }

    @Benchmark
    public long[] coarseBBFlowStatic() {
        long[] out = a;
        pool.parallelForInt(0, COARSE_ITERATIONS, i -> out[i] = coarse(i));
        return out;
    }

    @Benchmark
    public long[] coarseParallelStream() {
        long[] out = a;
        IntStream.range(0, COARSE_ITERATIONS).parallel().forEach(i -> out[i] = coarse(i));
        return out;
    }

    @Benchmark
    public long[] coarseForkJoin() {
        long[] out = a;
        forkJoin.invoke(new CoarseAction(out, 0, COARSE_ITERATIONS));
        return out;
    }

    static final class CoarseAction extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        final long[] out;
        final int lo;
        final int hi;

        CoarseAction(long[] out, int lo, int hi) {
            this.out = out;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected void compute() {
            if (hi - lo == 1) {
                out[lo] = coarse(lo);
                return;
            }
            int mid = (lo + hi) >>> 1;
            invokeAll(new CoarseAction(out, lo, mid), new CoarseAction(out, mid, hi));
        }
    }

    // ---- reduction -------------------------------------------------------------------------------

    @Benchmark
    public long reduceLoop() {
        long[] x = in;
        long s = 0;
        for (int i = 0; i < x.length; i++) {
            s += Work.spin(x[i], 1);
        }
        return s;
    }

    @Benchmark
    public long reduceBBFlow() {
        long[] x = in;
        return pool.parallelReduceLong(0, x.length, 0L, (acc, i) -> acc + Work.spin(x[(int) i], 1), Long::sum);
    }

    @Benchmark
    public long reduceParallelStream() {
        long[] x = in;
        return IntStream.range(0, x.length).parallel().mapToLong(i -> Work.spin(x[i], 1)).sum();
    }

    @Benchmark
    public long reduceForkJoin() {
        return forkJoin.invoke(new SumTask(in, 0, in.length, leaf));
    }

    static final class SumTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        final long[] x;
        final int lo;
        final int hi;
        final int leaf;

        SumTask(long[] x, int lo, int hi, int leaf) {
            this.x = x;
            this.lo = lo;
            this.hi = hi;
            this.leaf = leaf;
        }

        @Override
        protected Long compute() {
            if (hi - lo <= leaf) {
                long s = 0;
                for (int i = lo; i < hi; i++) {
                    s += Work.spin(x[i], 1);
                }
                return s;
            }
            int mid = (lo + hi) >>> 1;
            SumTask left = new SumTask(x, lo, mid, leaf);
            left.fork();
            long right = new SumTask(x, mid, hi, leaf).compute();
            return left.join() + right;
        }
    }

    // ---- the latency of a call -------------------------------------------------------------------

    @Benchmark
    public void emptyBBFlow() {
        pool.parallelForInt(0, workers, 1, Schedule.staticBlocks(), i -> { });
    }

    @Benchmark
    public void emptyParallelStream() {
        IntStream.range(0, workers).parallel().forEach(i -> { });
    }

    @Benchmark
    public void emptyForkJoin() {
        forkJoin.invoke(new EmptyAction(workers));
    }

    static final class EmptyAction extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        final int pieces;

        EmptyAction(int pieces) {
            this.pieces = pieces;
        }

        @Override
        protected void compute() {
            if (pieces > 1) {
                invokeAll(new EmptyAction(pieces / 2), new EmptyAction(pieces - pieces / 2));
            }
        }
    }
}
