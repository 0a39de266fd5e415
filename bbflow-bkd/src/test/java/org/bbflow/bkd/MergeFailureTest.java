package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A failed background merge loses nothing and does not poison the index (docs/bkd.md, "A failed
 * merge"): awaitMerges() reports it once, the next call retries the merge, every point stays
 * visible and the directory commits and reopens with all of them. Before, awaitMerges() threw the
 * first failure on every later call, for ever, although the merge had been retried and the index was
 * whole.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MergeFailureTest {

    @ParameterizedTest(name = "plain threads: {0}")
    @ValueSource(booleans = {false, true})
    void aFailedMergeIsReportedOnceThenRetriedAndNothingIsLost(boolean plainThreads, @TempDir Path dir)
            throws Exception {
        try (BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(10).leafSize(4).mergeFactor(2)
                .plainThreadMerges(plainThreads).mergeWhenIdle(Duration.ZERO).build()) {
            AtomicInteger failuresLeft = new AtomicInteger(1);
            t.merger.beforeMerge = () -> {
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new IllegalStateException("injected merge failure");
                }
            };
            for (int i = 0; i < 40; i++) {                   // 4 trees of 10: the first merge fails
                t.insert(new double[] {i}, i);
            }
            t.refresh();
            IllegalStateException reported = assertThrows(IllegalStateException.class, t::awaitMerges);
            assertNotNull(reported.getCause());
            assertEquals("injected merge failure", reported.getCause().getMessage(), reported::toString);
            assertTrue(reported.getMessage().contains("nothing was lost"), reported::getMessage);
            assertEquals(40, t.count(Box.all(1)), "every point is visible after the failed merge");

            t.awaitMerges();                                 // reported once: this one retries the merge
            t.awaitMerges();
            assertFalse(t.merger.hasWork());
            BkdStats s = t.stats();
            assertEquals(1, s.trees(), s::toString);         // 10+10, 10+10, then 20+20
            assertEquals(3, s.merges(), s::toString);
            assertEquals(80, s.mergedPoints(), "the failed merge wrote nothing: " + s);
            assertEquals(1, s.failedMerges(), "the failure is counted, and stays counted once reported: " + s);
            assertEquals(0, s.schedulerFailures(), s::toString);
            assertEquals(40, t.count(Box.all(1)));
            t.commit();
        }
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(40, t.count(Box.all(1)), "the commit after the failed merge holds every point");
        }
    }

    /** Failures that pile up before anyone asks are reported together, once: the first is the cause. */
    @ParameterizedTest(name = "plain threads: {0}")
    @ValueSource(booleans = {false, true})
    void failuresSinceTheLastReportAreReportedTogether(boolean plainThreads) throws Exception {
        try (BkdTree t = BkdTree.builder(1).bufferSize(10).leafSize(4).mergeFactor(2)
                .plainThreadMerges(plainThreads).mergeWhenIdle(Duration.ZERO).build()) {
            AtomicInteger attempts = new AtomicInteger();
            t.merger.beforeMerge = () -> {
                if (attempts.incrementAndGet() <= 3) {
                    throw new IllegalStateException("injected merge failure " + attempts.get());
                }
            };
            for (int round = 0; round < 3; round++) {        // each refresh of 2 trees: one failed merge
                for (int i = 0; i < 20; i++) {
                    t.insert(new double[] {round * 20 + i}, round * 20 + i);
                }
                t.refresh();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while ((attempts.get() <= round || t.stats().backlog() > 0) && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            }
            assertTrue(attempts.get() >= 3, "three merges failed: " + attempts.get());
            IllegalStateException reported = assertThrows(IllegalStateException.class, t::awaitMerges);
            assertEquals("injected merge failure 1", reported.getCause().getMessage(), reported::toString);
            assertTrue(reported.getMessage().contains("more merge(s) since"), reported::getMessage);
            t.awaitMerges();
            assertEquals(3, t.stats().failedMerges(),
                    "each failed merge counted once, all of them after the report: " + t.stats());
            assertEquals(60, t.count(Box.all(1)));
            assertFalse(t.merger.hasWork(), t.stats()::toString);
        }
    }
}
