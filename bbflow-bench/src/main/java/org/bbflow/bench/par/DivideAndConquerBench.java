package org.bbflow.bench.par;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.par.DivideAndConquer;
import org.bbflow.core.par.ParallelFor;
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
 * Divide and conquer: {@link DivideAndConquer} on BBFlow's pool against {@code RecursiveTask} /
 * {@code RecursiveAction} on a {@code ForkJoinPool} of the same parallelism, and the sequential
 * recursion, with the same cutoff and the same base case in each:
 *
 * <ul>
 *   <li>{@code mergesort*}: {@code size} random ints; halves down to {@code sortCutoff} elements,
 *       which {@code Arrays.sort} sorts; merges through a scratch array (each call sorts a fresh copy);</li>
 *   <li>{@code fib*}: Fibonacci of {@code fib}, plain recursion below {@code fibCutoff}.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class DivideAndConquerBench {
    /** Workers of both parallel variants. */
    @Param({"2"})
    public int workers;

    /** Elements to sort. */
    @Param({"1000000"})
    public int size;

    /** Ranges of at most this many elements are sorted sequentially. */
    @Param({"8192"})
    public int sortCutoff;

    /** Which Fibonacci number. */
    @Param({"32"})
    public int fib;

    /** Below this the recursion is sequential. */
    @Param({"20"})
    public int fibCutoff;

    private ParallelFor pool;
    private ForkJoinPool forkJoin;
    private int[] source;
    private int[] work;
    private int[] scratch;
    private DivideAndConquer<Range, Range> sort;
    private DivideAndConquer<Integer, Long> fibonacci;

    /** A range of the array being sorted: the problem and, once sorted, the result. */
    record Range(int lo, int hi) {
    }

    @Setup(Level.Trial)
    public void setUp() {
        pool = ParallelFor.create(workers);
        forkJoin = new ForkJoinPool(workers);
        source = new Random(42).ints(size).toArray();
        work = new int[size];
        scratch = new int[size];
        int cutoff = sortCutoff;
        sort = DivideAndConquer.of(
                (Range r) -> {
                    int mid = (r.lo + r.hi) >>> 1;
                    return List.of(new Range(r.lo, mid), new Range(mid, r.hi));
                },
                rs -> {
                    Range x = rs.get(0);
                    Range y = rs.get(1);
                    merge(work, scratch, x.lo, x.hi, y.hi);
                    return new Range(x.lo, y.hi);
                },
                r -> {
                    Arrays.sort(work, r.lo, r.hi);
                    return r;
                },
                r -> r.hi - r.lo <= cutoff);
        int fc = fibCutoff;
        fibonacci = DivideAndConquer.of((Integer n) -> List.of(n - 1, n - 2), rs -> rs.get(0) + rs.get(1),
                n -> seqFib(n), n -> n < fc);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
        forkJoin.shutdown();
    }

    static void merge(int[] a, int[] tmp, int lo, int mid, int hi) {
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            a[k] = i < mid && (j >= hi || tmp[i] <= tmp[j]) ? tmp[i++] : tmp[j++];
        }
    }

    static long seqFib(int n) {
        return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    // ---- mergesort -------------------------------------------------------------------------------

    @Benchmark
    public int[] mergesortSequential() {
        System.arraycopy(source, 0, work, 0, size);
        sequentialSort(0, size);
        return work;
    }

    private void sequentialSort(int lo, int hi) {
        if (hi - lo <= sortCutoff) {
            Arrays.sort(work, lo, hi);
            return;
        }
        int mid = (lo + hi) >>> 1;
        sequentialSort(lo, mid);
        sequentialSort(mid, hi);
        merge(work, scratch, lo, mid, hi);
    }

    @Benchmark
    public int[] mergesortBBFlow() {
        System.arraycopy(source, 0, work, 0, size);
        sort.solve(pool, new Range(0, size));
        return work;
    }

    @Benchmark
    public int[] mergesortForkJoin() {
        System.arraycopy(source, 0, work, 0, size);
        forkJoin.invoke(new SortAction(work, scratch, 0, size, sortCutoff));
        return work;
    }

    static final class SortAction extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        final int[] a;
        final int[] tmp;
        final int lo;
        final int hi;
        final int cutoff;

        SortAction(int[] a, int[] tmp, int lo, int hi, int cutoff) {
            this.a = a;
            this.tmp = tmp;
            this.lo = lo;
            this.hi = hi;
            this.cutoff = cutoff;
        }

        @Override
        protected void compute() {
            if (hi - lo <= cutoff) {
                Arrays.sort(a, lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            invokeAll(new SortAction(a, tmp, lo, mid, cutoff), new SortAction(a, tmp, mid, hi, cutoff));
            merge(a, tmp, lo, mid, hi);
        }
    }

    // ---- Fibonacci -------------------------------------------------------------------------------

    @Benchmark
    public long fibSequential() {
        return seqFib(fib);
    }

    @Benchmark
    public long fibBBFlow() {
        return fibonacci.solve(pool, fib);
    }

    @Benchmark
    public long fibForkJoin() {
        return forkJoin.invoke(new FibTask(fib, fibCutoff));
    }

    static final class FibTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        final int n;
        final int cutoff;

        FibTask(int n, int cutoff) {
            this.n = n;
            this.cutoff = cutoff;
        }

        @Override
        protected Long compute() {
            if (n < cutoff) {
                return seqFib(n);
            }
            FibTask left = new FibTask(n - 1, cutoff);
            left.fork();
            long right = new FibTask(n - 2, cutoff).compute();
            return left.join() + right;
        }
    }
}
