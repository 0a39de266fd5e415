package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

/** Issue 12.1: a completed delete must never come back, whatever the purge interleaves with. */
class TombstonePurgeTest {
    private static final double[] P = {3, 4};

    /**
     * The purge reads buffers and forest; exactly then a point is inserted, published and deleted.
     * The delete must survive the purge (deterministic reproduction of the race).
     */
    @Test
    void deleteLandingWhileThePurgeReadsIsNotPurged() {
        try (BkdTree t = BkdTree.builder(2).leafSize(4).bufferSize(64).merging(false).build();
             BkdWriter w = t.writer()) {
            t.insert(new double[] {1, 1}, 9);
            t.refresh();
            t.delete(new double[] {7, 7}, 8);          // some tombstone, so the purge runs
            AtomicBoolean fired = new AtomicBoolean();
            t.merger.afterPurgeReads = () -> {
                if (fired.compareAndSet(false, true)) {
                    w.insert(P, 1);
                    w.flush();
                    t.delete(P, 1);
                }
            };
            t.forceMerge();
            t.merger.afterPurgeReads = null;
            t.reclaimNow();
            assertFalse(t.contains(P, 1), "the delete completed before forceMerge returned");
            t.forceMerge();
            t.reclaimNow();
            t.forceMerge();
            assertFalse(t.contains(P, 1), "still deleted after further merges and purges");
            assertEquals(1, t.count(Box.all(2)));
        }
    }

    /**
     * A purge runs while a delete of a still-buffered point is half recorded (in the map, not yet
     * in the Bloom filter). The purge must not drop that tombstone: once the delete returns, the
     * point must stay hidden after its buffer is published. (Found by VisibilityBoundsTest.)
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void purgeDuringAHalfRecordedDeleteKeepsItsTombstone() throws Exception {
        try (BkdTree t = BkdTree.builder(2).leafSize(4).bufferSize(64).merging(false).build()) {
            t.insert(P, 1);                                  // stays in this thread's buffer
            java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            t.tombstones.afterMapPut = () -> {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            Thread deleter = new Thread(() -> t.delete(P, 1));
            deleter.start();
            entered.await();
            t.tombstones.afterMapPut = null;
            Thread purger = new Thread(t.merger::purgeTombstones);
            purger.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (purger.isAlive() && !waitsForDeletes(purger) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            if (!purger.isAlive()) {
                t.reclaimNow();                              // apply what the purge decided
            }
            release.countDown();
            deleter.join();
            purger.join();
            t.reclaimNow();
            t.refresh();
            assertFalse(t.contains(P, 1), "the delete returned before the point was published");
            assertEquals(0, t.count(Box.all(2)));
        }
    }

    private static boolean waitsForDeletes(Thread th) {
        for (StackTraceElement e : th.getStackTrace()) {
            if (e.getMethodName().equals("awaitDeletesUpTo")) {
                return true;
            }
        }
        return false;
    }

    /** One writer: insert, flush, delete, with background merges; every delete must hold. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void insertFlushDeleteWithBackgroundMergesLosesNoDelete(long seed) throws Exception {
        System.out.println("TombstonePurgeTest seed " + seed);
        Random r = new Random(TestSeed.mix(seed));
        int n = 3000;
        try (BkdTree t = BkdTree.builder(2).leafSize(4).bufferSize(8).mergeFactor(2).build()) {
            long deleted = 0;
            for (int i = 0; i < n; i++) {
                double[] p = Oracle.pointOf(i, 2, 50);
                t.insert(p, i);
                if (r.nextInt(3) == 0) {
                    t.refresh();
                }
                if (r.nextInt(4) != 0) {
                    t.refresh();
                    t.delete(p, i);
                    deleted++;
                }
            }
            t.refresh();
            t.awaitMerges();
            t.forceMerge();
            t.reclaimNow();
            assertEquals(n - deleted, t.count(Box.all(2)), "seed " + seed);
        }
    }
}
