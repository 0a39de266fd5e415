package org.bbflow.bench.bkd;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
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
 * {@link BkdQueryBenchmark}, timed with {@code IndexSearcher.count(PointRangeQuery)}.
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
    int next;

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
        queries = new Query[win.length];
        for (int i = 0; i < win.length; i++) {
            queries[i] = DoublePoint.newRangeQuery("p", new double[] {win[i][0], win[i][1]},
                    new double[] {win[i][2], win[i][3]});
        }
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
