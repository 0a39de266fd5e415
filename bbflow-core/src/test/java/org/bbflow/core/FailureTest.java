package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(120)
class FailureTest {
    static final RuntimeException BOOM = new IllegalStateException("boom");

    static List<WaitStrategy> strategies() {
        return List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
    }

    private static void assertNoThreadsLeft(String root) {
        assertEquals(List.of(), Runs.liveThreads(root), "threads still alive after join");
    }

    /** Runs the block, expects the failure of the node at pathSuffix with BOOM as cause. */
    private static void expectFailure(Block<?, ?> block, String root, String pathSuffix, FlowOptions options) {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(block, options));
        assertSame(BOOM, e.getCause(), e.toString());
        assertTrue(e.nodePath().endsWith(pathSuffix), e.nodePath());
        assertTrue(e.getMessage().contains(e.nodePath()), e.getMessage());
        assertNoThreadsLeft(root);
    }

    /** An endless source: only cancellation stops it. */
    static Source<Long> endless() {
        return Nodes.source(o -> {
            for (long i = 0; ; i++) {
                o.send(i);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void failureInSource(WaitStrategy ws) {
        expectFailure(Pipeline.of(Nodes.<Long>source(o -> {
            for (long i = 0; i < 1000; i++) {
                o.send(i);
            }
            throw BOOM;
        }), Nodes.sink(x -> { })).named("fsrc"), "fsrc", "source[0]", FlowOptions.defaults().withWaitStrategy(ws));
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void failureInWorkerStopsAnEndlessSource(WaitStrategy ws) {
        expectFailure(Pipeline.of(endless(), Farm.of(2, () -> Nodes.map((Long x) -> {
            if (x == 5_000) {
                throw BOOM;
            }
            return x;
        })), Nodes.sink(x -> { })).named("fworker"), "fworker", "worker-" + (5_000 % 2), FlowOptions.defaults().withWaitStrategy(ws));
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void failureInEmitterAndCollector(WaitStrategy ws) {
        FlowOptions o = FlowOptions.defaults().withWaitStrategy(ws);
        expectFailure(Pipeline.of(endless(), Farm.<Long, Long>of(2, () -> Nodes.identity()).emitter(Nodes.map((Long x) -> {
            if (x == 777) {
                throw BOOM;
            }
            return x;
        })), Nodes.sink(x -> { })).named("femit"), "femit", "emitter", o);
        expectFailure(Pipeline.of(endless(), Farm.<Long, Long>of(2, () -> Nodes.identity()).collector(Nodes.map((Long x) -> {
            if (x == 777) {
                throw BOOM;
            }
            return x;
        })), Nodes.sink(x -> { })).named("fcoll"), "fcoll", "collector", o);
    }

    @Test
    void failureInInitAndCloseAreReported() {
        expectFailure(Pipeline.of(Nodes.range(1, 10), new Node<Long, Long>() {
            @Override
            public void init(NodeContext c) {
                throw BOOM;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
            }
        }, Nodes.sink(x -> { })).named("finit"), "finit", "[1]", FlowOptions.defaults());
        expectFailure(Pipeline.of(Nodes.range(1, 10), new Node<Long, Void>() {
            @Override
            public void onItem(Long x, Outbox<Void> o) {
            }

            @Override
            public void close() {
                throw BOOM;
            }
        }).named("fclose"), "fclose", "[1]", FlowOptions.defaults());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void cancelWhileProducerBlockedOnFullChannel(WaitStrategy ws) throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicInteger closed = new AtomicInteger();
        // the consumer never returns from its first item until interrupted; the source fills the channel
        Node<Long, Void> stuckSink = new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Void> o) throws Exception {
                stuck.countDown();
                new CountDownLatch(1).await();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
        Source<Long> src = new Source<>() {
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
        Flow flow = Flow.start(Pipeline.of(src, stuckSink).then(Nodes.sink(x -> { })).named("cancelme"),
                FlowOptions.defaults().withWaitStrategy(ws).withChannels(ChannelSpec.bounded(4)));
        assertTrue(stuck.await(30, TimeUnit.SECONDS));
        // wait until the producer has filled the 4-slot channel and waits on it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (flow.stats().node("source[0]").fullWaits() == 0) {
            assertTrue(System.nanoTime() < deadline, "producer never blocked");
            Thread.onSpinWait();
        }
        flow.cancel();
        FlowException e = assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
        assertTrue(e.getCause() instanceof CancellationException, e.toString());
        assertNull(e.nodePath());
        assertEquals(2, closed.get());
        assertTrue(flow.isDone());
        assertNoThreadsLeft("cancelme");
    }

    @Test
    void cancelAfterEndChangesNothing() {
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })));
        RunStats s = flow.join();
        flow.cancel();
        assertEquals(10, s.node("sink[1]").itemsIn());
        assertEquals(10, flow.join().node("sink[1]").itemsIn());
    }

    @Test
    void joinTimeoutLeavesTheFlowRunning() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.<Long>source(o -> release.await()), Nodes.sink(x -> { })));
        assertThrows(java.util.concurrent.TimeoutException.class, () -> flow.join(Duration.ofMillis(50)));
        assertTrue(!flow.isDone());
        release.countDown();
        flow.join(Duration.ofSeconds(30));
        assertTrue(flow.isDone());
    }
}
