package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12.3 and 12.8: what close() keeps, drops and releases. */
class LifecycleTest {

    /** An index closed by a thread that keeps running must become garbage (no thread-local leak). */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closedIndexIsCollectedWhileItsInsertingThreadLives() throws Exception {
        List<WeakReference<BkdTree>> refs = new ArrayList<>();
        for (int cycle = 0; cycle < 20; cycle++) {
            BkdTree t = BkdTree.builder(2).bufferSize(1 << 16).build();
            for (int i = 0; i < 100; i++) {
                t.insert(new double[] {i, cycle}, i);      // buffered on this (long-lived) thread
            }
            t.count(Box.all(2));                           // this thread also gets a reader slot
            BkdWriter w = t.writer();
            w.insert(new double[] {1, 1}, 1);
            t.close();
            refs.add(new WeakReference<>(t));
        }
        for (int i = 0; i < 50 && refs.stream().anyMatch(r -> r.get() != null); i++) {
            System.gc();
            byte[][] pressure = new byte[64][];
            for (int k = 0; k < pressure.length; k++) {
                pressure[k] = new byte[1 << 16];
            }
            LockSupport.parkNanos(20_000_000);
        }
        long alive = refs.stream().filter(r -> r.get() != null).count();
        assertEquals(0, alive, "closed indexes still reachable from the inserting thread");
    }

    /** close() publishes (and so checkpoints) the closing thread's own buffer. */
    @Test
    void closeKeepsTheClosingThreadsOwnBufferedPoints(@TempDir Path dir) {
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            t.insert(new double[] {1, 2}, 1);
            t.insert(new double[] {3, 4}, 2);
            t.refresh();
            t.insert(new double[] {5, 6}, 3);               // never refreshed: close publishes it
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(3, t.count(Box.all(2)));
            assertTrue(t.contains(new double[] {5, 6}, 3));
        }
    }

    /** Inserters racing with close(): afterwards no merge ticket is reported, and never a negative one. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void backlogIsZeroAfterCloseEvenWithRacingInserters() throws Exception {
        for (int round = 0; round < 30; round++) {
            BkdTree t = BkdTree.builder(2).bufferSize(1).leafSize(2).mergeFactor(2).mergeBacklog(1).build();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> inserters = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 1_000_000 && !stop.get(); i++) {
                        try {
                            t.insert(new double[] {i, writer}, i);
                        } catch (IllegalStateException closed) {
                            return;
                        }
                    }
                });
                inserters.add(th);
                th.start();
            }
            LockSupport.parkNanos(5_000_000);
            t.close();
            stop.set(true);
            for (Thread th : inserters) {
                th.join();
            }
            assertEquals(0, t.stats().backlog(), "round " + round + ": " + t.stats());
        }
    }

    /** Delete slots of terminated threads are dropped by the scheduler thread. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void deleteSlotsOfTerminatedThreadsAreDropped() throws Exception {
        try (BkdTree t = BkdTree.builder(2).build()) {
            for (int i = 0; i < 64; i++) {
                int id = i;
                Thread th = new Thread(() -> t.delete(new double[] {id, id}, id));
                th.start();
                th.join();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (t.tombstones.deleteSlotCount() > 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(0, t.tombstones.deleteSlotCount(), "slots of 64 finished deleters");
            t.delete(new double[] {0, 0}, 0);
            assertEquals(1, t.tombstones.deleteSlotCount());
        }
    }

    /**
     * A forceMerge() that was merging when close() emptied the forest fails with an
     * IllegalStateException saying so (before: a NegativeArraySizeException from the forest swap).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aForceMergeOverlappingCloseFailsSayingTheIndexClosed() throws Exception {
        BkdTree t = BkdTree.builder(1).bufferSize(10).merging(false).build();
        for (int i = 0; i < 100; i++) {
            t.insert(new double[] {i}, i);
        }
        t.refresh();
        HeldMerge held = HeldMerge.start(t);
        t.close();
        Throwable e = held.resumeAndJoin();
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("closed"), String.valueOf(e));
    }

    /**
     * stats() answers after close() (see its Javadoc for why) with the index's final state, and the same
     * every time: a forceMerge() that was merging when close() ran is dropped and counted nowhere
     * (before, its points were added to mergedPoints when the merge finished, after close() had
     * returned, though its tree was never installed).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void statsAfterCloseAnswerTheFinalStateEveryTime() throws Exception {
        BkdTree t = BkdTree.builder(1).bufferSize(10).merging(false).build();
        for (int i = 0; i < 40; i++) {
            t.insert(new double[] {i}, i);
        }
        t.refresh();
        t.forceMerge();                                   // one merge of 40 points, counted
        for (int i = 40; i < 70; i++) {
            t.insert(new double[] {i}, i);
        }
        t.refresh();
        HeldMerge held = HeldMerge.start(t);
        BkdStats open = t.stats();
        assertEquals(4, open.trees(), open::toString);
        assertEquals(70, open.points());
        t.close();
        BkdStats closed = t.stats();
        Throwable e = held.resumeAndJoin();
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("closed"), String.valueOf(e));

        assertEquals(List.of(), closed.treesPerLevel());
        assertEquals(0, closed.trees());
        assertEquals(0, closed.points());
        assertEquals(0, closed.treeBytes());
        assertEquals(0, closed.bufferBytes());
        assertEquals(0, closed.backlog());
        assertEquals(70, closed.insertedPoints());
        assertEquals(1, closed.merges());
        assertEquals(40, closed.mergedPoints(), "only the merge installed before close() wrote points");
        assertEquals(4 + 4, closed.retiredTrees(), "4 merged away, then the 4 close() dropped");
        assertEquals(closed.retiredTrees(), closed.reclaimedTrees());
        assertEquals(closed, t.stats(), "nothing changes once close() and the calls that overlapped it returned");
    }

    /** A forceMerge() on its own thread, held inside its merge (before it installs) until resumed. */
    private static final class HeldMerge {
        private final CountDownLatch resume = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;

        /** Starts the forceMerge and returns once it is merging. */
        static HeldMerge start(BkdTree t) throws InterruptedException {
            HeldMerge h = new HeldMerge();
            CountDownLatch merging = new CountDownLatch(1);
            t.merger.beforeMerge = () -> {
                merging.countDown();
                try {
                    h.resume.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            h.thread = new Thread(() -> {
                try {
                    t.forceMerge();
                } catch (Throwable e) {
                    h.failure.set(e);
                }
            }, "force-merge");
            h.thread.start();
            assertTrue(merging.await(30, TimeUnit.SECONDS), "the force-merge started");
            return h;
        }

        /** Lets the merge go on, waits (30 s at most) for forceMerge() to return, and gives what it threw. */
        Throwable resumeAndJoin() throws InterruptedException {
            resume.countDown();
            thread.join(30_000);
            assertTrue(!thread.isAlive(), "the force-merge returned");
            return failure.get();
        }
    }
}
