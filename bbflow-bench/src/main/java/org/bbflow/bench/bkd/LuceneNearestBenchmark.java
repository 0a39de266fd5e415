package org.bbflow.bench.bkd;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.sandbox.document.FloatPointNearestNeighbor;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopFieldDocs;
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
 * Lucene's peer of {@link BkdNearestBenchmark}: {@code FloatPointNearestNeighbor.nearest}
 * (lucene-sandbox), an exact Euclidean k-nearest search over the BKD trees of
 * {@link org.apache.lucene.document.FloatPoint}s. Lucene has no such search for
 * {@code DoublePoint}s, so this index holds the same points rounded to floats; the k-th distance
 * of every query is checked against brute force on the doubles to within the float rounding
 * (0.01 on a 10,000-wide domain). Lucene's vector kNN ({@code KnnFloatVectorQuery}) is
 * approximate and not a peer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class LuceneNearestBenchmark {
    /** Number of points. */
    @Param({"1048576"})
    public int size;

    /** "merged" (one segment) or "natural". */
    @Param({"merged", "natural"})
    public String shape;

    /** Neighbours per query. */
    @Param({"10"})
    public int k;

    LuceneIndex index;
    IndexSearcher searcher;
    float[][] queries;
    int next;

    @Setup(Level.Trial)
    public void load() throws IOException {
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        index = new LuceneIndex(xs, ys, shape, true);
        searcher = new IndexSearcher(index.reader);
        searcher.setQueryCache(null);
        double[][] q = QueryData.queryPoints();
        queries = new float[q.length][];
        for (int i = 0; i < q.length; i++) {
            queries[i] = new float[] {(float) q[i][0], (float) q[i][1]};
            double expected = QueryData.kthDistance(xs, ys, q[i], k);
            TopFieldDocs top = FloatPointNearestNeighbor.nearest(searcher, LuceneIndex.FIELD, k, queries[i]);
            double kth = top.scoreDocs.length == k ? ((Number) ((FieldDoc) top.scoreDocs[k - 1]).fields[0]).doubleValue() : -1;
            if (top.scoreDocs.length != k || Math.abs(kth - expected) > 0.01) {
                throw new IllegalStateException("Lucene nearest: query " + i + " gave " + top.scoreDocs.length
                        + " hits, k-th at " + kth + ", brute force " + expected);
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        index.close();
    }

    /** The k nearest documents of a query point. */
    @Benchmark
    public int nearest() throws IOException {
        return FloatPointNearestNeighbor.nearest(searcher, LuceneIndex.FIELD, k, queries[next++ & 63]).scoreDocs[0].doc;
    }
}
