package org.bbflow.bench.bkd;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.ByteBuffersDirectory;
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
 * Baseline: Lucene's BKD tree on the same points (one {@link DoublePoint} per document in an
 * in-memory {@link ByteBuffersDirectory}, force-merged to one segment) and windows as
 * {@link BkdQueryBenchmark}. {@code count} is the public API ({@code IndexSearcher.count} of a
 * {@code PointRangeQuery}, which for two dimensions iterates the matching documents);
 * {@code treeCount} walks Lucene's BKD {@code PointTree} directly, adding {@code size()} of
 * cells inside the window (the same shortcut {@code BkdTree.count} takes); {@code visit} runs
 * {@code PointValues.intersect} with a visitor that counts every matching document (like
 * {@code BkdTree.query}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
@State(Scope.Benchmark)
public class LuceneQueryBenchmark {
    /** Number of points. */
    @Param({"16777216"})
    public int size;

    /** Fraction of the domain a window covers. */
    @Param({"0.10", "0.25", "1.0"})
    public double selectivity;

    ByteBuffersDirectory dir;
    DirectoryReader reader;
    IndexSearcher searcher;
    Query[] queries;
    Window[] windows;
    PointValues points;
    int next;

    /** A window in Lucene's sortable-bytes encoding, as an intersect visitor that counts. */
    static final class Window implements PointValues.IntersectVisitor {
        final byte[] lo = new byte[16];
        final byte[] hi = new byte[16];
        long count;

        Window(double[] w) {
            DoublePoint.encodeDimension(w[0], lo, 0);
            DoublePoint.encodeDimension(w[1], lo, 8);
            DoublePoint.encodeDimension(w[2], hi, 0);
            DoublePoint.encodeDimension(w[3], hi, 8);
        }

        @Override
        public void visit(int docID) {
            count++;
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
            return inside ? PointValues.Relation.CELL_INSIDE_QUERY : PointValues.Relation.CELL_CROSSES_QUERY;
        }
    }

    @Setup(Level.Trial)
    public void load() throws IOException {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig().setRAMBufferSizeMB(512);
        try (IndexWriter w = new IndexWriter(dir, cfg)) {
            for (int i = 0; i < size; i++) {
                Document doc = new Document();
                doc.add(new DoublePoint("p", xs[i], ys[i]));
                w.addDocument(doc);
            }
            w.forceMerge(1);
        }
        reader = DirectoryReader.open(dir);
        searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        double[][] win = QueryData.windows(selectivity);
        points = reader.leaves().get(0).reader().getPointValues("p");
        windows = new Window[win.length];
        queries = new Query[win.length];
        for (int i = 0; i < win.length; i++) {
            windows[i] = new Window(win[i]);
            queries[i] = DoublePoint.newRangeQuery("p", new double[] {win[i][0], win[i][1]},
                    new double[] {win[i][2], win[i][3]});
        }
    }

    /** Counts by walking the BKD point tree: inside cells add their size, crossing leaves are scanned. */
    @Benchmark
    public long treeCount() throws IOException {
        Window w = windows[next++ & 63];
        return count(points.getPointTree(), w);
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

    /** Visits every matching document through {@code PointValues.intersect}. */
    @Benchmark
    public long visit() throws IOException {
        Window w = windows[next++ & 63];
        w.count = 0;
        points.intersect(w);
        return w.count;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        reader.close();
        dir.close();
    }

    /** Counts the documents whose point lies in a window. */
    @Benchmark
    public int count() throws IOException {
        return searcher.count(queries[next++ & 63]);
    }
}
