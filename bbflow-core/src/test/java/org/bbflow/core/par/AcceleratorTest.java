package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The accelerator: bursts offloaded from the test's thread, results in order or first-come, threads kept. */
class AcceleratorTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** Where a slow item's busy work goes, so that it is not optimised away. */
    static volatile long spun;

    /** A worker that records its thread and squares the item. */
    static Node<Long, Long> squaring(Set<Long> threadIds) {
        return Nodes.map((Long x) -> {
            threadIds.add(Thread.currentThread().getId());
            return x * x;
        });
    }

    @Test
    void orderedBurstsKeepTheirThreadsAndOrder() {
        Random r = Oracle.random("orderedBursts");
        Set<Long> firstBurst = ConcurrentHashMap.newKeySet();
        Set<Long> threadIds = ConcurrentHashMap.newKeySet();
        boolean[] first = {true};
        try (Watchdog w = Watchdog.start(DEADLINE, "ordered bursts");
                Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(3, () -> squaring(threadIds))
                        .ordered().onDemand().named("acc-ordered").start()) {
            for (int burst = 0; burst < 6; burst++) {
                int n = burst == 2 ? 0 : 1 + r.nextInt(3000);
                long expected = 0;
                for (long i = 0; i < n; i++) {
                    acc.offload(i);
                    Long res = acc.pollResult(); // opportunistic, as FastFlow's load_result_nb
                    if (res != null) {
                        assertEquals(expected * expected, res.longValue(), "burst " + burst);
                        expected++;
                    }
                }
                acc.endBurst();
                for (Long res; (res = acc.takeResult()) != null; ) {
                    assertEquals(expected * expected, res.longValue(), "burst " + burst + " in order");
                    expected++;
                }
                assertEquals(n, expected, "burst " + burst + ": every result");
                acc.waitFreezing();
                assertTrue(acc.isFrozen());
                if (first[0] && n > 100) {
                    first[0] = false;
                    firstBurst.addAll(threadIds);
                }
            }
            assertEquals(firstBurst, threadIds, "the same worker threads in every burst");
            allParkedEventually("acc-ordered/");
        }
        assertTrue(ParallelForTest.liveThreads("acc-ordered/").isEmpty(), "no thread after close");
    }

    @Test
    void firstComeResultsWithSeveralPerItem() {
        Random r = Oracle.random("firstCome");
        Set<Long> threadIds = ConcurrentHashMap.newKeySet();
        Set<Long> firstBurst = new java.util.HashSet<>();
        // item x gives x % 3 results: x, -x, ...
        try (Watchdog w = Watchdog.start(DEADLINE, "first-come");
                Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(2, () -> new Node<Long, Long>() {
                    @Override
                    public void onItem(Long x, Outbox<Long> out) {
                        threadIds.add(Thread.currentThread().getId());
                        for (int k = 0; k < x % 3; k++) {
                            out.send(k == 0 ? x : -x);
                        }
                    }
                }).waitStrategy(WaitStrategy.backoff()).named("acc-fc").start()) {
            for (int burst = 0; burst < 5; burst++) {
                int n = 1 + r.nextInt(2000);
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < n; i++) {
                    acc.offload(i);
                    for (int k = 0; k < i % 3; k++) {
                        expected.add(k == 0 ? i : -i);
                    }
                }
                // freeze first: the results wait in the (unbounded) result channel
                acc.waitFreezing();
                List<Long> got = new ArrayList<>();
                for (Long res; (res = acc.takeResult()) != null; ) {
                    got.add(res);
                }
                Collections.sort(expected);
                Collections.sort(got);
                assertEquals(expected, got, "burst " + burst);
                if (burst == 0) {
                    firstBurst.addAll(threadIds);
                }
            }
            assertEquals(firstBurst, threadIds, "the same worker threads in every burst");
        }
        assertTrue(ParallelForTest.liveThreads("acc-fc/").isEmpty());
    }

    /**
     * First-come results of bursts offloaded back to back, with no wait in between: a fast worker
     * goes on to the next burst while a slow one is still on this one. The results between two nulls
     * of takeResult must be exactly that burst's. Before, the fast worker's later results came out
     * before the earlier burst's end (whose marker count it had completed with its own second marker).
     */
    @Test
    void firstComeBurstsOffloadedBackToBackKeepTheirResults() throws Exception {
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        try (Watchdog w = Watchdog.start(DEADLINE, "back-to-back bursts");
                Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(2, () -> Nodes.map((Long x) -> {
                    if (x == 0) { // the first worker's only item of burst 1 waits; the other worker goes on
                        try {
                            gate.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    return x;
                })).named("acc-b2b").start()) {
            acc.offload(0L); // round-robin: worker 0
            acc.endBurst();
            acc.offload(1L); // worker 1, which has its marker of burst 1 before it
            acc.endBurst();
            Thread opener = new Thread(() -> {
                try {
                    Thread.sleep(200); // (a correct collector passes whenever the gate opens)
                } catch (InterruptedException e) {
                    return;
                }
                gate.countDown();
            });
            opener.start();
            assertEquals(List.of(0L), burst(acc), "burst 1");
            assertEquals(List.of(1L), burst(acc), "burst 2");
            opener.join();
        }
        Random r = Oracle.random("firstComeBurstsBackToBack");
        try (Watchdog w = Watchdog.start(DEADLINE, "back-to-back random bursts");
                Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(3, () -> new Node<Long, Long>() {
                    @Override
                    public void onItem(Long x, Outbox<Long> out) {
                        long spin = x % 97 == 0 ? 200_000 : 0; // an uneven load: some items are slow
                        long h = x;
                        for (long k = 0; k < spin; k++) {
                            h = h * 31 + k;
                        }
                        spun = h;
                        for (int k = 0; k < x % 3; k++) {
                            out.send(k == 0 ? x : -x);
                        }
                    }
                }).waitStrategy(WaitStrategy.backoff()).capacity(8).named("acc-b2b-random").start()) {
            List<List<Long>> expected = new ArrayList<>();
            long next = 0;
            for (int b = 0; b < 12; b++) {
                int n = r.nextInt(4) == 0 ? 0 : r.nextInt(400);
                List<Long> e = new ArrayList<>();
                for (int i = 0; i < n; i++, next++) {
                    acc.offload(next);
                    for (int k = 0; k < next % 3; k++) {
                        e.add(k == 0 ? next : -next);
                    }
                }
                acc.endBurst();
                Collections.sort(e);
                expected.add(e);
            }
            for (int b = 0; b < expected.size(); b++) {
                List<Long> got = burst(acc);
                Collections.sort(got);
                assertEquals(expected.get(b), got, "burst " + b);
            }
            acc.waitFreezing();
            assertTrue(acc.isFrozen());
        }
        assertTrue(ParallelForTest.liveThreads("acc-b2b").isEmpty());
    }

    /** The results up to the next end of burst. */
    private static List<Long> burst(Accelerator<Long, Long> acc) {
        List<Long> got = new ArrayList<>();
        for (Long res; (res = acc.takeResult()) != null; ) {
            got.add(res);
        }
        return got;
    }

    @Test
    void withoutResultsTheWorkersEffectsAreVisibleAfterFreezing() {
        AtomicLong sum = new AtomicLong();
        long[] plain = new long[1000];
        try (Watchdog w = Watchdog.start(DEADLINE, "no results");
                Accelerator<Integer, Void> acc = Accelerator.<Integer, Void>builder(3, () -> Nodes.sink((Integer i) -> {
                    plain[i] += i;
                    sum.addAndGet(i);
                })).withoutResults().start()) {
            for (int burst = 1; burst <= 3; burst++) {
                for (int i = 0; i < 1000; i++) {
                    acc.offload(i);
                }
                acc.waitFreezing();
                assertEquals(burst * 499_500L, sum.get());
                for (int i = 0; i < 1000; i++) {
                    assertEquals((long) burst * i, plain[i], "plain writes seen after waitFreezing");
                }
            }
            assertThrows(IllegalStateException.class, acc::takeResult);
        }
    }

    @Test
    void aWorkersFailureReachesTheCaller() {
        Accelerator<Integer, Integer> acc = Accelerator.<Integer, Integer>builder(2, () -> Nodes.map((Integer x) -> {
            if (x == 13) {
                throw new IllegalStateException("thirteen");
            }
            return x;
        })).capacity(4).named("acc-fail").start();
        try (Watchdog w = Watchdog.start(DEADLINE, "failure")) {
            FlowException e = assertThrows(FlowException.class, () -> {
                for (int i = 0; i < 1_000_000; i++) {
                    acc.offload(i); // fails once the farm has ended, or has failed and the input is full
                }
                acc.waitFreezing();
            });
            assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
            assertThrows(FlowException.class, acc::waitFreezing);
            assertThrows(FlowException.class, acc::close);
        }
        assertTrue(ParallelForTest.liveThreads("acc-fail/").isEmpty());
    }

    /**
     * Once the farm has failed, offload and endBurst throw its FlowException, also while the input
     * channel has room: the farm's emitter has ended, so an item accepted then would be lost without
     * a word (they used to throw only once the channel was full, and otherwise returned normally).
     * The farm has ended when waitFreezing throws, so the offload after it must be refused.
     */
    @Test
    @Timeout(60)
    void offloadAfterTheFarmFailedIsRefusedNotLost() {
        AtomicLong processed = new AtomicLong();
        // The worker fails only once the burst's end has been sent: failing earlier, it made endBurst
        // throw (as documented, and as checked below) and the test fail on its own race (CI, 2026-11-28).
        CountDownLatch burstEnded = new CountDownLatch(1);
        Accelerator<Integer, Integer> acc = Accelerator.<Integer, Integer>builder(2, () -> Nodes.map((Integer x) -> {
            if (x == 13) {
                awaitUninterruptibly(burstEnded);
                throw new IllegalStateException("thirteen");
            }
            processed.incrementAndGet();
            return x;
        })).named("acc-after-fail").start();
        acc.offload(13);
        acc.endBurst();
        burstEnded.countDown();
        FlowException first = assertThrows(FlowException.class, acc::waitFreezing);
        assertTrue(first.getCause() instanceof IllegalStateException, first.toString());
        assertTrue(acc.flow().isDone(), "waitFreezing throws once the farm has ended");
        FlowException e = assertThrows(FlowException.class, () -> acc.offload(1),
                "an item offloaded after the farm failed was accepted, and can never be processed");
        assertTrue(e.getCause() instanceof IllegalStateException && "thirteen".equals(e.getCause().getMessage()),
                e.toString());
        assertThrows(FlowException.class, acc::endBurst);
        assertThrows(FlowException.class, acc::waitFreezing);
        assertThrows(FlowException.class, acc::close);
        assertEquals(0, processed.get());
        assertTrue(ParallelForTest.liveThreads("acc-after-fail/").isEmpty());
    }

    /** Waits for the latch on a worker thread: at most 30 s, and an interrupt does not end the wait. */
    private static void awaitUninterruptibly(CountDownLatch latch) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                        return;
                    }
                    throw new AssertionError("the latch was not released within 30 s");
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void closeEndsTheThreadsAndLaterOffloadsAreRefused() {
        Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(2, () -> squaring(ConcurrentHashMap.newKeySet()))
                .named("acc-close").start();
        acc.offload(3L);
        acc.endBurst();
        assertEquals(9L, acc.takeResult());
        assertNull(acc.takeResult());
        acc.close();
        acc.close();
        assertTrue(ParallelForTest.liveThreads("acc-close/").isEmpty());
        assertThrows(IllegalStateException.class, () -> acc.offload(1L));
        assertThrows(IllegalStateException.class, acc::takeResult);
        assertFalse(acc.toString().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> Accelerator.builder(0, () -> squaring(Set.of())));
    }

    /**
     * A worker factory that returns one node for two workers is refused at start, as a farm of one
     * node in two places is (once the accelerator's farm saw only its wrappers and ran the one node on
     * two threads at once, init and close twice; its workers are now placed with Nodes.wrapping, so
     * the flow's own check sees the node in both places). No thread starts.
     */
    @Test
    void aFactoryReturningOneNodeTwiceIsRefused() {
        Node<Long, Long> shared = Nodes.map((Long x) -> x);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Accelerator.<Long, Long>builder(3, () -> shared).named("twice-acc").start().close());
        assertTrue(e.getMessage().contains("appears twice in the flow") && e.getMessage().contains(shared.name()),
                e.getMessage());
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("twice-acc"), t.getName());
        }
    }

    /** Every thread of the accelerator is parked at once (polled until then, within the deadline). */
    private static void allParkedEventually(String prefix) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            List<String> running = new ArrayList<>();
            int found = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith(prefix)) {
                    found++;
                    Thread.State s = t.getState();
                    if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
                        running.add(t.getName() + " " + s);
                    }
                }
            }
            assertTrue(found > 0, "no thread named " + prefix);
            if (running.isEmpty()) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "still running while frozen: " + running);
            Thread.yield();
        }
    }
}
