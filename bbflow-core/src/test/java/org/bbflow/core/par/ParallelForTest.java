package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.bbflow.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** ParallelFor's loops against the sequential loop: every schedule, shape and worker count. */
class ParallelForTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static List<Schedule> schedules(Random r, int parallelism) {
        List<Schedule> s = new ArrayList<>();
        for (Schedule base : new Schedule[] {Schedule.staticBlocks(), Schedule.staticChunks(1),
                Schedule.staticChunks(1 + r.nextInt(100)), Schedule.dynamic(1), Schedule.dynamic(1 + r.nextInt(100))}) {
            s.add(base);
            s.add(base.onWorkers(1));
            s.add(base.onWorkers(2));
            s.add(base.onWorkers(parallelism + 2)); // more than the pool has: the whole pool
        }
        return s;
    }

    /** A random range: empty, single, negative step, or at either end of the long range. */
    private static long[] range(Random r) {
        int shape = r.nextInt(8);
        long step = (1 + r.nextInt(9)) * (r.nextBoolean() ? 1 : -1);
        int count = r.nextInt(3000);
        long first;
        switch (shape) {
            case 0: // empty: last on the wrong side
                first = r.nextInt(1000) - 500;
                return new long[] {first, step > 0 ? first - r.nextInt(5) : first + r.nextInt(5), step};
            case 1: // one iteration
                first = r.nextLong();
                return new long[] {first, step > 0 ? (first > Long.MAX_VALUE - step ? Long.MAX_VALUE : first + step)
                        : (first < Long.MIN_VALUE - step ? Long.MIN_VALUE : first + step), step};
            case 2: // ends at Long.MAX_VALUE
                step = Math.abs(step);
                return new long[] {Long.MAX_VALUE - count * step - r.nextInt(3), Long.MAX_VALUE, step};
            case 3: // ends at Long.MIN_VALUE, counting down
                step = -Math.abs(step);
                return new long[] {Long.MIN_VALUE + count * -step + r.nextInt(3), Long.MIN_VALUE, step};
            case 4: // the whole long range by a huge step
                return new long[] {Long.MIN_VALUE + r.nextInt(10), Long.MAX_VALUE, (1L << 58) + r.nextInt(1000)};
            default:
                first = r.nextInt(1_000_000) - 500_000;
                return new long[] {first, first + step * count + (step > 0 ? -r.nextInt(3) : r.nextInt(3)), step};
        }
    }

    private static void checkVisits(String what, List<Long> expected, Map<Long, Integer> seen) {
        assertEquals(expected.size(), seen.size(), what + ": distinct indices run");
        for (long i : expected) {
            assertEquals(Integer.valueOf(1), seen.get(i), what + ": index " + i + " runs once");
        }
    }

    @Test
    void everyScheduleRunsEveryIndexOnce() {
        Random r = Oracle.random("everyScheduleRunsEveryIndexOnce");
        for (int parallelism : new int[] {1, 2, 3}) {
            try (ParallelFor pf = ParallelFor.create(parallelism); Watchdog w = Watchdog.start(DEADLINE, "loops")) {
                for (Schedule s : schedules(r, parallelism)) {
                    for (int rep = 0; rep < 6; rep++) {
                        long[] g = range(r);
                        String what = "p=" + parallelism + " " + s + " range " + g[0] + ".." + g[1] + " by " + g[2];
                        List<Long> expected = Oracle.indices(g[0], g[1], g[2], 100_000);
                        Map<Long, Integer> seen = new ConcurrentHashMap<>();
                        pf.parallelFor(g[0], g[1], g[2], s, i -> seen.merge(i, 1, Integer::sum));
                        checkVisits(what, expected, seen);

                        long seq = 0;
                        for (long i : expected) {
                            seq += i * 31 + 7; // wraps: the sequential loop's result is the oracle
                        }
                        long par = pf.parallelReduceLong(g[0], g[1], g[2], s, 0L, (acc, i) -> acc + i * 31 + 7, Long::sum);
                        assertEquals(seq, par, what + ": long sum (with overflow)");
                    }
                }
            }
        }
    }

    @Test
    void intLoopsRunEveryIndexOnce() {
        Random r = Oracle.random("intLoopsRunEveryIndexOnce");
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "int loops")) {
            int[][] ranges = {{0, 0, 1}, {5, 6, 1}, {10, -10, -3}, {Integer.MAX_VALUE - 50, Integer.MAX_VALUE, 7},
                    {Integer.MIN_VALUE + 40, Integer.MIN_VALUE, -4}, {-1000, 1000, 1}};
            for (int[] g : ranges) {
                for (Schedule s : schedules(r, 3)) {
                    List<Long> expected = Oracle.indices(g[0], g[1], g[2], 100_000);
                    Map<Long, Integer> seen = new ConcurrentHashMap<>();
                    pf.parallelForInt(g[0], g[1], g[2], s, i -> seen.merge((long) i, 1, Integer::sum));
                    checkVisits(s + " int range " + g[0] + ".." + g[1] + " by " + g[2], expected, seen);
                }
            }
        }
    }

    @Test
    void tooLongOrStepZeroRangesAreRefused() {
        try (ParallelFor pf = ParallelFor.create(2)) {
            assertThrows(IllegalArgumentException.class, () -> pf.parallelFor(Long.MIN_VALUE, Long.MAX_VALUE, i -> { }));
            assertThrows(IllegalArgumentException.class, () -> pf.parallelFor(0, 10, 0, Schedule.staticBlocks(), i -> { }));
            assertThrows(IllegalArgumentException.class, () -> Schedule.dynamic(0));
            assertThrows(IllegalArgumentException.class, () -> Schedule.staticChunks(-1));
            assertThrows(IllegalArgumentException.class, () -> Schedule.staticBlocks().onWorkers(0));
            assertThrows(IllegalArgumentException.class, () -> ParallelFor.create(0));
            // a chunk body's exclusive end must fit a long
            assertThrows(IllegalArgumentException.class,
                    () -> pf.parallelForChunks(Long.MAX_VALUE - 3, Long.MAX_VALUE, 2, Schedule.staticBlocks(), (a, b, w) -> { }));
            // but a plain loop runs there
            AtomicLong sum = new AtomicLong();
            pf.parallelFor(Long.MAX_VALUE - 3, Long.MAX_VALUE, 2, Schedule.dynamic(1), i -> sum.addAndGet(i - Long.MAX_VALUE));
            assertEquals(-3 + -1, sum.get());
        }
    }

    @Test
    void reductionsMatchTheSequentialLoop() {
        Random r = Oracle.random("reductionsMatchTheSequentialLoop");
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "reductions")) {
            for (Schedule s : schedules(r, 3)) {
                int n = r.nextInt(5000);
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.nextLong();
                }
                // overflowing long sum and product: same as the sequential loop
                long sum = 0;
                long product = 1;
                long max = Long.MIN_VALUE;
                for (long x : a) {
                    sum += x;
                    product *= x | 1;
                    max = Math.max(max, x);
                }
                assertEquals(sum, pf.parallelReduceLong(0, n, 1, s, 0L, (acc, i) -> acc + a[(int) i], Long::sum), s + " sum");
                assertEquals(product, pf.parallelReduceLong(0, n, 1, s, 1L, (acc, i) -> acc * (a[(int) i] | 1), (x, y) -> x * y),
                        s + " product");
                assertEquals(max, pf.parallelReduceLong(0, n, 1, s, Long.MIN_VALUE, (acc, i) -> Math.max(acc, a[(int) i]), Math::max),
                        s + " max");
                // doubles: integers below 2^53 add exactly in any order
                double dsum = 0;
                for (int i = 0; i < n; i++) {
                    dsum += (double) (a[i] >>> 24);
                }
                assertEquals(dsum, pf.parallelReduceDouble(0, n, 1, s, 0.0, (acc, i) -> acc + (double) (a[(int) i] >>> 24), Double::sum),
                        s + " double sum");
                // objects with identity and combine: exact big-integer sum
                BigInteger big = BigInteger.ZERO;
                for (long x : a) {
                    big = big.add(BigInteger.valueOf(x));
                }
                assertEquals(big, pf.parallelReduce(0, n, 1, s, BigInteger.ZERO, (acc, i) -> acc.add(BigInteger.valueOf(a[(int) i])),
                        BigInteger::add), s + " BigInteger sum");
            }
            // static blocks keep the order: a non-commutative combine (concatenation) gives the sequential string
            StringBuilder seq = new StringBuilder();
            for (int i = 100; i > 0; i -= 3) {
                seq.append(i).append(',');
            }
            assertEquals(seq.toString(), pf.parallelReduce(100, 0, -3, Schedule.staticBlocks(), "", (acc, i) -> acc + i + ",",
                    String::concat));
            // an empty range gives the identity
            assertEquals(42L, pf.parallelReduceLong(5, 5, 42L, (acc, i) -> 0, Long::sum));
            assertEquals(1.5, pf.parallelReduceDouble(5, 0, 1.5, (acc, i) -> 0, Double::sum));
            assertSame("id", pf.parallelReduce(0, 0, 1, Schedule.dynamic(4), "id", (acc, i) -> "x", String::concat));
        }
    }

    @Test
    void workersAreTheCallerAndThePoolsThreads() {
        try (ParallelFor pf = ParallelFor.create("wk", 3, WaitStrategy.backoff()); Watchdog w = Watchdog.start(DEADLINE, "workers")) {
            for (Schedule s : new Schedule[] {Schedule.staticBlocks(), Schedule.staticChunks(10), Schedule.dynamic(7)}) {
                for (int limit = 1; limit <= 4; limit++) {
                    int n = 10_000;
                    AtomicLongArray perWorker = new AtomicLongArray(3);
                    Map<Integer, String> threadOf = new ConcurrentHashMap<>();
                    Thread caller = Thread.currentThread();
                    int lim = limit;
                    pf.parallelForWorker(0, n, 1, s.onWorkers(limit), (i, worker) -> {
                        assertTrue(worker >= 0 && worker < Math.min(lim, 3), "worker " + worker + " within " + lim);
                        perWorker.incrementAndGet(worker);
                        String t = Thread.currentThread().getName();
                        assertEquals(t, threadOf.computeIfAbsent(worker, k -> t), "one thread per worker index");
                        if (worker == 0) {
                            assertSame(caller, Thread.currentThread(), "worker 0 is the calling thread");
                        } else {
                            assertEquals("wk/worker-" + worker, t);
                        }
                    });
                    long total = 0;
                    for (int k = 0; k < 3; k++) {
                        total += perWorker.get(k);
                    }
                    assertEquals(n, total, s + " on " + limit);
                }
            }
        }
    }

    @Test
    void chunksCoverTheRangeAndKeepTheGrain() {
        Random r = Oracle.random("chunksCoverTheRangeAndKeepTheGrain");
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "chunks")) {
            for (Schedule s : schedules(r, 3)) {
                long step = r.nextBoolean() ? 3 : -2;
                long first = r.nextInt(100);
                long last = first + step * r.nextInt(2000);
                List<Long> expected = Oracle.indices(first, last, step, 100_000);
                Map<Long, Integer> seen = new ConcurrentHashMap<>();
                pf.parallelForChunks(first, last, step, s, (start, end, worker) -> {
                    long count = 0;
                    for (long i = start; step > 0 ? i < end : i > end; i += step) {
                        seen.merge(i, 1, Integer::sum);
                        count++;
                    }
                    if (s.kind() != Schedule.Kind.STATIC_BLOCKS) {
                        assertTrue(count >= 1 && count <= s.grain(), s + ": chunk of " + count);
                    }
                });
                checkVisits(s + " chunks " + first + ".." + last + " by " + step, expected, seen);
            }
        }
    }

    /** An empty range has no chunk: static blocks called the chunk body once, with start == end. */
    @Test
    void anEmptyRangeCallsNoChunkBody() {
        Random r = Oracle.random("anEmptyRangeCallsNoChunkBody");
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "empty chunks")) {
            for (Schedule s : schedules(r, 2)) {
                for (long[] g : new long[][] {{5, 5, 1}, {5, 3, 2}, {-5, -3, -1}, {Long.MAX_VALUE, Long.MAX_VALUE, 1}}) {
                    AtomicLong calls = new AtomicLong();
                    pf.parallelForChunks(g[0], g[1], g[2], s, (start, end, worker) -> calls.incrementAndGet());
                    assertEquals(0, calls.get(), s + ": chunks of " + g[0] + ".." + g[1] + " by " + g[2]);
                }
            }
        }
    }

    /**
     * Chunks of a grain so large that the participants' last look past the final chunk moves a
     * counter of iterations round the long range and back onto valid numbers: those chunks ran twice.
     */
    @Test
    void dynamicChunksOfAHugeGrainRunOnce() {
        long third = Long.MAX_VALUE / 3; // 4 chunks; 8 looks past the counter's start wrap round
        long overThird = Long.divideUnsigned(-1L, 3) + 1; // ceil(2^64 / 3): 2 chunks; wraps with 2 workers
        for (long grain : new long[] {third, overThird, Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE}) {
            long chunks = Long.MAX_VALUE / grain + (Long.MAX_VALUE % grain == 0 ? 0 : 1);
            for (int parallelism : new int[] {2, 4}) {
                try (ParallelFor pf = ParallelFor.create(parallelism); Watchdog w = Watchdog.start(DEADLINE, "huge grain")) {
                    List<Long> starts = java.util.Collections.synchronizedList(new ArrayList<>());
                    pf.parallelForChunks(0, Long.MAX_VALUE, 1, Schedule.dynamic(grain), (start, end, worker) -> {
                        assertEquals(Long.MAX_VALUE - start <= grain ? Long.MAX_VALUE : start + grain, end, "chunk from " + start);
                        starts.add(start);
                    });
                    starts.sort(null);
                    List<Long> expected = new ArrayList<>();
                    for (long c = 0; c < chunks; c++) {
                        expected.add(c * grain);
                    }
                    assertEquals(expected, starts, "grain " + grain + " on " + parallelism + " workers");
                }
            }
        }
    }

    @Test
    void aFailureNamesItsIndexStopsTheLoopAndLeavesThePoolUsable() {
        Random r = Oracle.random("aFailureNamesItsIndex");
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "failures")) {
            for (Schedule s : schedules(r, 3)) {
                long n = 1 + r.nextInt(20_000);
                long bad = r.nextInt((int) n);
                IllegalStateException boom = new IllegalStateException("boom");
                ParallelForException e = assertThrows(ParallelForException.class, () -> pf.parallelFor(0, n, 1, s, i -> {
                    if (i == bad) {
                        throw boom;
                    }
                }), s.toString());
                assertSame(boom, e.getCause());
                assertEquals(bad, e.index(), s + ": failing index");
                assertTrue(e.chunkFirst() <= bad && bad <= e.chunkLast(), s + ": chunk " + e.chunkFirst() + ".." + e.chunkLast());
                assertTrue(e.getMessage().contains("index " + bad), e.getMessage());
                // the pool still works
                assertEquals(n * (n - 1) / 2, pf.parallelReduceLong(0, n, 1, s, 0L, (acc, i) -> acc + i, Long::sum));
            }
            // a reduction's failure too, with a negative step
            ParallelForException e = assertThrows(ParallelForException.class, () -> pf.parallelReduceLong(100, -100, -7,
                    Schedule.dynamic(3), 0L, (acc, i) -> {
                        if (i == 2) {
                            throw new ArithmeticException("two");
                        }
                        return acc + i;
                    }, Long::sum));
            assertEquals(2, e.index());
            assertTrue(e.getCause() instanceof ArithmeticException);
        }
    }

    /**
     * After a failure no worker starts another chunk; one already inside a static block stops within
     * CHECK_EVERY iterations. The pool's thread fails; the caller (which cannot take over a share
     * before its own is done) runs on only once the loop has stopped, and must then stop.
     */
    @Test
    void aFailureStopsTheOtherWorkers() {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "stop")) {
            for (Schedule s : new Schedule[] {Schedule.staticBlocks(), Schedule.dynamic(1), Schedule.staticChunks(5)}) {
                long n = 10_000_000;
                AtomicLong ran = new AtomicLong();
                ParallelForException e = assertThrows(ParallelForException.class, () -> pf.parallelForWorker(0, n, 1, s,
                        (i, worker) -> {
                            if (worker == 1) {
                                throw new IllegalStateException("worker 1 fails at once");
                            }
                            while (!((LoopJob) pf.current).stop) {
                                Thread.onSpinWait();
                            }
                            ran.incrementAndGet();
                        }));
                assertEquals(1, e.worker());
                assertTrue(ran.get() <= LoopJob.CHECK_EVERY, s + ": the caller ran " + ran.get() + " iterations after the failure");
            }
        }
    }

    @Test
    void interruptingTheCallerCancelsTheLoop() throws Exception {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "cancel")) {
            Thread caller = Thread.currentThread();
            for (boolean fromAnotherThread : new boolean[] {false, true}) {
                AtomicLong ran = new AtomicLong();
                Thread interrupter = new Thread(caller::interrupt);
                assertThrows(CancellationException.class, () -> pf.parallelFor(0, 100_000_000L, 1, Schedule.dynamic(10), i -> {
                    ran.incrementAndGet();
                    if (Thread.currentThread() == caller) {
                        if (!fromAnotherThread) {
                            caller.interrupt();
                        } else if (interrupter.getState() == Thread.State.NEW) {
                            interrupter.start();
                            while (!caller.isInterrupted()) {
                                Thread.onSpinWait();
                            }
                        }
                    } else {
                        // the pool's worker goes on only once the loop has stopped
                        while (!((LoopJob) pf.current).stop) {
                            Thread.onSpinWait();
                        }
                    }
                }));
                assertTrue(Thread.interrupted(), "the interrupt status stays set");
                assertTrue(ran.get() < 100_000_000L, "the loop stopped early");
                interrupter.join();
                assertEquals(499_500L, pf.parallelReduceLong(0, 1000, 0L, (acc, i) -> acc + i, Long::sum), "the pool still works");
            }
        }
    }

    /**
     * Interrupting the caller while its share runs a nested call of the same pool (a loop, or a
     * divide and conquer, which runs sequentially on the caller and stops at the interrupt) cancels
     * the outer call too: it throws a CancellationException, as an interrupt without nesting does.
     * It used to throw a ParallelForException (or, for an outer solve, a DivideAndConquerException)
     * whose cause was the nested call's CancellationException, a failure at some index.
     */
    @Test
    @Timeout(60)
    void interruptingTheCallerDuringANestedCallCancelsTheOuterCall() {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "nested cancel")) {
            Thread caller = Thread.currentThread();
            DivideAndConquer<Integer, Long> fib = DivideAndConquer.<Integer, Long>of(n -> List.of(n - 1, n - 2),
                    rs -> rs.get(0) + rs.get(1), n -> (long) n, n -> n < 2);
            for (String nested : new String[] {"loop", "reduction", "solve"}) {
                AtomicLong ran = new AtomicLong();
                RuntimeException e = assertThrows(RuntimeException.class, () -> pf.parallelFor(0, 1_000_000L, 1,
                        Schedule.dynamic(1), i -> {
                            ran.incrementAndGet();
                            if (Thread.currentThread() == caller) {
                                caller.interrupt();
                                switch (nested) { // each runs past a check for the interrupt
                                    case "loop" -> pf.parallelFor(0, 3 * LoopJob.CHECK_EVERY, j -> { });
                                    case "reduction" -> pf.parallelReduceLong(0, 3 * LoopJob.CHECK_EVERY, 0L,
                                            (acc, j) -> acc + j, Long::sum);
                                    default -> fib.solve(pf, 15);
                                }
                            } else {
                                while (!((LoopJob) pf.current).stop) { // the pool's worker waits for the stop
                                    Thread.onSpinWait();
                                }
                            }
                        }));
                assertTrue(e instanceof CancellationException, () -> nested + ": expected a CancellationException, got " + e);
                assertTrue(Thread.interrupted(), "the interrupt status stays set");
                assertTrue(ran.get() < 1_000_000L, "the loop stopped early");
                assertEquals(499_500L, pf.parallelReduceLong(0, 1000, 0L, (acc, i) -> acc + i, Long::sum), "the pool still works");
            }
            // an outer solve whose base case runs a nested loop on the interrupted caller
            DivideAndConquer<Integer, Long> looping = DivideAndConquer.<Integer, Long>of(n -> List.of(n - 1, n - 2),
                    rs -> rs.get(0) + rs.get(1), n -> {
                        if (Thread.currentThread() == caller) {
                            caller.interrupt();
                            pf.parallelFor(0, 3 * LoopJob.CHECK_EVERY, j -> { });
                        }
                        return (long) n;
                    }, n -> n < 2);
            RuntimeException e = assertThrows(RuntimeException.class, () -> looping.solve(pf, 20));
            assertTrue(e instanceof CancellationException, () -> "solve: expected a CancellationException, got " + e);
            assertTrue(Thread.interrupted(), "the interrupt status stays set");
            assertEquals(6765L, fib.solve(pf, 20), "the pool still works");
            // a body's own CancellationException, with no interrupt, is still a failure of the body
            CancellationException own = new CancellationException("the body's own");
            ParallelForException f = assertThrows(ParallelForException.class, () -> pf.parallelFor(0, 100, i -> {
                if (i == 7) {
                    throw own;
                }
            }));
            assertSame(own, f.getCause());
            assertEquals(7, f.index());
        }
    }

    @Test
    void aNestedCallRunsSequentiallyOnTheCallingWorker() {
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "nested")) {
            int n = 60;
            long[] sums = new long[n];
            pf.parallelForWorker(0, n, 1, Schedule.dynamic(1), (i, worker) -> {
                Thread outer = Thread.currentThread();
                // nested loop and reduction: same thread, same worker index, correct result
                pf.parallelForWorker(0, 100, 1, Schedule.dynamic(1), (j, inner) -> {
                    assertSame(outer, Thread.currentThread(), "nested iterations run on the calling worker");
                    assertEquals(worker, inner, "with its worker index");
                });
                sums[(int) i] = pf.parallelReduceLong(0, 100, 0L, (acc, j) -> acc + j * i, Long::sum);
                assertThrows(IllegalStateException.class, pf::close, "close from inside a body is refused");
            });
            for (int i = 0; i < n; i++) {
                assertEquals(4950L * i, sums[i]);
            }
        }
    }

    @Test
    void callsFromTwoThreadsTakeTurns() throws Exception {
        long seed = Oracle.seed("callsFromTwoThreadsTakeTurns");
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "two callers")) {
            List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread[] callers = new Thread[2];
            for (int c = 0; c < 2; c++) {
                Random r = new Random(seed + c);
                callers[c] = new Thread(() -> {
                    try {
                        for (int k = 0; k < 300; k++) {
                            int n = r.nextInt(3000);
                            Schedule s = r.nextBoolean() ? Schedule.dynamic(1 + r.nextInt(50)) : Schedule.staticBlocks();
                            long[] a = new long[n];
                            pf.parallelFor(0, n, 1, s, i -> a[(int) i] += i + 1);
                            long expect = (long) n * (n + 1) / 2;
                            long got = 0;
                            for (long x : a) {
                                got += x;
                            }
                            assertEquals(expect, got, "every iteration once, " + s);
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }, "caller-" + c);
                callers[c].start();
            }
            for (Thread t : callers) {
                t.join();
            }
            assertTrue(errors.isEmpty(), () -> "seed " + seed + ": " + errors);
        }
    }

    @Test
    void aCallerInterruptedWhileWaitingForItsTurnIsCancelled() throws Exception {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "turn")) {
            java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            Thread first = new Thread(() -> pf.parallelFor(0, 1, i -> {
                running.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
            first.start();
            running.await();
            List<Throwable> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread second = new Thread(() -> {
                try {
                    pf.parallelFor(0, 10, i -> { });
                } catch (Throwable t) {
                    seen.add(t);
                }
            });
            second.start();
            while (second.getState() != Thread.State.WAITING) { // parked on the pool's turn
                Thread.onSpinWait();
            }
            second.interrupt();
            second.join();
            release.countDown();
            first.join();
            assertEquals(1, seen.size());
            assertTrue(seen.get(0) instanceof CancellationException, seen.toString());
        }
    }

    @Test
    void everyWaitStrategyWakesTheWorkersForEachCall() {
        for (WaitStrategy ws : new WaitStrategy[] {WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin(),
                WaitStrategy.backoff(0, 0, Duration.ofNanos(1000), Duration.ofMillis(50))}) {
            // busy-spinning threads need a core each: no more workers than cores
            int p = ws == WaitStrategy.busySpin() ? Math.min(3, Runtime.getRuntime().availableProcessors()) : 3;
            try (ParallelFor pf = ParallelFor.create(p, ws); Watchdog w = Watchdog.start(DEADLINE, "wake-ups " + ws)) {
                for (int k = 0; k < 400; k++) {
                    long n = k % 50;
                    assertEquals(n * (n - 1) / 2, pf.parallelReduceLong(0, n, 1, Schedule.staticChunks(1), 0L,
                            (acc, i) -> acc + i, Long::sum), ws + " call " + k);
                    if (k % 100 == 99) {
                        // let the workers go past spinning into parking, so the next call must unpark them
                        java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
                    }
                }
            }
        }
    }

    @Test
    void closeEndsEveryThreadAndLaterCallsAreRefused() {
        ParallelFor pf = ParallelFor.create("closing", 4, WaitStrategy.backoff());
        pf.parallelFor(0, 1000, i -> { });
        assertEquals(3, liveThreads("closing/").size());
        pf.close();
        assertTrue(liveThreads("closing/").isEmpty(), "no thread after close: " + liveThreads("closing/"));
        assertTrue(pf.isClosed());
        pf.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> pf.parallelFor(0, 10, i -> { }));
        // a pool of parallelism 1 starts no thread and runs on the caller
        try (ParallelFor one = ParallelFor.create("single", 1, WaitStrategy.backoff())) {
            Thread me = Thread.currentThread();
            one.parallelFor(0, 100, 1, Schedule.dynamic(3), i -> assertSame(me, Thread.currentThread()));
            assertTrue(liveThreads("single/").isEmpty());
        }
        assertFalse(pf.toString().isEmpty());
    }

    static List<String> liveThreads(String prefix) {
        List<String> alive = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith(prefix)) {
                alive.add(t.getName());
            }
        }
        return alive;
    }

    @Test
    void sharedWorkIsVisibleToTheCallerAfterTheCall() {
        // plain (non-volatile) writes by the workers are seen by the caller once the call returns
        try (ParallelFor pf = ParallelFor.create(2, WaitStrategy.backoff()); Watchdog w = Watchdog.start(DEADLINE, "visibility")) {
            int n = 4096;
            int[] a = new int[n];
            for (int round = 1; round <= 500; round++) {
                int v = round;
                pf.parallelForInt(0, n, 1, Schedule.staticChunks(64), i -> a[i] = v);
                for (int i = 0; i < n; i++) {
                    if (a[i] != round) {
                        throw new AssertionError("round " + round + ": a[" + i + "] = " + a[i]);
                    }
                }
            }
        }
    }
}
