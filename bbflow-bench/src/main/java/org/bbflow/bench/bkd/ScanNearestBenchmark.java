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

/** Baseline for {@link BkdNearestBenchmark}: the k nearest points by a brute-force scan of flat arrays. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ScanNearestBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** Neighbours per query. */
    @Param({"10"})
    public int k;

    double[] xs;
    double[] ys;
    double[][] queries;
    int next;

    @Setup(Level.Trial)
    public void load() {
        xs = QueryData.xs(size);
        ys = QueryData.ys(size);
        queries = QueryData.queryPoints();
    }

    /** Distance of the k-th nearest point, by testing every point against a sorted top-k. */
    @Benchmark
    public double nearest() {
        return QueryData.kthDistance(xs, ys, queries[next++ & 63], k);
    }
}
