package org.bbflow.bench.bkd;

import java.util.concurrent.TimeUnit;
import org.bbflow.bkd.BkdTree;
import org.bbflow.bkd.Box;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Window queries over {@code size} uniform 2-D points held in exactly {@code trees} trees (merging
 * off, buffer = size / trees), selecting about {@code selectivity} of the points: count and visit.
 * Compare with {@link ScanQueryBenchmark} and {@link LuceneQueryBenchmark} at the same parameters.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@State(Scope.Benchmark)
public class BkdQueryBenchmark {
    /** Number of points (16,777,216 by default; pass e.g. -p size=1000000 for quick runs). */
    @Param({"16777216"})
    public int size;

    /** Number of trees the points are spread over. */
    @Param({"1", "16", "256"})
    public int trees;

    /** Fraction of the domain (and so of the points) a window covers. */
    @Param({"0.10", "0.25", "1.0"})
    public double selectivity;

    BkdTree tree;
    Box[] boxes;
    int next;

    @Setup(Level.Trial)
    public void load() {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        tree = BkdTree.builder(2).merging(false).bufferSize(Math.max(1, size / trees)).build();
        double[] p = new double[2];
        for (int i = 0; i < size; i++) {
            p[0] = xs[i];
            p[1] = ys[i];
            tree.insert(p, i);
        }
        tree.refresh();
        if (tree.stats().trees() != trees) {
            throw new IllegalStateException("expected " + trees + " trees, got " + tree.stats());
        }
        double[][] w = QueryData.windows(selectivity);
        boxes = new Box[w.length];
        for (int i = 0; i < w.length; i++) {
            boxes[i] = Box.of(new double[] {w[i][0], w[i][1]}, new double[] {w[i][2], w[i][3]});
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

    /** Visits every point in a window (decoding coordinates and summing ids). */
    @Benchmark
    public void visit(Blackhole bh) {
        long[] sum = new long[1];
        tree.query(boxes[next++ & 63], (id, pt) -> sum[0] += id);
        bh.consume(sum[0]);
    }
}
