package org.bbflow.bench.bkd;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
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
 * Baseline: Lucene's BKD tree on the same points and windows as {@link BkdQueryBenchmark}
 * ({@link LuceneIndex}: one {@link DoublePoint} per document, force-merged or natural segments),
 * summed over all segments. {@code treeCount} walks each segment's {@code PointTree}, adding
 * {@code size()} of cells inside the window and scanning crossing leaves (the shortcut
 * {@code BkdTree.count} takes); {@code visitDocs} runs {@code PointValues.intersect}, which hands
 * inside cells over as doc ids only; {@code collect} makes {@code intersect} hand over every
 * matching point with its value and decodes both coordinates (what {@code BkdTree.query} gives).
 * All three are checked against brute force on the 64 windows before measuring.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class LuceneQueryBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** "merged" (one segment) or "natural" (segments as streaming ingest leaves them). */
    @Param({"merged", "natural"})
    public String shape;

    /** Fraction of the domain a window covers. */
    @Param({"0.10", "0.25", "1.0"})
    public double selectivity;

    LuceneIndex index;
    Window[] windows;
    PointValues[] points;
    int[] docBase;
    int next;

    /** A window in Lucene's sortable-bytes encoding, as an intersect visitor. */
    static final class Window implements PointValues.IntersectVisitor {
        final byte[] lo = new byte[16];
        final byte[] hi = new byte[16];
        /** Report inside cells as crossing, so every point comes with its value. */
        boolean values;
        int base;
        long count;
        long sum;

        Window(double[] w) {
            DoublePoint.encodeDimension(w[0], lo, 0);
            DoublePoint.encodeDimension(w[1], lo, 8);
            DoublePoint.encodeDimension(w[2], hi, 0);
            DoublePoint.encodeDimension(w[3], hi, 8);
        }

        @Override
        public void visit(int docID) {
            count++;
            sum += base + docID;
        }

        @Override
        public void visit(int docID, byte[] packed) {
            for (int d = 0; d < 16; d += 8) {
                if (Arrays.compareUnsigned(packed, d, d + 8, lo, d, d + 8) < 0
                        || Arrays.compareUnsigned(packed, d, d + 8, hi, d, d + 8) > 0) {
                    return;
                }
            }
            count++;
            sum += base + docID;
            if (values) {
                sum += (long) DoublePoint.decodeDimension(packed, 0) + (long) DoublePoint.decodeDimension(packed, 8);
            }
        }

        @Override
        public PointValues.Relation compare(byte[] min, byte[] max) {
            boolean inside = true;
            for (int d = 0; d < 16; d += 8) {
                if (Arrays.compareUnsigned(max, d, d + 8, lo, d, d + 8) < 0
                        || Arrays.compareUnsigned(min, d, d + 8, hi, d, d + 8) > 0) {
                    return PointValues.Relation.CELL_OUTSIDE_QUERY;
                }
                if (Arrays.compareUnsigned(min, d, d + 8, lo, d, d + 8) < 0
                        || Arrays.compareUnsigned(max, d, d + 8, hi, d, d + 8) > 0) {
                    inside = false;
                }
            }
            return inside && !values ? PointValues.Relation.CELL_INSIDE_QUERY : PointValues.Relation.CELL_CROSSES_QUERY;
        }
    }

    @Setup(Level.Trial)
    public void load() throws IOException {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        index = new LuceneIndex(xs, ys, shape, false);
        int leaves = index.reader.leaves().size();
        points = new PointValues[leaves];
        docBase = new int[leaves];
        for (int i = 0; i < leaves; i++) {
            LeafReaderContext c = index.reader.leaves().get(i);
            points[i] = c.reader().getPointValues(LuceneIndex.FIELD);
            docBase[i] = c.docBase;
        }
        double[][] win = QueryData.windows(selectivity);
        long[] expected = QueryData.expectedCounts(xs, ys, win);
        windows = new Window[win.length];
        for (int i = 0; i < win.length; i++) {
            windows[i] = new Window(win[i]);
            QueryData.check("Lucene treeCount", i, expected[i], treeCount(windows[i]));
            visit(windows[i], false);
            QueryData.check("Lucene visitDocs", i, expected[i], windows[i].count);
            visit(windows[i], true);
            QueryData.check("Lucene collect", i, expected[i], windows[i].count);
        }
    }

    private long treeCount(Window w) throws IOException {
        long n = 0;
        for (PointValues p : points) {
            n += count(p.getPointTree(), w);
        }
        return n;
    }

    private static long count(PointValues.PointTree tree, Window w) throws IOException {
        PointValues.Relation r = w.compare(tree.getMinPackedValue(), tree.getMaxPackedValue());
        if (r == PointValues.Relation.CELL_OUTSIDE_QUERY) {
            return 0;
        }
        if (r == PointValues.Relation.CELL_INSIDE_QUERY) {
            return tree.size();
        }
        if (tree.moveToChild()) {
            long n = 0;
            do {
                n += count(tree, w);
            } while (tree.moveToSibling());
            tree.moveToParent();
            return n;
        }
        w.count = 0;
        tree.visitDocValues(w);
        return w.count;
    }

    private void visit(Window w, boolean values) throws IOException {
        w.values = values;
        w.count = 0;
        w.sum = 0;
        for (int i = 0; i < points.length; i++) {
            w.base = docBase[i];
            points[i].intersect(w);
        }
    }

    /** Counts by walking the BKD point trees: inside cells add their size, crossing leaves are scanned. */
    @Benchmark
    public long treeCount() throws IOException {
        Window w = windows[next++ & 63];
        w.values = false;
        return treeCount(w);
    }

    /** Visits every matching document through {@code PointValues.intersect} (doc ids only for inside cells). */
    @Benchmark
    public long visitDocs() throws IOException {
        Window w = windows[next++ & 63];
        visit(w, false);
        return w.sum;
    }

    /** Visits every matching point with its value, decoding both coordinates. */
    @Benchmark
    public long collect() throws IOException {
        Window w = windows[next++ & 63];
        visit(w, true);
        return w.sum;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        index.close();
    }
}
