package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/** Issue 12.4: tombstones stay bounded, cost queries only where they lie, and purges stay cheap. */
class TombstoneBoundsTest {
    private static final double[] P = {0.5, 0.5};

    /** A live thread holding one unpublished point blocks only the tombstone that matches it. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleThreadWithABufferedPointDoesNotBlockOtherPurges() throws Exception {
        try (BkdTree t = BkdTree.builder(2).leafSize(8).bufferSize(1000).merging(false).build()) {
            CountDownLatch inserted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread idle = new Thread(() -> {
                try {
                    t.insert(P, 1);
                    t.insert(new double[] {0.25, 0.25}, 2);
                    inserted.countDown();
                    release.await();
                    t.refresh();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            idle.start();
            inserted.await();
            int n = 5000;
            for (int i = 0; i < n; i++) {
                t.insert(new double[] {i, i}, 100 + i);
            }
            t.refresh();
            t.delete(P, 1);                                  // matches the idle thread's buffered point
            for (int i = 0; i < n; i++) {
                t.delete(new double[] {i, i}, 100 + i);
            }
            t.forceMerge();
            t.reclaimNow();
            assertEquals(1, t.stats().tombstones(), "only the tombstone of the buffered point is kept");
            release.countDown();
            idle.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertFalse(t.contains(P, 1), "the buffered point was deleted before it was published");
            assertTrue(t.contains(new double[] {0.25, 0.25}, 2));
            t.forceMerge();
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones());
            assertEquals(1, t.count(Box.all(2)));
        }
    }

    /** A tombstone of a point that never existed costs count only in the cell where it lies. */
    @Test
    void countSkipsTombstoneChecksInCellsWithoutTombstones() {
        int n = 100_000;
        int leaf = 64;
        try (BkdTree t = BkdTree.builder(2).leafSize(leaf).bufferSize(n).merging(false).build()) {
            Random r = new Random(TestSeed.mix(4));
            for (int i = 0; i < n; i++) {
                t.insert(new double[] {r.nextInt(10_000), r.nextInt(10_000)}, i);
            }
            t.refresh();
            t.delete(new double[] {5000.5, 5000.5}, -1);
            QueryContext all = t.runContext(t.forest(), Box.all(2), null, Long.MAX_VALUE);
            assertEquals(n, all.count);
            assertTrue(all.tombstoneChecks <= leaf, "points checked: " + all.tombstoneChecks);
            Box away = Box.of(new double[] {0, 0}, new double[] {3000, 9000});
            QueryContext window = t.runContext(t.forest(), away, null, Long.MAX_VALUE);
            assertEquals(0, window.tombstoneChecks);
            assertEquals(window.count, t.count(away));
            QueryContext visit = t.runContext(t.forest(), away, (id, p) -> { }, Long.MAX_VALUE);
            assertEquals(0, visit.tombstoneChecks);
            assertEquals(window.count, visit.count);
        }
    }

    /** Tombstones held by a tree that is not merged are not searched again by every purge. */
    @Test
    void purgeDoesNotResearchTombstonesHeldByALiveTree() {
        try (BkdTree t = BkdTree.builder(2).leafSize(8).bufferSize(1000).merging(false).build()) {
            int trees = 20;
            for (int i = 0; i < trees * 1000; i++) {
                t.insert(new double[] {i % 1000, i / 1000}, i);
            }
            t.refresh();
            for (int i = 0; i < trees * 1000; i += 10) {
                t.delete(new double[] {i % 1000, i / 1000}, i);
            }
            t.merger.purgeTombstones();
            long first = t.merger.treeChecks.get();
            for (int k = 0; k < 10; k++) {
                t.merger.purgeTombstones();
            }
            long again = t.merger.treeChecks.get() - first;
            assertEquals(2000, t.stats().tombstones());
            assertTrue(first <= 2000L * trees, "first purge: " + first);
            assertEquals(0, again, "later purges searched trees again");
            t.forceMerge();
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones());
            assertEquals(18_000, t.count(Box.all(2)));
        }
    }
}
