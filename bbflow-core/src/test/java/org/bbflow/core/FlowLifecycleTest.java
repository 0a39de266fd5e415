package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Flow as JVM code expects it: try-with-resources, a CompletableFuture of its outcome, a thread factory. */
@Timeout(60)
class FlowLifecycleTest {

    /** A source that sends until cancelled (never ends by itself), and counts its close() calls. */
    private static Source<Long> endless(AtomicInteger closed) {
        return new Source<>() {
            @Override
            public void generate(Outbox<Long> o) {
                for (long i = 0; ; i++) {
                    o.send(i);
                }
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
    }

    @Test
    void tryWithResourcesCancelsAndLeavesNoThread() throws Exception {
        AtomicInteger closed = new AtomicInteger();
        CountDownLatch flowing = new CountDownLatch(100);
        Flow escaped;
        try (Flow flow = Flow.start(Pipeline.of(endless(closed), Nodes.sink(x -> flowing.countDown())).named("twr"))) {
            escaped = flow;
            assertTrue(flowing.await(30, TimeUnit.SECONDS));
            assertFalse(flow.isDone());
        }
        assertTrue(escaped.isDone());
        assertEquals(List.of(), Runs.liveThreads("twr"));
        assertEquals(1, closed.get());
        FlowException e = assertThrows(FlowException.class, escaped::join);
        assertTrue(e.getCause() instanceof CancellationException, e.toString());
        escaped.close(); // idempotent
        escaped.close();
        assertEquals(1, closed.get());
    }

    @Test
    void closeAfterNormalEndKeepsTheResult() {
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.sink(x -> { })).named("done"));
        RunStats s = flow.join();
        flow.close();
        assertEquals(100, s.node("sink[1]").itemsIn());
        assertEquals(100, flow.join().node("sink[1]").itemsIn()); // not turned into a cancellation
        assertEquals(List.of(), Runs.liveThreads("done"));
    }

    @Test
    void closeWaitsForEveryThread() throws Exception {
        // a sink that ignores the interrupt for a while: close must not return before it has ended
        CountDownLatch entered = new CountDownLatch(1);
        AtomicInteger closed = new AtomicInteger();
        Node<Long, Void> slow = new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Void> o) {
                entered.countDown();
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
        Flow flow = Flow.start(Pipeline.of(endless(new AtomicInteger()), slow).named("slowclose"));
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        flow.close();
        assertEquals(1, closed.get());
        assertEquals(List.of(), Runs.liveThreads("slowclose"));
    }

    @Test
    void completionCompletesWithTheStatistics() throws Exception {
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 1_000), Nodes.sink(x -> { })).named("future"));
        CompletableFuture<RunStats> f = flow.completion();
        RunStats s = f.get(30, TimeUnit.SECONDS);
        assertEquals(1_000, s.node("sink[1]").itemsIn());
        assertTrue(flow.isDone());
        assertEquals(List.of(), Runs.liveThreads("future")); // completed only once every node thread ended
        // after the end: a new copy is already complete
        assertEquals(1_000, flow.completion().getNow(null).node("sink[1]").itemsIn());
    }

    @Test
    void completionFailsWithTheFlowException() {
        IllegalStateException boom = new IllegalStateException("boom");
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 1_000), Nodes.sink(x -> {
            if (x == 500) {
                throw boom;
            }
        })).named("failing"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> flow.completion().get(30, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof FlowException, e.toString());
        assertSame(boom, e.getCause().getCause());
        assertEquals("failing/sink[1]", ((FlowException) e.getCause()).nodePath());
        assertEquals(List.of(), Runs.liveThreads("failing"));
    }

    @Test
    void completionOfACancelledFlowAndIndependentCopies() throws Exception {
        Flow flow = Flow.start(Pipeline.of(endless(new AtomicInteger()), Nodes.sink(x -> { })).named("cancelled"));
        CompletableFuture<RunStats> mine = flow.completion();
        CompletableFuture<RunStats> other = flow.completion();
        assertTrue(mine.cancel(true)); // cancels this copy only
        assertFalse(flow.isDone());
        assertFalse(other.isDone());
        CompletableFuture<String> chained = other.handle((s, t) -> t.getClass().getSimpleName() + ":"
                + t.getCause().getClass().getSimpleName());
        flow.cancel();
        assertEquals("CompletionException:FlowException", chained.get(30, TimeUnit.SECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, () -> other.get(30, TimeUnit.SECONDS));
        assertTrue(e.getCause().getCause() instanceof CancellationException, e.toString());
        flow.close();
        assertEquals(List.of(), Runs.liveThreads("cancelled"));
    }

    @Test
    void dependentsMayJoinTheFlow() throws Exception {
        // a dependent that joins or closes the flow must not deadlock (it does not run on a node thread)
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })).named("rejoin"));
        CompletableFuture<Long> f = flow.completion().thenApply(s -> {
            flow.close();
            return flow.join().node("sink[1]").itemsIn();
        });
        assertEquals(10L, f.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aFlowNobodyAskedTheFutureOfHandsNoWorkToAnotherThreadAtItsEnd() throws Exception {
        // Completing every flow's future asynchronously cost each flow's end a thread start on a
        // 2-core machine, on its last node's thread. Only a future asked for before the end is
        // completed there; otherwise the first completion() after the end completes it at once.
        AtomicInteger async = new AtomicInteger();
        Flow.asyncCompletionHook = async::incrementAndGet;
        try {
            Flow joined = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.sink(x -> { })).named("unasked"));
            assertEquals(100, joined.join().node("sink[1]").itemsIn());
            assertEquals(0, async.get());
            CompletableFuture<RunStats> late = joined.completion();
            assertTrue(late.isDone(), "completed by the call itself");
            assertEquals(100, late.getNow(null).node("sink[1]").itemsIn());
            Thread caller = Thread.currentThread();
            assertSame(caller, late.thenApply(x -> Thread.currentThread()).getNow(null));
            assertEquals(0, async.get());

            // held until its future is asked for: a flow this small could otherwise end first (seen on
            // JDK 25 on 2026-11-27), and then the call completes it itself, as above
            CountDownLatch gate = new CountDownLatch(1);
            Flow asked = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.sink(x -> {
                if (!gate.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate was never opened");
                }
            })).named("asked"));
            CompletableFuture<RunStats> early = asked.completion();
            gate.countDown();
            assertEquals(100, early.get(30, TimeUnit.SECONDS).node("sink[1]").itemsIn());
            assertEquals(1, async.get());
        } finally {
            Flow.asyncCompletionHook = null;
        }
    }

    @Test
    void aFailedFlowsFutureAskedForAfterItsEndFailsWithItsException() {
        IllegalStateException boom = new IllegalStateException("boom");
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> {
            throw boom;
        })).named("failedlate"));
        assertThrows(FlowException.class, flow::join);
        CompletableFuture<RunStats> f = flow.completion();
        assertTrue(f.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertSame(boom, e.getCause().getCause());
    }

    @Test
    void aFutureAskedForAsTheFlowEndsIsAlwaysCompleted() throws Exception {
        // completion() races the last node's end: whichever comes first, the future completes
        // (a lost completion would hang get below). Seeded delays move the call around the end.
        long seed = TestSeed.current();
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int items = 1 + random.nextInt(200);
            long spin = random.nextInt(200_000);
            Flow flow = Flow.start(Pipeline.of(Nodes.range(1, items), Nodes.sink(x -> { })).named("race"));
            long until = System.nanoTime() + spin;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            CompletableFuture<RunStats> f = flow.completion();
            int r = round;
            RunStats s;
            try {
                s = f.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("the future was never completed: seed " + seed + ", round " + r, e);
            }
            assertEquals(items, s.node("sink[1]").itemsIn(), () -> "seed " + seed + ", round " + r);
            assertTrue(flow.completion().isDone(), () -> "seed " + seed + ", round " + r);
        }
    }

    @Test
    void threadFactoryMakesEveryThreadNamedByBlockPath() {
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ThreadGroup group = new ThreadGroup("bbflow-test-group");
        ThreadFactory factory = r -> {
            Thread t = new Thread(group, r, "anonymous");
            t.setPriority(Thread.MIN_PRIORITY);
            made.add(t);
            return t;
        };
        Node<Long, Long> probe = Nodes.map(x -> {
            Thread me = Thread.currentThread();
            seen.add(me.getName() + "|" + made.contains(me) + "|" + (me.getThreadGroup() == group) + "|" + me.isDaemon());
            return x;
        });
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 10), Farm.of(2, () -> Nodes.<Long>identity()), probe,
                Nodes.sink(x -> { })).named("tf"), FlowOptions.defaults().withThreadFactory(factory).withDaemon(true));
        assertEquals(s.nodes().size(), made.size()); // one thread per node, all from the factory
        assertEquals(Set.of("tf/map[2]|true|true|true"), seen);
        for (Thread t : made) {
            assertTrue(t.getName().startsWith("tf/"), t.getName());
            assertFalse(t.isAlive(), t.getName());
        }
    }

    @Test
    void badThreadFactoryFailsTheStartAndLeavesTheNodesFree() {
        Node<Long, Void> sink = Nodes.sink(x -> { });
        Source<Long> src = Nodes.range(1, 10);
        assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(src, sink),
                FlowOptions.defaults().withThreadFactory(r -> null)));
        Thread started = new Thread(() -> { });
        started.start();
        assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(src, sink),
                FlowOptions.defaults().withThreadFactory(r -> started)));
        // a caching factory, one thread for every node: refused by name (it was a bare
        // IllegalThreadStateException from the second start, with the first thread already started)
        Thread[] cached = new Thread[1];
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(src, sink),
                FlowOptions.defaults().withThreadFactory(r -> cached[0] == null ? cached[0] = new Thread(r) : cached[0])));
        assertTrue(e.getMessage().contains("one thread for two nodes"), e.getMessage());
        assertFalse(cached[0].isAlive());
        // the nodes were released: they run in a new pipeline
        assertEquals(10, Runs.run(Pipeline.of(src, sink)).node("sink[1]").itemsIn());
    }

    @Test
    void joinTimeoutStillWorksWithAFactory() throws Exception {
        AtomicInteger made = new AtomicInteger();
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })),
                FlowOptions.defaults().withThreadFactory(r -> {
                    made.incrementAndGet();
                    return new Thread(r);
                }));
        assertEquals(10, flow.join(Duration.ofSeconds(30)).node("sink[1]").itemsIn());
        assertEquals(2, made.get());
    }

    /**
     * A join with a timeout too long to count in nanoseconds (above ~292 years, as
     * {@code ChronoUnit.FOREVER.getDuration()} or {@code Duration.ofSeconds(Long.MAX_VALUE)} is)
     * waits as long as it takes: it threw an ArithmeticException from the conversion, neither the
     * flow's outcome nor a TimeoutException. A negative or zero timeout does not wait.
     */
    @Test
    void joinWithATimeoutBeyondNanosecondsWaitsForTheFlow() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.<Long>source(o -> {
            go.await();
            o.send(1L);
        }), Nodes.sink(x -> { })).named("forever"));
        try {
            assertThrows(TimeoutException.class, () -> flow.join(Duration.ofSeconds(-1)));
            assertThrows(TimeoutException.class, () -> flow.join(Duration.ZERO));
            go.countDown();
            assertEquals(1, flow.join(java.time.temporal.ChronoUnit.FOREVER.getDuration()).node("sink[1]").itemsIn());
            assertEquals(1, flow.join(Duration.ofSeconds(Long.MAX_VALUE)).node("sink[1]").itemsIn());
        } finally {
            go.countDown();
            flow.close();
        }
        assertThrows(NullPointerException.class, () -> flow.join(null));
    }
}
