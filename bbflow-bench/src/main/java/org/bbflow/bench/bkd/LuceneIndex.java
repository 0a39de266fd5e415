package org.bbflow.bench.bkd;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.FloatPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Lucene's side of the comparison: one point per document in an in-memory
 * {@link ByteBuffersDirectory}, either force-merged to one segment ({@code "merged"}) or as the
 * default {@link IndexWriterConfig} leaves it after streaming ingest ({@code "natural"}: segments
 * flushed at the default RAM buffer and merged by the default merge policy, no force-merge).
 */
final class LuceneIndex implements AutoCloseable {
    static final String FIELD = "p";

    final ByteBuffersDirectory dir = new ByteBuffersDirectory();
    final DirectoryReader reader;

    /**
     * @param floats index {@link FloatPoint}s (the type Lucene's nearest-neighbour search takes)
     *               instead of {@link DoublePoint}s
     */
    LuceneIndex(double[] xs, double[] ys, String shape, boolean floats) throws IOException {
        IndexWriterConfig cfg = new IndexWriterConfig().setUseCompoundFile(false); // so .kd* files can be measured
        cfg.getMergePolicy().setNoCFSRatio(0.0);
        try (IndexWriter w = new IndexWriter(dir, cfg)) {
            for (int i = 0; i < xs.length; i++) {
                Document doc = new Document();
                doc.add(floats ? new FloatPoint(FIELD, (float) xs[i], (float) ys[i]) : new DoublePoint(FIELD, xs[i], ys[i]));
                w.addDocument(doc);
            }
            if ("merged".equals(shape)) {
                w.forceMerge(1);
            } else if (!"natural".equals(shape)) {
                throw new IllegalArgumentException("shape " + shape);
            }
        }
        reader = DirectoryReader.open(dir);
        System.out.printf("%nLucene %s: %d segments, %.2f bytes/point in point files (.kd*), %.2f in all files%n",
                shape, reader.leaves().size(), pointBytes() / (double) xs.length, allBytes() / (double) xs.length);
    }

    /** Bytes of the points files (.kdd, .kdi, .kdm) of every segment: the BKD trees, doc ids included. */
    long pointBytes() throws IOException {
        long n = 0;
        for (String f : dir.listAll()) {
            if (f.endsWith(".kdd") || f.endsWith(".kdi") || f.endsWith(".kdm")) {
                n += dir.fileLength(f);
            }
        }
        return n;
    }

    /** Bytes of every file of the index. */
    long allBytes() throws IOException {
        long n = 0;
        for (String f : dir.listAll()) {
            n += dir.fileLength(f);
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        reader.close();
        dir.close();
    }
}
