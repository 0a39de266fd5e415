package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.bbflow.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A static block that no worker has started when the loop stops (a failure, or the caller's
 * interrupt) is not started: in particular the caller, which runs the blocks of pool threads slow
 * to wake once its own block is done, does not run one after its own block failed or was
 * cancelled. Before, it ran such a block's first 4,096 iterations, and a chunk body
 * ({@code parallelForChunks}) the whole block, after the failure or the cancellation.
 *
 * <p>Whether the caller takes the second block over depends on how fast the pool thread wakes (with
 * {@link WaitStrategy#blocking()} it usually does not wake first), so the runs are repeated; a block
 * run by the caller (worker 0) after its own failed is a violation in every run that has one, so
 * the test never fails with the fix.
 */
class StaticBlockStopTest {
    private static final int RUNS = 300;

    @Test
    @Timeout(60)
    void noBlockStartsAfterTheCallersBlockFailed() {
        AtomicInteger late = new AtomicInteger();
        try (ParallelFor pf = ParallelFor.create(2, WaitStrategy.blocking())) {
            for (int r = 0; r < RUNS; r++) {
                ParallelForException e = assertThrows(ParallelForException.class,
                        () -> pf.parallelForChunks(0, 2, 1, Schedule.staticBlocks(), (from, to, worker) -> {
                            if (from == 0) {
                                throw new IllegalStateException("boom");
                            }
                            if (worker == 0) { // the caller took the second block over, after its own failed
                                late.incrementAndGet();
                            }
                        }));
                assertEquals("boom", e.getCause().getMessage());
                Thread caller = Thread.currentThread();
                assertThrows(ParallelForException.class, () -> pf.parallelFor(0, 2, i -> {
                    if (i == 0) {
                        throw new IllegalStateException("boom");
                    }
                    if (Thread.currentThread() == caller) {
                        late.incrementAndGet();
                    }
                }));
            }
        }
        assertEquals(0, late.get(), "blocks the caller started after its own block failed, in " + RUNS + " runs");
    }

    @Test
    @Timeout(60)
    void noBlockStartsAfterTheCallerWasInterrupted() {
        AtomicInteger late = new AtomicInteger();
        try (ParallelFor pf = ParallelFor.create(2, WaitStrategy.blocking())) {
            for (int r = 0; r < RUNS; r++) {
                try {
                    // a CancellationException if a block was left unrun; none if the pool thread ran
                    // the second block (every iteration ran: nothing was cancelled)
                    pf.parallelForChunks(0, 2, 1, Schedule.staticBlocks(), (from, to, worker) -> {
                        if (from == 0) {
                            Thread.currentThread().interrupt();
                        } else if (worker == 0) {
                            late.incrementAndGet();
                        }
                    });
                } catch (CancellationException expected) {
                    assertTrue(Thread.currentThread().isInterrupted());
                } finally {
                    Thread.interrupted();
                }
            }
        }
        assertEquals(0, late.get(), "blocks the caller started after it was interrupted, in " + RUNS + " runs");
    }
}
