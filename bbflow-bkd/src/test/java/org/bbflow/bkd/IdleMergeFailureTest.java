package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An idle merge (mergeWhenIdle) that fails is tried again once a tree is published, not on every
 * pass of the scheduler thread. Before, the scheduler offered it again every 2 ms: an idle merge
 * that failed for good (an OutOfMemoryError gathering every point of the index) ran and failed in a
 * loop for ever, each time allocating the whole index again.
 */
class IdleMergeFailureTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aFailedIdleMergeWaitsForTheNextPublishedTree() throws Exception {
        for (boolean plain : new boolean[] {false, true}) {
            try (BkdTree t = BkdTree.builder(2).plainThreadMerges(plain).mergeWhenIdle(Duration.ofMillis(1)).build()) {
                AtomicInteger attempts = new AtomicInteger();
                AtomicInteger failing = new AtomicInteger(1);
                t.merger.beforeMerge = () -> {
                    attempts.incrementAndGet();
                    if (failing.get() == 1) {
                        throw new OutOfMemoryError("simulated: no heap to gather the whole index");
                    }
                };
                for (int i = 0; i < 2; i++) {       // two trees: below the merge factor, so only the idle merge
                    t.insert(new double[] {i, i}, i);
                    t.refresh();
                }
                awaitTrue(() -> attempts.get() >= 1 && !t.merger.idleMergeDue() && t.stats().backlog() == 0,
                        "the idle merge was tried and failed");
                int tried = attempts.get();
                long passes = t.reclaimer.passes.get();
                awaitTrue(() -> t.reclaimer.passes.get() >= passes + 25, "25 passes of the scheduler thread");
                assertEquals(tried, attempts.get(), "plain=" + plain + ": not tried again without a new tree");
                assertEquals(2, t.stats().trees());
                IllegalStateException e = assertThrows(IllegalStateException.class, t::awaitMerges);
                assertEquals(OutOfMemoryError.class, e.getCause().getClass());

                failing.set(0);
                t.insert(new double[] {5, 5}, 5);   // a new tree: the idle merge is due again, and now works
                t.refresh();
                awaitTrue(() -> t.stats().trees() == 1, "the idle merge after the next published tree");
                assertEquals(3, t.count(Box.all(2)));
            }
        }
    }

    /** Polls {@code condition} until it holds, for at most 10 s. */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within 10 s: " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
