package org.bbflow.bench.bkd;

import java.util.concurrent.TimeUnit;
import org.bbflow.bkd.BkdTree;
import org.bbflow.bkd.Box;
import org.bbflow.bkd.PointVisitor;
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
 * Window queries over {@code size} uniform 2-D points in one of the {@link BkdShapes} (1 or 16
 * trees, or the natural forest of streaming ingest), selecting about {@code selectivity} of the
 * points: {@code count}, and {@code collect}, which visits every matching point and reads its id
 * and both coordinates. Before measuring, both are checked against brute force on all 64 windows.
 * Compare with {@link ScanQueryBenchmark} and {@link LuceneQueryBenchmark} at the same parameters.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class BkdQueryBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** Trees the points are spread over: 1, 16, "natural" (streaming ingest, left alone) or "tiers" (no idle merge). */
    @Param({"1", "16", "natural", "tiers"})
    public String shape;

    /** Fraction of the domain (and so of the points) a window covers. */
    @Param({"0.10", "0.25", "1.0"})
    public double selectivity;

    BkdTree tree;
    Box[] boxes;
    int next;
    final Collector collector = new Collector();

    /** Sums ids and coordinates of the visited points, so nothing can be skipped. */
    static final class Collector implements PointVisitor {
        long sum;
        long n;

        @Override
        public void visit(long id, double[] point) {
            sum += id + (long) point[0] + (long) point[1];
            n++;
        }
    }

    @Setup(Level.Trial)
    public void load() {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        tree = BkdShapes.load(xs, ys, shape);
        double[][] w = QueryData.windows(selectivity);
        long[] expected = QueryData.expectedCounts(xs, ys, w);
        boxes = new Box[w.length];
        for (int i = 0; i < w.length; i++) {
            boxes[i] = Box.of(new double[] {w[i][0], w[i][1]}, new double[] {w[i][2], w[i][3]});
            QueryData.check("BBFlow count", i, expected[i], tree.count(boxes[i]));
            collector.n = 0;
            tree.query(boxes[i], collector);
            QueryData.check("BBFlow collect", i, expected[i], collector.n);
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        tree.close();
    }

    /** Counts the points in a window. */
    @Benchmark
    public long count() {
        return tree.count(boxes[next++ & 63]);
    }

    /** Visits every point in a window, reading its id and coordinates. */
    @Benchmark
    public long collect() {
        Collector c = collector;
        c.sum = 0;
        tree.query(boxes[next++ & 63], c);
        return c.sum;
    }
}
