package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure of the scheduler thread (the reclaimer's thread, which also publishes the buffers of
 * terminated threads) is survived and reported: the next awaitMerges() throws it once. Before, an
 * Error (an OutOfMemoryError while it bulk-loaded a terminated thread's buffer, or while a purge
 * rebuilt the Bloom filter) ended the thread silently: the terminated thread's points were dropped,
 * and nothing was reclaimed, purged or published by it again.
 */
class ReclaimerFailureTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aFailedPublicationOfATerminatedThreadsBufferIsRetriedAndReported() throws Exception {
        for (boolean merging : new boolean[] {false, true}) {
            try (BkdTree t = BkdTree.builder(2).merging(merging).build()) {
                AtomicInteger calls = new AtomicInteger();
                OutOfMemoryError simulated = new OutOfMemoryError("simulated: no heap for the bulk-load");
                t.bulkLoadHook = () -> {
                    if (calls.incrementAndGet() == 1) {
                        throw simulated;
                    }
                };
                Thread writer = new Thread(() -> {
                    for (int i = 0; i < 3; i++) {
                        t.insert(new double[] {i, i}, i);
                    }
                    t.delete(new double[] {0, 0}, 0);   // a dead point in front: the flush compacts the buffer
                });
                writer.start();
                writer.join();
                awaitTrue(() -> t.count(Box.all(2)) > 0, "the terminated thread's points were published");
                assertEquals(2, t.count(Box.all(2)), "its 2 live points, each once");
                assertTrue(calls.get() >= 2, "published by a later pass");
                IllegalStateException e = assertThrows(IllegalStateException.class, t::awaitMerges);
                assertSame(simulated, e.getCause());
                assertTrue(e.getMessage().startsWith("the Bkd-tree's scheduler thread failed"), e.getMessage());
                t.awaitMerges();                // reported once
                assertEquals(2, t.count(Box.all(2)));
                assertEquals(3, t.stats().insertedPoints(), "counted once, not per attempt (one dropped as deleted)");
                assertEquals(1, t.stats().schedulerFailures(), "counted, and kept after the report: " + t.stats());
                assertEquals(0, t.stats().failedMerges(), t.stats()::toString);
            }
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theSchedulerThreadOutlivesAFailedReclamation() throws Exception {
        try (BkdTree t = BkdTree.builder(2).build()) {
            OutOfMemoryError simulated = new OutOfMemoryError("simulated: no heap for the Bloom filter");
            t.reclaimer.retire(0, () -> {
                throw simulated;
            });
            CountDownLatch later = new CountDownLatch(1);
            t.reclaimer.retire(0, later::countDown);
            assertTrue(later.await(10, TimeUnit.SECONDS), "a later item was reclaimed: the thread lives");
            awaitTrue(() -> t.reclaimer.pendingActions.get() == 0, "no action left pending");
            IllegalStateException e = assertThrows(IllegalStateException.class, t::awaitMerges);
            assertSame(simulated, e.getCause());
            t.awaitMerges();
            assertEquals(0, t.reclaimer.pendingActions.get(), "counted down once");
            assertEquals(1, t.stats().schedulerFailures(), t.stats()::toString);
        }
    }

    /**
     * The flush of a full buffer fails on the inserting thread: that insert throws, the buffer keeps
     * its points, and the next insert publishes them first (before, it wrote past the full arrays).
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anInsertAfterAFailedFlushOfTheFullBufferRetriesIt() {
        try (BkdTree t = BkdTree.builder(2).bufferSize(4).merging(false).build()) {
            AtomicInteger calls = new AtomicInteger();
            t.bulkLoadHook = () -> {
                if (calls.incrementAndGet() == 1) {
                    throw new OutOfMemoryError("simulated: no heap for the bulk-load");
                }
            };
            for (int i = 0; i < 3; i++) {
                t.insert(new double[] {i, i}, i);
            }
            assertThrows(OutOfMemoryError.class, () -> t.insert(new double[] {3, 3}, 3));   // the 4th fills it
            assertEquals(0, t.count(Box.all(2)), "nothing published");
            t.insert(new double[] {4, 4}, 4);
            assertEquals(4, t.count(Box.all(2)), "the retried flush published points 0 to 3");
            t.refresh();
            assertEquals(5, t.count(Box.all(2)), "points 0 to 4, each once");
        }
    }

    /** Polls {@code condition} until it holds, for at most 10 s. */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within 10 s: " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }
}
