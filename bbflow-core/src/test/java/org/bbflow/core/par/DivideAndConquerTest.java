package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;

/** DivideAndConquer against its own sequential recursion and plain loops. */
class DivideAndConquerTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    static DivideAndConquer<Integer, Long> fib() {
        return DivideAndConquer.of(n -> List.of(n - 1, n - 2), rs -> rs.get(0) + rs.get(1), n -> (long) n, n -> n < 2);
    }

    static long fibLoop(int n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    /** A sorted range of an array: mergesort's problem and result. */
    record Range(int[] a, int[] tmp, int lo, int hi) {
    }

    static DivideAndConquer<Range, Range> mergesort(int cutoff) {
        return DivideAndConquer.<Range, Range>of(
                r -> {
                    int mid = (r.lo + r.hi) >>> 1;
                    return List.of(new Range(r.a, r.tmp, r.lo, mid), new Range(r.a, r.tmp, mid, r.hi));
                },
                rs -> {
                    Range x = rs.get(0);
                    Range y = rs.get(1);
                    merge(x.a, x.tmp, x.lo, x.hi, y.hi);
                    return new Range(x.a, x.tmp, x.lo, y.hi);
                },
                r -> {
                    Arrays.sort(r.a, r.lo, r.hi);
                    return r;
                },
                r -> r.hi - r.lo <= 1)
                .cutoff(r -> r.hi - r.lo <= cutoff);
    }

    static void merge(int[] a, int[] tmp, int lo, int mid, int hi) {
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            a[k] = i < mid && (j >= hi || tmp[i] <= tmp[j]) ? tmp[i++] : tmp[j++];
        }
    }

    @Test
    void fibonacciMatchesTheLoopWithAndWithoutCutoff() {
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "fib")) {
            for (int n = 0; n <= 22; n++) {
                assertEquals(fibLoop(n), fib().solve(pf, n), "fib(" + n + ") no cutoff");
                assertEquals(fibLoop(n), fib().cutoff(k -> k < 10).solve(pf, n), "fib(" + n + ") cutoff 10");
                assertEquals(fibLoop(n), fib().solveSequentially(n));
            }
        }
    }

    @Test
    void mergesortSortsRandomArrays() {
        Random r = Oracle.random("mergesortSortsRandomArrays");
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "mergesort")) {
            for (int rep = 0; rep < 30; rep++) {
                int n = rep == 0 ? 0 : rep == 1 ? 1 : r.nextInt(50_000);
                int[] a = r.ints(n, -1000, 1000).toArray();
                int[] expected = a.clone();
                Arrays.sort(expected);
                mergesort(1 + r.nextInt(2000)).solve(pf, new Range(a, new int[n], 0, n));
                assertArrayEquals(expected, a, "n=" + n);
            }
        }
    }

    @Test
    void anUnevenTreeWithManyBranchesMatchesTheSequentialRecursion() {
        Random r = Oracle.random("unevenTree");
        // a problem (depth, seed) divides into 0..4 children (no child: a base case by the condition)
        DivideAndConquer<long[], Long> dc = DivideAndConquer.of(
                p -> {
                    int k = (int) Math.floorMod(p[1], 4) + 1;
                    List<long[]> subs = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        subs.add(new long[] {p[0] - 1, p[1] * 6364136223846793005L + 1442695040888963407L + i});
                    }
                    return subs;
                },
                rs -> {
                    long h = 17;
                    for (long x : rs) {
                        h = h * 31 + x; // order-sensitive: results must come in divide's order
                    }
                    return h;
                },
                p -> p[1] ^ p[0],
                p -> p[0] <= 0 || Math.floorMod(p[1], 7) == 0);
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "uneven")) {
            for (int rep = 0; rep < 20; rep++) {
                long[] root = {8, r.nextLong()};
                assertEquals(dc.solveSequentially(root), dc.solve(pf, root), "root seed " + root[1]);
            }
        }
    }

    @Test
    void theWorkIsSharedAmongTheWorkers() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        DivideAndConquer<Integer, Long> dc = DivideAndConquer.<Integer, Long>of(n -> List.of(n - 1, n - 2),
                rs -> rs.get(0) + rs.get(1), n -> {
                    threads.add(Thread.currentThread().getName());
                    long spin = 0;
                    for (int i = 0; i < 20_000; i++) {
                        spin += i ^ n;
                    }
                    return spin == 42 ? 0L : (long) n;
                }, n -> n < 2);
        try (ParallelFor pf = ParallelFor.create("dc", 2, org.bbflow.core.WaitStrategy.backoff());
                Watchdog w = Watchdog.start(DEADLINE, "sharing")) {
            for (int rep = 0; rep < 50 && threads.size() < 2; rep++) {
                assertEquals(fibLoop(18), dc.solve(pf, 18));
            }
            assertEquals(2, threads.size(), "both workers solved base cases: " + threads);
        }
    }

    @Test
    void aFailureNamesItsProblemAndLeavesThePoolUsable() {
        try (ParallelFor pf = ParallelFor.create(3); Watchdog w = Watchdog.start(DEADLINE, "dc failure")) {
            IllegalStateException boom = new IllegalStateException("boom");
            DivideAndConquer<Integer, Long> failingBase = DivideAndConquer.of(n -> List.of(n - 1, n - 2),
                    rs -> rs.get(0) + rs.get(1), n -> {
                        throw boom;
                    }, n -> n < 2);
            DivideAndConquerException e = assertThrows(DivideAndConquerException.class, () -> failingBase.solve(pf, 15));
            assertSame(boom, e.getCause());
            DivideAndConquer<Integer, Long> failingCombine = DivideAndConquer.<Integer, Long>of(n -> List.of(n - 1, n - 2),
                    rs -> {
                        if (rs.get(0) == 13) { // fib(7): the combine of problem 8
                            throw new ArithmeticException("thirteen");
                        }
                        return rs.get(0) + rs.get(1);
                    }, n -> (long) n, n -> n < 2);
            e = assertThrows(DivideAndConquerException.class, () -> failingCombine.solve(pf, 12));
            assertEquals(8, e.problem());
            assertTrue(e.getCause() instanceof ArithmeticException);
            DivideAndConquer<Integer, Long> noSubproblems = DivideAndConquer.of(n -> List.of(), rs -> 0L, n -> 0L, n -> n < 0);
            e = assertThrows(DivideAndConquerException.class, () -> noSubproblems.solve(pf, 3));
            assertTrue(e.getCause().getMessage().contains("no subproblem"), e.getMessage());
            // the condition and the cutoff failing on the root problem itself (they threw as they were)
            DivideAndConquer<Integer, Long> failingCondition = DivideAndConquer.of(n -> List.of(n - 1, n - 2),
                    rs -> rs.get(0) + rs.get(1), n -> (long) n, n -> {
                        throw boom;
                    });
            e = assertThrows(DivideAndConquerException.class, () -> failingCondition.solve(pf, 15));
            assertSame(boom, e.getCause());
            assertEquals(15, e.problem());
            DivideAndConquer<Integer, Long> failingCutoff = fib().cutoff(n -> {
                throw boom;
            });
            e = assertThrows(DivideAndConquerException.class, () -> failingCutoff.solve(pf, 16));
            assertSame(boom, e.getCause());
            assertEquals(16, e.problem());
            assertEquals(fibLoop(20), fib().solve(pf, 20), "the pool still works");
        }
    }

    @Test
    void interruptingTheCallerCancels() {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "dc cancel")) {
            Thread caller = Thread.currentThread();
            DivideAndConquer<Integer, Long> dc = DivideAndConquer.<Integer, Long>of(n -> List.of(n - 1, n - 2),
                    rs -> rs.get(0) + rs.get(1), n -> {
                        if (Thread.currentThread() == caller) {
                            caller.interrupt();
                        }
                        return (long) n;
                    }, n -> n < 2);
            assertThrows(CancellationException.class, () -> dc.solve(pf, 25));
            assertTrue(Thread.interrupted());
            assertEquals(fibLoop(20), fib().solve(pf, 20), "the pool still works");
        }
    }

    @Test
    void nestedInALoopBodyItRunsSequentially() {
        try (ParallelFor pf = ParallelFor.create(2); Watchdog w = Watchdog.start(DEADLINE, "dc nested")) {
            long[] out = new long[20];
            pf.parallelFor(0, 20, 1, Schedule.dynamic(1), i -> out[(int) i] = fib().solve(pf, (int) i));
            for (int i = 0; i < 20; i++) {
                assertEquals(fibLoop(i), out[i]);
            }
        }
    }

    @Test
    void asANodeItSolvesEveryItemOfAStream() {
        List<Long> results = new ArrayList<>();
        Pipeline.of(Nodes.fromIterable(List.of(10, 20, 5, 1)), fib().cutoff(n -> n < 8).asNode(2),
                Nodes.sink((Long x) -> results.add(x))).run();
        assertEquals(List.of(fibLoop(10), fibLoop(20), fibLoop(5), fibLoop(1)), results);
    }
}
