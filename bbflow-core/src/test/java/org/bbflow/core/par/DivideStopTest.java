package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker dividing down a deep branch stops dividing once the run stopped (here: the caller was
 * interrupted by the first divide). Before, the descent to the branch's base case never checked:
 * divide ran on down the whole branch (here a chain of 10^7 problems), after the cancellation.
 */
class DivideStopTest {
    private static final long STILL_DIVIDING = 1_000;

    @Test
    @Timeout(60)
    void aCancelledRunStopsDividing() {
        AtomicLong divides = new AtomicLong();
        Thread caller = Thread.currentThread();
        DivideAndConquer<Long, Long> chain = DivideAndConquer.of(
                n -> {
                    long d = divides.incrementAndGet();
                    if (d == 1) {
                        caller.interrupt(); // the root runs on the caller: the run is cancelled from here on
                    } else if (d > STILL_DIVIDING) {
                        throw new IllegalStateException("still dividing after the cancellation");
                    }
                    return List.of(n - 1);
                },
                rs -> rs.get(0),
                n -> 0L,
                n -> n == 0);
        try (ParallelFor pf = ParallelFor.create(2)) {
            RuntimeException e = null;
            try {
                chain.solve(pf, 10_000_000L);
            } catch (RuntimeException x) {
                e = x;
            } finally {
                assertTrue(Thread.interrupted(), "the interrupt status stays set");
            }
            RuntimeException thrown = e;
            assertTrue(thrown instanceof CancellationException, () -> "expected a CancellationException, got " + thrown);
            assertEquals(1, divides.get(), "divides after the cancellation");
            assertEquals(3L, DivideAndConquer.<Long, Long>of(n -> List.of(n - 1), rs -> rs.get(0) + 1, n -> 0L,
                    n -> n == 0).solve(pf, 3L), "the pool is usable after it");
        }
    }
}
