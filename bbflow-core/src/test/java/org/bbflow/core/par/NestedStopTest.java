package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A call nested in a loop body of the same pool, running on a pool thread (or on the caller, for a
 * share it took over), stops when the enclosing call stops: a failure of another body, or the
 * interrupt of the calling thread. Before, the nested call ran to its end, and the enclosing call,
 * which waits for every worker, waited for it: a failure or a cancel was held up for as long as the
 * nested call lasted (here: forever).
 */
class NestedStopTest {
    /** Long enough for any healthy run; a nested call that does not stop never ends (2^63 iterations). */
    private static final long WAIT_SECONDS = 5;

    private volatile boolean release;

    /** A nested call that runs until the enclosing call stops it, or until {@link #release}. */
    private void longNestedCall(ParallelFor pf, String kind) {
        switch (kind) {
            case "loop":
                pf.parallelFor(0, Long.MAX_VALUE, 1, Schedule.staticBlocks(), j -> check());
                return;
            case "reduction":
                pf.parallelReduceLong(0, Long.MAX_VALUE, 1, Schedule.dynamic(64), 0L, (acc, j) -> {
                    check();
                    return acc + 1;
                }, Long::sum);
                return;
            default: // a solve of 2^62 leaves, each a task (no cutoff)
                DivideAndConquer.<long[], Long>of(
                        r -> List.of(new long[] {r[0], (r[0] + r[1]) >>> 1}, new long[] {(r[0] + r[1]) >>> 1, r[1]}),
                        rs -> rs.get(0) + rs.get(1),
                        r -> {
                            check();
                            return 1L;
                        },
                        r -> r[1] - r[0] <= 1).solve(pf, new long[] {0, 1L << 62});
        }
    }

    private void check() {
        if (release) {
            throw new IllegalStateException("released by the test: the nested call did not stop");
        }
    }

    /** Runs the outer call on a thread of its own; fails (and releases the nested call) if it does not end. */
    private Throwable outerCall(ParallelFor pf, String kind, boolean interrupt) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                pf.parallelFor(0, 2, 1, Schedule.staticBlocks(), i -> {
                    if (i == 1) {
                        entered.countDown();
                        longNestedCall(pf, kind);
                    } else {
                        try {
                            if (!entered.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                                throw new AssertionError("the nested call did not start");
                            }
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        if (interrupt) {
                            Thread.currentThread().interrupt();
                        } else {
                            throw new IllegalStateException("boom");
                        }
                    }
                });
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "outer-caller");
        caller.start();
        caller.join(TimeUnit.SECONDS.toMillis(2 * WAIT_SECONDS));
        if (caller.isAlive()) {
            release = true;
            caller.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            fail(kind + (interrupt ? ", interrupt" : ", failure")
                    + ": the outer call did not end while a nested call of the same pool ran on a worker");
        }
        return thrown.get();
    }

    @Test
    @Timeout(120)
    void aFailureStopsANestedCallOnAnotherWorker() throws InterruptedException {
        for (String kind : new String[] {"loop", "reduction", "solve"}) {
            release = false;
            try (ParallelFor pf = ParallelFor.create(2)) {
                Throwable t = outerCall(pf, kind, false);
                assertTrue(t instanceof ParallelForException, () -> kind + ": expected a ParallelForException, got " + t);
                assertEquals("boom", t.getCause().getMessage(), kind);
                assertEquals(0, t.getCause().getSuppressed().length,
                        () -> kind + ": the nested call's stop is no failure of its own: " + List.of(t.getCause().getSuppressed()));
                // the pool is usable after it
                assertEquals(100L, pf.parallelReduceLong(0, 100, 0L, (acc, i) -> acc + 1, Long::sum), kind);
            }
        }
    }

    @Test
    @Timeout(120)
    void anInterruptStopsANestedCallOnAnotherWorker() throws InterruptedException {
        for (String kind : new String[] {"loop", "reduction", "solve"}) {
            release = false;
            try (ParallelFor pf = ParallelFor.create(2)) {
                Throwable t = outerCall(pf, kind, true);
                assertTrue(t instanceof CancellationException, () -> kind + ": expected a CancellationException, got " + t);
                assertEquals(100L, pf.parallelReduceLong(0, 100, 0L, (acc, i) -> acc + 1, Long::sum), kind);
            }
        }
    }
}
