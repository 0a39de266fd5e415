package org.bbflow.bench.bkd;

import org.bbflow.bkd.BkdStats;
import org.bbflow.bkd.BkdTree;

/**
 * Memory per point of BBFlow's Bkd-tree and Lucene's BKD tree on the same points, in one run,
 * and BBFlow's write amplification under frequent refresh. Not a JMH benchmark: it measures
 * sizes, not time. Run: {@code java -cp benchmarks.jar org.bbflow.bench.bkd.BkdFootprint [points]}.
 * <ul>
 *   <li>Heap after GC, in this JVM: the used heap after full GCs with the index built from a
 *       streaming ingest (default configuration) minus the used heap before it, just after the
 *       ingest and once the index was left alone (idle merge done), next to
 *       {@code stats().bytesPerPoint()} (trees, buffers and tombstones) and divided by the
 *       bytes of Lucene's points files for the same points (built afterwards in this JVM). A small
 *       index is built, queried and closed first, so the JDK's one-time costs of a first use (class
 *       metadata on the heap, lambda forms) are in the baseline, not charged to the index.</li>
 *   <li>BBFlow: {@code stats().bytesPerPoint()} (every array of every tree, headers included),
 *       one force-merged tree and the natural forest after streaming ingest (merges on), and a
 *       natural forest whose inserts are interleaved with deletes (one per 1,000 inserts, so
 *       sequence numbers differ within a tree).</li>
 *   <li>Lucene 9.12: bytes of the points files ({@code .kdd}, {@code .kdi}, {@code .kdm}, which
 *       hold the BKD trees and their doc ids) and of all files, per point, force-merged and
 *       natural.</li>
 *   <li>Write amplification: points written by merges per point inserted ({@code BkdStats}),
 *       refreshing every 10 and every 1,000 points; every tree stores a point in the same number
 *       of bytes up to the packing width, so the ratio of bytes is about the same.</li>
 * </ul>
 */
public final class BkdFootprint {
    private BkdFootprint() {}

    /**
     * Prints the figures.
     *
     * @param args optional number of points (default 1,048,576)
     * @throws Exception if an index fails
     */
    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        double[] xs = QueryData.xs(size);
        double[] ys = QueryData.ys(size);
        double[][] windows = QueryData.windows(0.25);
        long[] expected = QueryData.expectedCounts(xs, ys, windows);
        System.out.printf("points: %,d (2-D, uniform in [0, 10000))%n", size);
        heapAfterGc(xs, ys);
        try (BkdTree merged = BkdShapes.load(xs, ys, "natural")) {
            check("BBFlow natural", merged, windows, expected);
            report("BBFlow natural forest", merged.stats());
            merged.forceMerge();
            check("BBFlow merged", merged, windows, expected);
            report("BBFlow one tree (forceMerge)", merged.stats());
        }
        try (BkdTree deletes = BkdTree.builder(2).build()) {
            double[] p = new double[2];
            for (int i = 0; i < size; i++) {
                p[0] = xs[i];
                p[1] = ys[i];
                deletes.insert(p, i);
                if (i % 1000 == 999) {
                    deletes.delete(new double[] {-1, -1}, i);      // matches nothing, advances the clock
                }
            }
            deletes.refresh();
            deletes.awaitMerges();
            check("BBFlow with deletes", deletes, windows, expected);
            report("BBFlow natural, 1 delete per 1,000 inserts", deletes.stats());
        }
        for (String shape : new String[] {"merged", "natural"}) {
            try (LuceneIndex lucene = new LuceneIndex(xs, ys, shape, false)) {
                System.out.printf("%-45s %6.2f B/point (point files), %6.2f B/point (all files), %d segments%n",
                        "Lucene " + shape, lucene.pointBytes() / (double) size, lucene.allBytes() / (double) size,
                        lucene.reader.leaves().size());
            }
        }
        for (int every : new int[] {10, 1000}) {
            writeAmplification(xs, ys, every);
        }
    }

    /** Used heap after full collections (the smallest of a few readings). */
    static long usedAfterGc() throws InterruptedException {
        java.lang.management.MemoryMXBean m = java.lang.management.ManagementFactory.getMemoryMXBean();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            best = Math.min(best, m.getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    private static void heapAfterGc(double[] xs, double[] ys) throws Exception {
        int size = xs.length;
        try (BkdTree warm = BkdTree.builder(2).build()) {       // the JDK's first-use costs go into the baseline
            double[] p = new double[2];
            for (int i = 0; i < Math.min(size, 200_000); i++) {
                p[0] = xs[i];
                p[1] = ys[i];
                warm.insert(p, i);
            }
            warm.refresh();
            warm.awaitMerges();
            BkdShapes.awaitIdle(warm);
            warm.count(org.bbflow.bkd.Box.all(2));
            warm.nearest(new double[] {1, 1}, 3);
        }
        long base = usedAfterGc();
        long after;
        long settled;
        BkdStats s1;
        BkdStats s2;
        double waited;
        try (BkdTree t = BkdTree.builder(2).build()) {
            double[] p = new double[2];
            for (int i = 0; i < size; i++) {
                p[0] = xs[i];
                p[1] = ys[i];
                t.insert(p, i);
            }
            t.refresh();
            t.awaitMerges();
            s1 = t.stats();
            after = usedAfterGc() - base;
            waited = BkdShapes.awaitIdle(t);
            s2 = t.stats();
            settled = usedAfterGc() - base;
        }
        double lucene;
        double luceneNatural;
        try (LuceneIndex l = new LuceneIndex(xs, ys, "merged", false)) {
            lucene = l.pointBytes() / (double) size;
        }
        try (LuceneIndex l = new LuceneIndex(xs, ys, "natural", false)) {
            luceneNatural = l.pointBytes() / (double) size;
        }
        System.out.printf("%nheap after GC, %,d points, %s (Lucene %s points files: %.2f B/point force-merged, %.2f natural)%n",
                size, collector(), org.apache.lucene.util.Version.LATEST, lucene, luceneNatural);
        System.out.printf("  just after ingest (%d trees): %6.2f B/point measured, stats %6.2f (trees %.2f,"
                        + " buffers %.2f, tombstones %.2f) = %.2fx Lucene's force-merged points files%n", s1.trees(),
                after / (double) size, s1.bytesPerPoint(), s1.treeBytes() / (double) size,
                s1.bufferBytes() / (double) size, s1.tombstoneBytes() / (double) size, after / (double) size / lucene);
        System.out.printf("  left alone %.1f s (%d tree):   %6.2f B/point measured, stats %6.2f (trees %.2f,"
                        + " buffers %.2f, tombstones %.2f) = %.2fx Lucene's force-merged points files, %.2fx natural%n",
                waited, s2.trees(), settled / (double) size, s2.bytesPerPoint(), s2.treeBytes() / (double) size,
                s2.bufferBytes() / (double) size, s2.tombstoneBytes() / (double) size,
                settled / (double) size / lucene, settled / (double) size / luceneNatural);
        System.out.printf("  measured minus stats, left alone: %,d bytes%n", settled - s2.heapBytes());
    }

    /** The collector in use and, for G1, its region size (arrays of half a region or more are humongous). */
    static String collector() {
        StringBuilder b = new StringBuilder();
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            b.append(b.length() == 0 ? "" : " + ").append(gc.getName());
        }
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs = java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (Boolean.parseBoolean(hs.getVMOption("UseG1GC").getValue())) {
                b.append(", G1 region ").append(Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue()) >> 10).append(" KiB");
            }
        } catch (RuntimeException e) {
            b.append(" (region size unknown)");
        }
        return b.toString();
    }

    private static void check(String what, BkdTree t, double[][] windows, long[] expected) {
        for (int i = 0; i < windows.length; i++) {
            double[] w = windows[i];
            QueryData.check(what, i, expected[i], t.count(org.bbflow.bkd.Box.of(new double[] {w[0], w[1]},
                    new double[] {w[2], w[3]})));
        }
    }

    private static void report(String what, BkdStats s) {
        System.out.printf("%-45s %6.2f B/point, %d trees%n", what, s.bytesPerPoint(), s.trees());
    }

    private static void writeAmplification(double[] xs, double[] ys, int every) throws InterruptedException {
        try (BkdTree t = BkdTree.builder(2).build()) {
            double[] p = new double[2];
            long start = System.nanoTime();
            for (int i = 0; i < xs.length; i++) {
                p[0] = xs[i];
                p[1] = ys[i];
                t.insert(p, i);
                if (i % every == every - 1) {
                    t.refresh();
                }
            }
            t.refresh();
            t.awaitMerges();
            double secs = (System.nanoTime() - start) / 1e9;
            BkdStats s = t.stats();
            System.out.printf("BBFlow refresh every %,d points: write amplification %.2f (%,d merged / %,d inserted),"
                    + " %d trees, %.2f s%n", every, s.writeAmplification(), s.mergedPoints(), s.insertedPoints(),
                    s.trees(), secs);
        }
    }
}
