package org.bbflow.bench.bkd;

import java.util.concurrent.TimeUnit;
import org.bbflow.bkd.BkdTree;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * Exact k-nearest-neighbour queries ({@code BkdTree.nearest}, Euclidean on the doubles) over
 * {@code size} uniform 2-D points in one of the {@link BkdShapes}, at 64 uniform query points.
 * Before measuring, the k-th distance of every query is checked against brute force (exactly).
 * Peers: {@link ScanNearestBenchmark} (brute force) and {@link LuceneNearestBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class BkdNearestBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** Trees the points are spread over: 1, 16, or "natural". */
    @Param({"1", "natural", "tiers"})
    public String shape;

    /** Neighbours per query. */
    @Param({"10"})
    public int k;

    BkdTree tree;
    double[][] queries;
    int next;
    long sum;
    double last;

    @Setup(Level.Trial)
    public void load() {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        tree = BkdShapes.load(xs, ys, shape);
        queries = QueryData.queryPoints();
        for (int i = 0; i < queries.length; i++) {
            double[] q = queries[i];
            double expected = QueryData.kthDistance(xs, ys, q, k);
            last = -1;
            int n = tree.nearest(q, k, (id, p) -> last = Math.hypot(p[0] - q[0], p[1] - q[1]));
            if (n != k || Math.abs(last - expected) > 1e-9 * expected) {
                throw new IllegalStateException("BBFlow nearest: query " + i + " gave " + n + " points, k-th at "
                        + last + ", brute force " + expected);
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        tree.close();
    }

    /** The k nearest points of a query point, nearest first (ids summed). */
    @Benchmark
    public long nearest() {
        sum = 0;
        tree.nearest(queries[next++ & 63], k, (id, p) -> sum += id);
        return sum;
    }
}
