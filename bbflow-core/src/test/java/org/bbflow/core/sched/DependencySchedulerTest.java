package org.bbflow.core.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

class DependencySchedulerTest {

    /** A task payload with a locality key. */
    record Seg(int id, String file, long offset) {
    }

    @RepeatedTest(20)
    @Timeout(60)
    void randomDagsRunEachTaskOnceAfterItsDependencies() {
        long seed = TestSeed.current();
        Random rnd = new Random(seed);
        int n = 1 + rnd.nextInt(150);
        int workers = 1 + rnd.nextInt(4);
        int maxInFlight = 1 + rnd.nextInt(6);
        List<List<Integer>> deps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Integer> d = new ArrayList<>();
            int k = i == 0 ? 0 : rnd.nextInt(Math.min(i, 4) + 1);
            for (int j = 0; j < k; j++) {
                int dep = rnd.nextInt(i);
                if (!d.contains(dep)) {
                    d.add(dep);
                }
            }
            deps.add(d);
        }
        List<Integer> insertion = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            insertion.add(i);
        }
        Collections.shuffle(insertion, rnd);
        TaskGraph<Integer, Seg> g = TaskGraph.create();
        for (int i : insertion) {
            g.add(i, new Seg(i, "f" + rnd.nextInt(3), rnd.nextInt(1000)), deps.get(i));
        }
        long[] durations = new long[n];
        for (int i = 0; i < n; i++) {
            durations[i] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(200_000);
        }

        AtomicLong clock = new AtomicLong();
        AtomicLongArray start = new AtomicLongArray(n);
        AtomicLongArray end = new AtomicLongArray(n);
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        DependencyScheduler<Integer, Seg, Integer> s = DependencyScheduler.<Integer, Seg, Integer>of(g, workers,
                () -> seg -> {
                    int now = running.incrementAndGet();
                    maxRunning.accumulateAndGet(now, Math::max);
                    start.set(seg.id(), clock.incrementAndGet());
                    runs.incrementAndGet(seg.id());
                    if (durations[seg.id()] > 0) {
                        LockSupport.parkNanos(durations[seg.id()]);
                    }
                    end.set(seg.id(), clock.incrementAndGet());
                    running.decrementAndGet();
                    return seg.id();
                })
            .maxInFlight(maxInFlight)
            .locality(Comparator.comparing(Seg::file).thenComparingLong(Seg::offset));
        ConcurrentLinkedQueue<Integer> results = new ConcurrentLinkedQueue<>();
        Pipeline.of(s.block(), Nodes.sink(results::add)).run();

        String what = "seed " + seed + " n " + n + " workers " + workers + " maxInFlight " + maxInFlight;
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), what + ": runs of task " + i);
            for (int d : deps.get(i)) {
                assertTrue(end.get(d) < start.get(i), what + ": task " + i + " started before dependency " + d + " ended");
            }
        }
        assertEquals(n, results.size(), what);
        assertEquals(n, new HashSet<>(results).size(), what);
        assertEquals(n, s.completed(), what);
        assertTrue(s.peakInFlight() <= maxInFlight, what);
        assertTrue(maxRunning.get() <= Math.min(workers, maxInFlight), what + ": ran at once " + maxRunning.get());
    }

    @Test
    void cyclesAreRejectedBeforeAnythingRuns() {
        TaskGraph<String, String> g = TaskGraph.create();
        g.add("a", "A", "c").add("b", "B", "a").add("c", "C", "b").add("d", "D");
        AtomicInteger ran = new AtomicInteger();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> DependencyScheduler.of(g, 2, () -> t -> ran.incrementAndGet()));
        String m = e.getMessage();
        assertTrue(m.startsWith("dependency cycle: "), m);
        assertTrue(m.contains("a -> b") && m.contains("b -> c") && m.contains("c -> a"), m);
        assertEquals(0, ran.get());
        assertThrows(IllegalArgumentException.class, g::validate);
    }

    @Test
    void selfDependencyUnknownDependencyAndDuplicateIdsAreRejected() {
        TaskGraph<String, String> g = TaskGraph.create();
        IllegalArgumentException self = assertThrows(IllegalArgumentException.class, () -> g.add("a", "A", "a"));
        assertTrue(self.getMessage().contains("cycle"), self.getMessage());
        g.add("x", "X", "nope");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, g::validate);
        assertTrue(unknown.getMessage().contains("unknown task nope"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> g.add("x", "X2"));
    }

    @Test
    @Timeout(30)
    void readyTasksAreDispatchedInLocalityOrder() {
        // Added in reverse; no dependencies except that ("a", 0) needs ("z", 9) first.
        TaskGraph<Integer, Seg> g = TaskGraph.create();
        String[] files = {"a", "b", "z"};
        int id = 0;
        for (int f = files.length - 1; f >= 0; f--) {
            for (int off = 9; off >= 0; off--) {
                Seg s = new Seg(id, files[f], off);
                if (files[f].equals("a") && off == 0) {
                    g.add(id, s, 0); // task 0 is ("z", 9)
                } else {
                    g.add(id, s);
                }
                id++;
            }
        }
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        DependencyScheduler.<Integer, Seg, Void>of(g, 1, () -> s -> {
            order.add(s.file() + s.offset());
            return null;
        }).maxInFlight(1).locality(Comparator.comparing(Seg::file).thenComparingLong(Seg::offset)).run();
        List<String> expected = new ArrayList<>();
        for (int off = 1; off <= 9; off++) {
            expected.add("a" + off);
        }
        for (int off = 0; off <= 9; off++) {
            expected.add("b" + off);
        }
        for (int off = 0; off <= 9; off++) {
            expected.add("z" + off);
            if (off == 9) {
                expected.add("a0"); // ready only once z9 completed
            }
        }
        assertEquals(expected, order);
    }

    @Test
    @Timeout(30)
    void inFlightIsBounded() {
        TaskGraph<Integer, Integer> g = TaskGraph.create();
        for (int i = 0; i < 200; i++) {
            g.add(i, i);
        }
        AtomicInteger running = new AtomicInteger();
        AtomicInteger max = new AtomicInteger();
        DependencyScheduler<Integer, Integer, Void> s = DependencyScheduler.<Integer, Integer, Void>of(g, 4, () -> t -> {
            max.accumulateAndGet(running.incrementAndGet(), Math::max);
            LockSupport.parkNanos(20_000);
            running.decrementAndGet();
            return null;
        }).maxInFlight(2);
        s.run();
        assertTrue(max.get() <= 2, "ran at once: " + max.get());
        assertTrue(s.peakInFlight() <= 2);
        assertEquals(200, s.completed());
    }

    @Test
    @Timeout(30)
    void emptyGraphTerminates() {
        DependencyScheduler<Integer, Integer, Void> s = DependencyScheduler.of(TaskGraph.<Integer, Integer>create(), 3,
            () -> t -> null);
        s.run();
        assertEquals(0, s.completed());
    }

    @Test
    @Timeout(30)
    void aFailingTaskFailsTheFlow() {
        TaskGraph<Integer, Integer> g = TaskGraph.create();
        for (int i = 0; i < 50; i++) {
            g.add(i, i, i == 0 ? List.of() : List.of(i - 1));
        }
        Set<Integer> ran = Collections.synchronizedSet(new HashSet<>());
        FlowException e = assertThrows(FlowException.class, () -> DependencyScheduler.<Integer, Integer, Void>of(g, 2,
            () -> t -> {
                ran.add(t);
                if (t == 10) {
                    throw new IllegalStateException("task 10 failed");
                }
                return null;
            }).run());
        assertEquals("task 10 failed", e.getCause().getMessage());
        assertTrue(ran.stream().allMatch(t -> t <= 10), "no dependent of a failed task runs: " + ran);
    }
}
