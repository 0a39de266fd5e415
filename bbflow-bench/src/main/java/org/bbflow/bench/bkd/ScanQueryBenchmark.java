package org.bbflow.bench.bkd;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Baseline: a brute-force scan over flat coordinate arrays, same points and windows as {@link BkdQueryBenchmark}. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ScanQueryBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** Fraction of the domain a window covers. */
    @Param({"0.10", "0.25", "1.0"})
    public double selectivity;

    double[] xs;
    double[] ys;
    double[][] windows;
    int next;

    @Setup(Level.Trial)
    public void load() {
        xs = QueryData.xs(size);
        ys = QueryData.ys(size);
        windows = QueryData.windows(selectivity);
        long[] expected = QueryData.expectedCounts(xs, ys, windows);
        for (int i = 0; i < windows.length; i++) {
            QueryData.check("scan count", i, expected[i], count(windows[i]));
        }
    }

    private long count(double[] w) {
        double x0 = w[0];
        double y0 = w[1];
        double x1 = w[2];
        double y1 = w[3];
        long n = 0;
        for (int i = 0; i < xs.length; i++) {
            double x = xs[i];
            double y = ys[i];
            n += (x >= x0 & x <= x1 & y >= y0 & y <= y1) ? 1 : 0;
        }
        return n;
    }

    /** Counts the points in a window by testing every point (branch-free test). */
    @Benchmark
    public long count() {
        return count(windows[next++ & 63]);
    }

    /** Sums id and coordinates of every point in a window (as {@link BkdQueryBenchmark#collect}). */
    @Benchmark
    public long collect() {
        double[] w = windows[next++ & 63];
        double x0 = w[0];
        double y0 = w[1];
        double x1 = w[2];
        double y1 = w[3];
        long sum = 0;
        for (int i = 0; i < xs.length; i++) {
            double x = xs[i];
            double y = ys[i];
            if (x >= x0 && x <= x1 && y >= y0 && y <= y1) {
                sum += i + (long) x + (long) y;
            }
        }
        return sum;
    }
}
