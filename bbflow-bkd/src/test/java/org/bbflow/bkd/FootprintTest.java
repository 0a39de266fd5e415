package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The heap an index holds is its trees, the buffers of threads with unpublished points, and its
 * tombstones: stats() adds exactly these; trees keep their points in pages below G1's humongous
 * threshold with no slack; no array outlives its use (nothing pools reclaimed trees, a refreshed
 * or paused buffer drops its arrays, a refreshing thread never holds a full buffer); an index left
 * by streaming ingest merges into one tree once inserts pause.
 */
@Timeout(120)
class FootprintTest {

    /** Polls {@code done} every 10 ms until it holds or the deadline passes (the deadline fails the test). */
    private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
            Thread.sleep(10);
        }
    }

    /** Bytes of one set of buffer arrays holding {@code cap} points of {@code dims} dimensions. */
    private static long bufferSet(int cap, int dims) {
        return 16L + 8L * dims * cap + 2 * (16L + 8L * cap);
    }

    @Test
    void statsAddTreesBuffersAndTombstonesAndNothingIsKeptOnceIngestStops() throws Exception {
        int buffer = 4096;
        try (BkdTree t = BkdTree.builder(2).bufferSize(buffer).mergeFactor(4).mergeWhenIdle(Duration.ZERO).build()) {
            Random r = new Random(3);
            for (int i = 0; i < 40 * buffer; i++) {
                t.insert(new double[] {r.nextDouble(), r.nextDouble()}, i);
            }
            BkdStats s = t.stats();
            assertEquals(bufferSet(buffer, 2), s.bufferBytes(), "a buffer that filled keeps its arrays for the next points: " + s);
            for (int i = 0; i < 100; i++) {
                t.insert(new double[] {r.nextDouble(), r.nextDouble()}, 40 * buffer + i);
            }
            assertEquals(bufferSet(buffer, 2), t.stats().bufferBytes(), "and fills them again");
            t.refresh();
            assertEquals(0, t.stats().bufferBytes(), "a refreshed buffer drops its arrays");
            t.awaitMerges();
            s = t.stats();
            assertEquals(s.treeBytes() + s.bufferBytes() + s.tombstoneBytes(), s.heapBytes());
            assertEquals((double) s.heapBytes() / s.points(), s.bytesPerPoint(), 1e-9);
            assertEquals(s.treeBytes() + s.tombstoneBytes(), s.heapBytes(), "just after the ingest: trees only, " + s);
            assertTrue(s.treeBytesPerPoint() < 19.6, "2-D points in 16 bytes, ids in 3, node boxes: " + s.treeBytesPerPoint());
            for (int i = 0; i < buffer; i++) {
                t.insert(new double[] {r.nextDouble(), r.nextDouble()}, -2 - i);
            }
            t.refresh();
            assertEquals(0, t.stats().bufferBytes(), "an empty refresh drops a filled buffer's arrays");
        }
    }

    @Test
    void aThreadThatRefreshesOftenNeverHoldsAFullBuffer() {
        try (BkdTree t = BkdTree.builder(3).bufferSize(1 << 16).mergeWhenIdle(Duration.ZERO).build()) {
            for (int i = 0; i < 1000; i++) {
                t.insert(new double[] {i, -i, i % 7}, i);
                if (i % 10 == 9) {
                    assertEquals(bufferSet(InsertBuffer.FIRST_CAPACITY, 3), t.stats().bufferBytes(),
                            "10 buffered points take the first, smallest arrays");
                    t.refresh();
                    assertEquals(0, t.stats().bufferBytes());
                }
            }
            for (int i = 0; i < 1000; i++) {
                t.insert(new double[] {i, i, i}, 1000 + i);
            }
            assertEquals(bufferSet(1024, 3), t.stats().bufferBytes(), "1,000 points: arrays doubled from 64 up to 1,024");
            assertEquals(1000, t.count(Box.all(3)), "buffered points are not visible yet");
            t.refresh();
            assertEquals(2000, t.count(Box.all(3)));
        }
    }

    /** Every page of every tree stays below G1's humongous threshold, and pages hold exactly the points. */
    @Test
    void treesKeepTheirPointsInPagesBelowTheHumongousThreshold() {
        for (int dims = 1; dims <= BkdTree.MAX_DIMS; dims++) {
            try (BkdTree t = BkdTree.builder(dims).bufferSize(200_000).leafSize(100).merging(false).build()) {
                Random r = new Random(dims);
                double[] p = new double[dims];
                for (int i = 0; i < 150_000; i++) {
                    for (int d = 0; d < dims; d++) {
                        p[d] = r.nextGaussian();
                    }
                    t.insert(p, (long) i * 1_000_003L);      // ids that need 8 bytes
                }
                t.refresh();
                KdTree tree = t.forest().trees[0];
                long longs = 0;
                for (long[] page : tree.coords) {
                    assertTrue(8L * page.length <= Pages.PAGE_BYTES, dims + "-D: a page of " + 8L * page.length + " bytes");
                    longs += page.length;
                }
                assertEquals(150_000L * dims, longs, dims + "-D: the pages hold exactly the points, no slack");
                assertTrue(tree.coords.length > 1, "150,000 points span several pages");
                assertEquals(8, tree.ids.width);
                assertTrue(tree.ids.bytes() < 8L * 150_000 + 16L * 64, "8-byte ids in pages: " + tree.ids.bytes());
                assertEquals(150_000, t.count(Box.all(dims)));
            }
        }
    }

    /** Nothing keeps a merged-away tree's pages: once reclaimed they are garbage. */
    @Test
    void reclaimedTreesLeaveNothingBehind() throws Exception {
        try (BkdTree t = BkdTree.builder(2).bufferSize(1000).merging(false).build()) {
            for (int i = 0; i < 3000; i++) {
                t.insert(new double[] {i, i}, i);
            }
            java.util.List<java.lang.ref.WeakReference<long[]>> pages = firstPages(t);
            assertEquals(3, pages.size());
            t.forceMerge();
            assertEquals(0, t.reclaimNow());
            await("the merged-away trees' pages are collected", () -> {
                System.gc();
                return pages.stream().allMatch(w -> w.get() == null);
            });
            assertEquals(3000, t.count(Box.all(2)));
        }
    }

    /** Weak references to the first page of every tree (in a method of its own: no local of the test keeps a tree). */
    private static java.util.List<java.lang.ref.WeakReference<long[]>> firstPages(BkdTree t) {
        java.util.List<java.lang.ref.WeakReference<long[]>> pages = new java.util.ArrayList<>();
        for (KdTree tree : t.forest().trees) {
            pages.add(new java.lang.ref.WeakReference<>(tree.coords[0]));
        }
        return pages;
    }

    @Test
    void anIndexLeftByStreamingIngestMergesIntoOneTreeOncePaused() throws Exception {
        try (BkdTree t = BkdTree.builder(2).bufferSize(1000).mergeFactor(4).mergeWhenIdle(Duration.ofMillis(200)).build();
             BkdTree never = BkdTree.builder(2).bufferSize(1000).mergeFactor(4).mergeWhenIdle(Duration.ZERO).build()) {
            Random r = new Random(4);
            for (int i = 0; i < 23_500; i++) {
                double[] p = {r.nextDouble(), r.nextDouble()};
                t.insert(p, i);
                never.insert(p, i);
            }
            t.refresh();
            never.refresh();
            t.awaitMerges();
            never.awaitMerges();
            await("one tree after the pause", () -> t.stats().trees() == 1);
            assertEquals(23_500, t.count(Box.all(2)));
            assertTrue(never.stats().trees() > 1, "without the idle merge the tiers stay: " + never.stats());
            long trees = never.stats().trees();
            Thread.sleep(400);
            assertEquals(trees, never.stats().trees(), "mergeWhenIdle(ZERO) never merges on idle");
        }
    }
}
