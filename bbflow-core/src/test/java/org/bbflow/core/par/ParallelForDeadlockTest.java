package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pools whose bodies call each other: the call that would close a cycle of pools waiting for each
 * other is refused with an {@link IllegalStateException} naming the pools of the cycle, the enclosing
 * call fails with it as its cause, the other calls of the cycle complete, and the pools stay usable.
 * Before, such calls waited for each other for ever (the crossed-threads, three-pool, single-thread
 * and close tests hang on that code and fail here at {@link #BOUND_SECONDS}). Calls that only
 * contend, in one order, are never refused.
 */
class ParallelForDeadlockTest {
    /** How long the threads of a test may take; a healthy run takes milliseconds. */
    private static final long BOUND_SECONDS = 20;
    /** How long a thread waits for another at a rendezvous. */
    private static final long RENDEZVOUS_SECONDS = 10;
    private static final long INNER_SUM = 999L * 1000 / 2;

    // ---- the cycles ---------------------------------------------------------------------------

    @Test
    @Timeout(90)
    void twoThreadsWhoseBodiesCallEachOthersPoolOneIsRefusedTheOtherCompletes() throws Exception {
        ParallelFor a = pool("dl2-a", 2);
        ParallelFor b = pool("dl2-b", 2);
        CyclicBarrier bothInside = new CyclicBarrier(2);
        long[] inner = new long[2];
        // index 0 of a static-block loop of two runs on the calling thread, which holds the pool's turn
        Throwable[] out = runConcurrently("crossed",
                () -> a.parallelFor(0, 2, i -> {
                    if (i == 0) {
                        await(bothInside);
                        inner[0] = innerSum(b);
                    }
                }),
                () -> b.parallelFor(0, 2, i -> {
                    if (i == 0) {
                        await(bothInside);
                        inner[1] = innerSum(a);
                    }
                }));
        int refused = out[0] != null ? 0 : 1;
        assertNull(out[1 - refused], "exactly one outer call fails");
        assertEquals(INNER_SUM, inner[1 - refused], "the other thread's call on the other pool completes");
        ParallelFor[] pools = {a, b};
        String called = pools[1 - refused].name();
        String running = pools[refused].name();
        IllegalStateException e = refusal(out[refused], ParallelForException.class);
        assertTrue(e.getMessage().startsWith("parallel loop on pool '" + called + "' refused: it would wait for pool '"
                + called + "', whose loop waits for pool '" + running + "', whose loop this thread is running"), e.getMessage());
        afterwards("dl2-", a, b);
    }

    @Test
    @Timeout(90)
    void aCycleOfThreePoolsRefusesTheCallThatClosesIt() throws Exception {
        ParallelFor[] pools = {pool("dl3-a", 2), pool("dl3-b", 2), pool("dl3-c", 2)};
        CyclicBarrier allInside = new CyclicBarrier(3);
        long[] inner = new long[3];
        Runnable[] callers = new Runnable[3];
        for (int k = 0; k < 3; k++) {
            int me = k;
            ParallelFor next = pools[(k + 1) % 3];
            callers[k] = () -> pools[me].parallelFor(0, 2, i -> {
                if (i == 0) {
                    await(allInside);
                    inner[me] = innerSum(next);
                }
            });
        }
        Throwable[] out = runConcurrently("three", callers);
        int refused = -1;
        for (int k = 0; k < 3; k++) {
            if (out[k] != null) {
                assertEquals(-1, refused, "one call refused only: " + out[refused == -1 ? k : refused]);
                refused = k;
            }
        }
        assertTrue(refused >= 0, "the cycle's last call is refused");
        for (int k = 0; k < 3; k++) {
            if (k != refused) {
                assertEquals(INNER_SUM, inner[k], "the others complete, once the refused call's loop has ended");
            }
        }
        // thread k runs pool k and calls k+1, which waits for k+2, which waits for k
        String x = pools[(refused + 1) % 3].name();
        String y = pools[(refused + 2) % 3].name();
        String z = pools[refused].name();
        IllegalStateException e = refusal(out[refused], ParallelForException.class);
        assertTrue(e.getMessage().startsWith("parallel loop on pool '" + x + "' refused: it would wait for pool '" + x
                + "', whose loop waits for pool '" + y + "', whose loop waits for pool '" + z
                + "', whose loop this thread is running"), e.getMessage());
        afterwards("dl3-", pools);
    }

    /**
     * One thread: its body on pool a calls pool b, whose pool thread's body calls a. The pool thread
     * is in no job of a (its call is not nested) and a's turn is held by the thread that waits for it:
     * before, this hung with a single caller.
     */
    @Test
    @Timeout(90)
    void aPoolThreadOfAnInnerPoolCallingTheOuterPoolIsRefused() throws Exception {
        for (String kind : new String[] {"loop", "solve"}) {
            ParallelFor a = pool("dl1-a", 1);
            ParallelFor b = pool("dl1-b", 2);
            CountDownLatch poolThreadInside = new CountDownLatch(1);
            Throwable[] out = runConcurrently("one thread, " + kind, () -> a.parallelFor(0, 1, i ->
                    b.parallelForWorker(0, 2, 1, Schedule.staticBlocks(), (j, worker) -> {
                        if (worker == 0) {
                            // the caller's share holds on until b's pool thread runs the other one
                            await(poolThreadInside);
                        } else {
                            poolThreadInside.countDown();
                            if (kind.equals("loop")) {
                                innerSum(a);
                            } else {
                                rangeSum().solve(a, new long[] {0, 1000});
                            }
                        }
                    })));
            assertInstanceOf(ParallelForException.class, out[0], "a's loop fails");
            IllegalStateException e = refusal(out[0].getCause(), ParallelForException.class);
            String call = kind.equals("loop") ? "parallel loop" : "divide and conquer";
            assertTrue(e.getMessage().startsWith(call + " on pool 'dl1-a' refused: it would wait for pool 'dl1-a',"
                    + " whose loop waits for pool 'dl1-b', whose loop this thread is running"), e.getMessage());
            afterwards("dl1-", a, b);
        }
    }

    @Test
    @Timeout(90)
    void aCloseThatWouldCloseACycleIsRefused() throws Exception {
        ParallelFor a = pool("dlc-a", 1);
        ParallelFor b = pool("dlc-b", 1);
        CountDownLatch aHeld = new CountDownLatch(1);
        AtomicReference<Throwable> closing = new AtomicReference<>();
        long[] inner = new long[1];
        Throwable[] out = runConcurrently("close",
                () -> a.parallelFor(0, 1, i -> {
                    aHeld.countDown();
                    waitUntil(() -> hasEdge(b, a), "b's body waiting for a");
                    try {
                        b.close();
                    } catch (Throwable t) {
                        closing.set(t);
                    }
                }),
                () -> b.parallelFor(0, 1, i -> {
                    await(aHeld);
                    inner[0] = innerSum(a);
                }));
        assertNull(out[0]);
        assertNull(out[1]);
        assertEquals(INNER_SUM, inner[0]);
        assertInstanceOf(IllegalStateException.class, closing.get());
        assertTrue(closing.get().getMessage().startsWith("close on pool 'dlc-b' refused: it would wait for pool 'dlc-b',"
                + " whose loop waits for pool 'dlc-a', whose loop this thread is running"), closing.get().getMessage());
        assertTrue(!b.isClosed(), "the refused close did not close the pool");
        afterwards("dlc-", a, b);
    }

    // ---- the edges end with the wait ------------------------------------------------------------

    /**
     * A thread whose wait for a turn is interrupted takes its edge out of the graph: a later call
     * that waits the other way round is not refused for a cycle that no longer exists.
     */
    @Test
    @Timeout(90)
    void anInterruptedWaitLeavesNoEdgeBehind() throws Exception {
        ParallelFor a = pool("dli-a", 1);
        ParallelFor b = pool("dli-b", 1);
        CountDownLatch aHeld = new CountDownLatch(1);
        CountDownLatch bHeldAgain = new CountDownLatch(1);
        AtomicReference<Thread> second = new AtomicReference<>();
        AtomicReference<Throwable> secondFirstCall = new AtomicReference<>();
        long[] inner = new long[1];
        Throwable[] out = runConcurrently("interrupt",
                () -> a.parallelFor(0, 1, i -> {
                    aHeld.countDown();
                    waitUntil(() -> hasEdge(b, a), "b's body waiting for a");
                    second.get().interrupt();
                    await(bHeldAgain);
                    inner[0] = innerSum(b); // waits for b, held by the second thread: no cycle, if b -> a is gone
                }),
                () -> {
                    second.set(Thread.currentThread());
                    try {
                        b.parallelFor(0, 1, i -> {
                            await(aHeld);
                            innerSum(a); // waits for a, until interrupted
                        });
                    } catch (Throwable t) {
                        secondFirstCall.set(t);
                    }
                    Thread.interrupted();
                    b.parallelFor(0, 1, i -> {
                        bHeldAgain.countDown();
                        waitUntil(() -> hasEdge(a, b), "a's body waiting for b");
                    });
                });
        assertInstanceOf(CancellationException.class, secondFirstCall.get(), "the interrupted wait is cancelled");
        assertNull(out[0], "no refusal after the interrupted wait");
        assertNull(out[1]);
        assertEquals(INNER_SUM, inner[0]);
        afterwards("dli-", a, b);
    }

    // ---- no false refusal ---------------------------------------------------------------------

    /**
     * Threads that call pools in one order (a's bodies call b; nested calls of a itself; b alone)
     * contend and wait their turns, but are never refused, and every result is right.
     */
    @Test
    @Timeout(180)
    void threadsCallingPoolsInOneOrderAreNeverRefused() throws Exception {
        long seed = Oracle.seed("threadsCallingPoolsInOneOrderAreNeverRefused");
        Random r = new Random(seed);
        for (int rep = 0; rep < 60; rep++) {
            ParallelFor a = pool("dlo-a", 1 + r.nextInt(3));
            ParallelFor b = pool("dlo-b", 1 + r.nextInt(3));
            int callers = 2 + r.nextInt(2);
            Runnable[] actions = new Runnable[callers];
            for (int c = 0; c < callers; c++) {
                long callerSeed = r.nextLong();
                actions[c] = () -> inOneOrder(a, b, new Random(callerSeed));
            }
            Throwable[] out = runConcurrently("one order, seed " + seed + ", repetition " + rep, actions);
            for (int c = 0; c < callers; c++) {
                if (out[c] != null) {
                    throw new AssertionError("seed " + seed + ", repetition " + rep + ", caller " + c + ": " + out[c], out[c]);
                }
            }
            afterwards("dlo-", a, b);
        }
    }

    /** A few calls of a caller that uses a before b only: each checks its results. */
    private static void inOneOrder(ParallelFor a, ParallelFor b, Random r) {
        for (int k = 0; k < 6; k++) {
            int n = 1 + r.nextInt(40);
            Schedule s = r.nextBoolean() ? Schedule.dynamic(1 + r.nextInt(4)) : Schedule.staticBlocks();
            long[] got = new long[n];
            switch (r.nextInt(4)) {
                case 0: // a's bodies call loops of b
                    a.parallelFor(0, n, 1, s, i -> got[(int) i] = b.parallelReduceLong(0, i + 1, 0L, (acc, j) -> acc + j, Long::sum));
                    break;
                case 1: // a's bodies solve on b
                    a.parallelFor(0, n, 1, s, i -> got[(int) i] = rangeSum().solve(b, new long[] {0, i + 1}));
                    break;
                case 2: // a's bodies call a (nested: no turn) and b
                    a.parallelFor(0, n, 1, s, i -> got[(int) i] = a.parallelReduceLong(0, i + 1, 0L, (acc, j) -> acc + j, Long::sum)
                            + b.parallelReduceLong(0, 1, 0L, (acc, j) -> acc + j, Long::sum));
                    break;
                default: // b alone, from no pool's job
                    b.parallelFor(0, n, 1, s, i -> got[(int) i] = i * (i + 1) / 2);
            }
            for (int i = 0; i < n; i++) {
                assertEquals((long) i * (i + 1) / 2, got[i], "index " + i);
            }
        }
    }

    /**
     * A call nested in a body of the same pool, on the caller and on a pool thread, takes no turn and
     * adds no edge, while another thread waits for the pool's turn.
     */
    @Test
    @Timeout(90)
    void nestedCallsOfTheSamePoolAddNoEdge() throws Exception {
        ParallelFor a = pool("dln-a", 2);
        CyclicBarrier bothBodies = new CyclicBarrier(2);
        CountDownLatch firstInside = new CountDownLatch(1);
        long[] sums = new long[4];
        Throwable[] out = runConcurrently("nested",
                () -> a.parallelForWorker(0, 2, 1, Schedule.staticBlocks(), (i, worker) -> {
                    await(bothBodies); // both shares run at once: worker 0 (this thread) and a pool thread
                    firstInside.countDown();
                    sums[(int) i] = a.parallelReduceLong(0, 1000, 0L, (acc, j) -> acc + j, Long::sum);
                    synchronized (WaitForGraph.LOCK) {
                        assertTrue(a.waitsFor.isEmpty(), "a nested call adds no edge");
                    }
                }),
                () -> {
                    await(firstInside);
                    a.parallelFor(0, 2, i -> sums[2 + (int) i] = a.parallelReduceLong(0, 1000, 0L, (acc, j) -> acc + j, Long::sum));
                });
        assertNull(out[0]);
        assertNull(out[1]);
        for (long s : sums) {
            assertEquals(INNER_SUM, s);
        }
        afterwards("dln-", a);
    }

    // ---- support --------------------------------------------------------------------------------

    private static ParallelFor pool(String name, int parallelism) {
        return ParallelFor.create(name, parallelism, ParallelFor.defaultWaitStrategy());
    }

    private static long innerSum(ParallelFor pool) {
        return pool.parallelReduceLong(0, 1000, 0L, (acc, j) -> acc + j, Long::sum);
    }

    /** The sum of lo..hi-1, by halves. */
    private static DivideAndConquer<long[], Long> rangeSum() {
        return DivideAndConquer.<long[], Long>of(
                p -> List.of(new long[] {p[0], (p[0] + p[1]) >>> 1}, new long[] {(p[0] + p[1]) >>> 1, p[1]}),
                rs -> rs.get(0) + rs.get(1),
                p -> {
                    long s = 0;
                    for (long i = p[0]; i < p[1]; i++) {
                        s += i;
                    }
                    return s;
                },
                p -> p[1] - p[0] <= 8);
    }

    /** The refusal at the end of a chain of {@code wrapper} causes. */
    private static IllegalStateException refusal(Throwable t, Class<? extends Throwable> wrapper) {
        assertInstanceOf(wrapper, t, "the enclosing call fails");
        Throwable cause = t.getCause();
        assertInstanceOf(IllegalStateException.class, cause, "the refused call threw out of a body");
        assertTrue(cause.getMessage().contains("refused"), cause.getMessage());
        return (IllegalStateException) cause;
    }

    /** The graph is empty, the pools still work (a call of b from a's body included), then close with no thread left. */
    private static void afterwards(String prefix, ParallelFor... pools) {
        synchronized (WaitForGraph.LOCK) {
            for (ParallelFor p : pools) {
                assertTrue(p.waitsFor.isEmpty(), "no edge is left out of " + p.name() + ": " + p.waitsFor);
            }
        }
        for (ParallelFor p : pools) {
            assertEquals(INNER_SUM, innerSum(p), p.name() + " is usable");
        }
        if (pools.length > 1) {
            long[] got = new long[3];
            pools[0].parallelFor(0, 3, i -> got[(int) i] = innerSum(pools[1]));
            assertEquals(List.of(INNER_SUM, INNER_SUM, INNER_SUM), List.of(got[0], got[1], got[2]));
        }
        for (ParallelFor p : pools) {
            p.close();
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertTrue(!t.getName().startsWith(prefix) || !t.isAlive(), "thread left after close: " + t.getName());
        }
    }

    private static boolean hasEdge(ParallelFor from, ParallelFor to) {
        synchronized (WaitForGraph.LOCK) {
            return from.waitsFor.contains(to);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(RENDEZVOUS_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("rendezvous failed", e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(RENDEZVOUS_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("rendezvous not reached in " + RENDEZVOUS_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted at a rendezvous", e);
        }
    }

    /** Waits (a bounded poll) until the condition holds. */
    private static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RENDEZVOUS_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not reached in " + RENDEZVOUS_SECONDS + " s: " + what);
            }
            Thread.yield();
        }
    }

    /**
     * Runs each action on a daemon thread of its own and returns what each threw (null if it
     * returned). Fails if one is still running after {@link #BOUND_SECONDS}: a deadlock (its pools
     * are then left as they are; their threads are daemons).
     */
    private static Throwable[] runConcurrently(String what, Runnable... actions) throws InterruptedException {
        Throwable[] out = new Throwable[actions.length];
        Thread[] threads = new Thread[actions.length];
        for (int k = 0; k < actions.length; k++) {
            int me = k;
            threads[k] = new Thread(() -> {
                try {
                    actions[me].run();
                } catch (Throwable t) {
                    out[me] = t;
                }
            }, "deadlock-test-" + k);
            threads[k].setDaemon(true);
        }
        for (Thread t : threads) {
            t.start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                fail(what + ": " + t.getName() + " still running after " + BOUND_SECONDS + " s (a deadlock)\n" + stacks());
            }
        }
        return out;
    }

    private static String stacks() {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            String name = e.getKey().getName();
            if (name.startsWith("deadlock-test-") || name.startsWith("dl")) {
                lines.add("\"" + name + "\" " + e.getKey().getState());
                for (StackTraceElement s : e.getValue()) {
                    lines.add("    at " + s);
                }
            }
        }
        return String.join("\n", lines);
    }
}
