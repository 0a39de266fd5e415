package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

class ReclamationTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentQueriesDuringMergesNeverSeePoisonedArrays() throws Exception {
        long seed = TestSeed.mix(11);
        int dims = 2;
        int grid = 1000;
        try (BkdTree tree = BkdTree.builder(dims).leafSize(8).bufferSize(256).mergeFactor(2)
                .poisonReclaimed(true).build()) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong queries = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                long s = seed + w;
                Thread t = new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        while (!done.get() || queries.get() < 3000) {
                            Box box = Oracle.randomBox(r, dims, grid);
                            tree.count(box);
                            tree.query(box, (id, p) -> { });
                            if (r.nextInt(8) == 0) {
                                try (Snapshot snap = tree.snapshot()) {
                                    snap.count(box);
                                    Thread.yield();
                                    snap.count(Box.all(dims));
                                }
                            }
                            queries.incrementAndGet();
                        }
                    } catch (Throwable t2) {
                        failure.compareAndSet(null, t2);
                    }
                });
                readers.add(t);
                t.start();
            }
            Random r = new Random(seed);
            for (long id = 0; id < 60_000; id++) {
                tree.insert(Oracle.gridPoint(r, dims, grid), id);
                if (id % 7 == 0) {
                    tree.delete(Oracle.pointOf(id / 2, dims, grid), id / 2);
                }
            }
            tree.refresh();
            tree.awaitMerges();
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed, failure.get());
            }
            assertTrue(queries.get() >= 3000, "thousands of queries ran: " + queries.get());
            BkdStats stats = tree.stats();
            assertTrue(stats.merges() > 0 && stats.retiredTrees() > 0, stats.toString());
            assertEquals(0, tree.reclaimNow(), "no reader left, nothing waits");
            stats = tree.stats();
            assertEquals(stats.retiredTrees(), stats.reclaimedTrees(), "every retired tree reclaimed: " + stats);
        }
    }

    @Test
    void poisonDetectorFiresWhenATreeIsReclaimedUnderAReader() {
        try (BkdTree tree = BkdTree.builder(2).leafSize(4).bufferSize(16).merging(false)
                .poisonReclaimed(true).build()) {
            for (int i = 0; i < 40; i++) {
                tree.insert(new double[] {i, i}, i);
            }
            tree.refresh();
            try (Snapshot snap = tree.snapshot()) {
                assertEquals(40, snap.count(Box.all(2)));
                for (KdTree t : tree.forest().trees) {
                    t.reclaim(true);
                }
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> snap.count(Box.all(2)));
                assertTrue(e.getMessage().contains("poisoned"), e.getMessage());
            }
        }
    }

    @Test
    void stuckSnapshotDelaysOnlyTheTreesItCanSee() {
        try (BkdTree tree = BkdTree.builder(1).leafSize(4).bufferSize(1000).merging(false)
                .poisonReclaimed(true).build()) {
            for (int i = 0; i < 10; i++) {
                tree.insert(new double[] {i}, i);
            }
            tree.refresh();
            for (int i = 10; i < 20; i++) {
                tree.insert(new double[] {i}, i);
            }
            tree.refresh();
            Snapshot stuck = tree.snapshot();
            tree.forceMerge();                       // retires the two trees the snapshot sees
            for (int i = 20; i < 30; i++) {
                tree.insert(new double[] {i}, i);
            }
            tree.refresh();
            tree.forceMerge();                       // retires two trees the snapshot never saw
            assertEquals(2, tree.reclaimNow(), "only the snapshot's two trees wait");
            assertEquals(4, tree.stats().retiredTrees());
            assertEquals(2, tree.stats().reclaimedTrees());
            assertEquals(20, stuck.count(Box.all(1)), "the stuck reader still reads intact trees");
            assertEquals(30, tree.count(Box.all(1)));
            stuck.close();
            assertEquals(0, tree.reclaimNow());
            assertEquals(4, tree.stats().reclaimedTrees());
        }
    }

    @Test
    void closeRetiresEverything() {
        BkdTree tree = BkdTree.builder(2).bufferSize(10).merging(false).build();
        for (int i = 0; i < 35; i++) {
            tree.insert(new double[] {i, -i}, i);
        }
        tree.refresh();
        assertEquals(4, tree.stats().trees());
        tree.close();
        BkdStats s = tree.stats();
        assertEquals(0, s.trees());
        assertEquals(4, s.retiredTrees());
        assertEquals(4, s.reclaimedTrees());
    }
}
