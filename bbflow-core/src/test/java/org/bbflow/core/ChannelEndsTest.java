package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ends of a public {@link Channel} used with flows (issue 28, findings 6 and 7): a channel fed by
 * {@link Nodes#toChannel} is never left open by a flow that failed or was cancelled (its reader gets
 * an error after the items sent, never a clean end of stream nor a wait for ever), a source reading
 * such a channel fails its own flow, and an MPSC channel keeps no trace of the producer threads that
 * once waited on it.
 */
@Timeout(60)
class ChannelEndsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** Takes everything from the channel on another thread until end of stream or an exception. */
    private static CompletableFuture<List<Long>> reader(Channel<Long> c) {
        return CompletableFuture.supplyAsync(() -> {
            List<Long> got = new ArrayList<>();
            for (Long x; (x = c.take()) != null; ) {
                got.add(x);
            }
            return got;
        });
    }

    @Test
    void aFailedFlowEndsItsChannelWithAnErrorAfterTheItemsItSent() throws Exception {
        Channel<Long> c = Channel.spsc(16);
        CompletableFuture<List<Long>> read = reader(c);
        Source<Long> failing = Nodes.source(o -> {
            o.send(1L);
            o.send(2L);
            throw new IllegalArgumentException("planted");
        });
        assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(failing, Nodes.toChannel(c)),
                FlowOptions.defaults(), DEADLINE));
        // today: the reader waits for ever in take()
        ExecutionException e = assertThrows(ExecutionException.class, () -> read.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().contains("failed or was cancelled"), e.getCause().getMessage());
        assertTrue(c.isClosed());
    }

    @Test
    void aCancelledFlowEndsItsChannelWithAnError() throws Exception {
        Channel<Long> c = Channel.spsc(16);
        CompletableFuture<List<Long>> read = reader(c);
        CountDownLatch sent = new CountDownLatch(1);
        Source<Long> endless = Nodes.source(o -> {
            o.send(1L);
            sent.countDown();
            while (true) {
                Thread.sleep(1);
                o.send(2L); // fails with the flow's cancellation once cancelled
            }
        });
        Flow flow = Flow.start(Pipeline.of(endless, Nodes.toChannel(c)));
        assertTrue(sent.await(10, TimeUnit.SECONDS));
        flow.cancel();
        assertThrows(FlowException.class, () -> flow.join(DEADLINE));
        ExecutionException e = assertThrows(ExecutionException.class, () -> read.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    }

    @Test
    void aSourceReadingAChannelWhoseFlowFailedFailsItsOwnFlow() {
        Channel<Long> c = Channel.spsc(16);
        Source<Long> failing = Nodes.source(o -> {
            o.send(1L);
            throw new IllegalArgumentException("planted");
        });
        Flow upstream = Flow.start(Pipeline.of(failing, Nodes.toChannel(c)));
        List<Long> got = new ArrayList<>();
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(
                Pipeline.of(Nodes.fromChannel(c), Nodes.sink(got::add)), FlowOptions.defaults(), DEADLINE));
        assertTrue(e.getCause().getMessage().contains("failed or was cancelled"), e.getCause().getMessage());
        assertThrows(FlowException.class, () -> upstream.join(DEADLINE));
    }

    /**
     * The items a failed flow put on its channel all reach the sinks of the flow that reads it, which
     * then fails: the reading source ends its stream with the error (a StreamFailure). It threw an
     * ordinary exception, which cancelled its flow and dropped what was still in its channels (with a
     * slow sink, most of the 1,000 items).
     */
    @Test
    void aSourceReadingAChannelWhoseFlowFailedDeliversEveryItemFirst() {
        Channel<Long> c = Channel.spscUnbounded();
        // a cut stream: every item reaches the channel (an ordinary failure would drop some), which ends as incomplete
        Source<Long> failing = Nodes.source(o -> {
            for (long i = 1; i <= 1000; i++) {
                o.send(i);
            }
            throw new StreamFailure(new IllegalArgumentException("planted"));
        });
        assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(failing, Nodes.toChannel(c))));
        assertEquals(1000, c.size());
        List<Long> got = new ArrayList<>();
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.fromChannel(c),
                Nodes.<Long, Long>map(x -> {
                    long spin = 0;
                    for (int k = 0; k < 2000; k++) {
                        spin += k ^ x; // a slow stage: the source is done long before it
                    }
                    return x + (spin & 0);
                }), Nodes.sink((Long x) -> got.add(x))), FlowOptions.defaults(), DEADLINE));
        assertTrue(e.getCause().getMessage().contains("failed or was cancelled"), e.getCause().getMessage());
        assertEquals(1000, got.size());
        assertEquals(Runs.range(1, 1000), got);
    }

    @Test
    void aFlowThatEndsNormallyStillClosesItsChannelCleanly() throws Exception {
        Channel<Long> c = Channel.spsc(4);
        CompletableFuture<List<Long>> read = reader(c);
        Runs.run(Pipeline.of(Nodes.range(1, 100), Nodes.toChannel(c)));
        assertEquals(Runs.range(1, 100), read.get(10, TimeUnit.SECONDS));
        assertTrue(c.isEos());
    }

    /**
     * A flow that fills, downstream of its fromChannel node (or in the same comb), the channel that
     * node drains could never end (the channel closes at its filler's end of stream, after its
     * reader's): refused at start, naming both places. It started, and hung until cancelled. Filling it
     * from another branch of the same flow is fine.
     */
    @Test
    void aFlowFillingTheChannelItDrainsDownstreamIsRefused() {
        Channel<Long> c = Channel.spsc(16);
        List<Block<?, ?>> cycles = List.of(
                Pipeline.of(Nodes.fromChannel(c), Nodes.map((Long x) -> x + 1), Nodes.toChannel(c)).named("cycle"),
                Pipeline.of(Nodes.fromChannel(c), Farm.of(2, () -> Nodes.<Long>identity()), Nodes.toChannel(c)).named("cycle"),
                Comb.of(Nodes.fromChannel(c), Nodes.toChannel(c)));
        for (Block<?, ?> b : cycles) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                Flow flow = Flow.start(b);
                try {
                    flow.join(Duration.ofMillis(500));
                } finally {
                    flow.close(); // a flow that started (wrongly) is cancelled, not left running
                }
            });
            assertTrue(e.getMessage().contains("could never end") && e.getMessage().contains("fromChannel"), e.getMessage());
        }
        Channel<Long> d = Channel.spsc(16);
        List<Long> got = new ArrayList<>();
        Runs.run(Farm.of(List.of(Pipeline.of(Nodes.range(1, 100), Nodes.toChannel(d)),
                Pipeline.of(Nodes.fromChannel(d), Nodes.sink((Long x) -> got.add(x))))).withoutEmitter().withoutCollector());
        assertEquals(Runs.range(1, 100), got);
    }

    @Test
    void anMpscChannelKeepsNoTraceOfProducersThatOnceWaited() throws Exception {
        Channel<Long> c = Channel.mpsc(1);
        c.put(0L); // full: every producer below waits
        int producers = 200;
        for (int i = 0; i < producers; i++) {
            long v = i + 1;
            Thread t = new Thread(() -> c.put(v));
            t.start();
            // the producer waits until the item ahead of it is taken
            assertEquals(v - 1, (long) c.take());
            t.join(10_000);
        }
        assertEquals(producers, (long) c.take());
        // today: one waiter kept per thread that ever waited (~250 B each, and every hand-off wakes them all)
        assertTrue(producerWaiters(c) <= 1, "producer waiters kept: " + producerWaiters(c));
    }

    private static int producerWaiters(Channel<?> c) {
        return c.link().producers.size();
    }

    /**
     * A farm of toChannel workers on one channel: the first worker to end closed the channel for all,
     * the others failed with "offer on a closed channel", and the reader could take a clean end of
     * stream with items missing. Two nodes filling (or draining) one channel in a flow are refused at
     * start, naming both places; the channel is left untouched.
     */
    @Test
    void twoNodesAtOneEndOfAChannelAreRefusedNamingBoth() {
        for (Channel<Long> c : List.of(Channel.<Long>mpsc(16), Channel.<Long>spsc(16))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                    Nodes.range(1, 10), Farm.of(3, () -> Nodes.<Long>toChannel(c)).withoutCollector())));
            assertTrue(e.getMessage().contains("channel ends") && e.getMessage().contains("worker-0")
                    && e.getMessage().contains("worker-1"), e.getMessage());
            assertTrue(!c.isClosed() && c.size() == 0, c.toString());
        }
        Channel<Long> in = Channel.spsc(16);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(AllToAll.<Long, Void>of(
                List.of(Nodes.fromChannel(in), Nodes.fromChannel(in)), List.of(Nodes.sink(x -> { })))));
        assertTrue(e.getMessage().contains("fromChannel") && e.getMessage().contains("left-1"), e.getMessage());
    }

    /**
     * Two flows filling one channel, each with one toChannel node: the check inside one flow did not
     * see the other, so the first to end closed the channel and the reader took a clean end of stream
     * while the other's items were still to come (they then failed with "offer on a closed channel").
     * The second flow's start is refused, starting no thread; the first one's stream is whole. Once
     * the first flow has ended the channel is closed for good (a channel carries one stream), so a
     * later flow filling it is refused too, with a message that says so.
     */
    @Test
    void aSecondFlowFillingARunningFlowsChannelIsRefused() throws Exception {
        Channel<Long> c = Channel.spsc(16);
        CountDownLatch go = new CountDownLatch(1);
        Flow first = Flow.start(Pipeline.of(Nodes.<Long>source(o -> {
            go.await();
            for (long i = 1; i <= 100; i++) {
                o.send(i);
            }
        }), Nodes.toChannel(c)).named("filler-1"));
        try {
            CompletableFuture<List<Long>> read = reader(c);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(
                    Pipeline.of(Nodes.range(1, 10), Nodes.toChannel(c)).named("filler-2")));
            assertTrue(e.getMessage().contains("toChannel") && e.getMessage().contains("filler-1/toChannel"),
                    e.getMessage());
            assertEquals(List.of(), Runs.liveThreads("filler-2"));
            go.countDown();
            first.join(DEADLINE);
            assertEquals(Runs.range(1, 100), read.get(10, TimeUnit.SECONDS), "the first flow's stream, whole");
            IllegalStateException later = assertThrows(IllegalStateException.class, () -> Flow.start(
                    Pipeline.of(Nodes.range(1, 10), Nodes.toChannel(c)).named("filler-3")));
            assertTrue(later.getMessage().contains("closed"), later.getMessage());
            assertEquals(List.of(), Runs.liveThreads("filler-3"));
        } finally {
            go.countDown();
            first.close();
        }
    }

    /**
     * Two flows draining one channel at once would read it from two threads (an SPSC queue's one
     * consumer); the second one's start is refused. Reading in turn is legitimate: once the first flow
     * has ended (here cancelled before the stream's end), a later flow may drain what is left.
     */
    @Test
    void aSecondFlowDrainingARunningFlowsChannelIsRefusedButMayDrainItLater() throws Exception {
        Channel<Long> c = Channel.spsc(16);
        List<Long> firstGot = new java.util.concurrent.CopyOnWriteArrayList<>();
        Flow first = Flow.start(Pipeline.of(Nodes.fromChannel(c), Nodes.sink((Long x) -> firstGot.add(x)))
                .named("drainer-1"));
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(
                    Pipeline.of(Nodes.fromChannel(c), Nodes.sink(x -> { })).named("drainer-2")));
            assertTrue(e.getMessage().contains("fromChannel") && e.getMessage().contains("drainer-1/fromChannel"),
                    e.getMessage());
            assertEquals(List.of(), Runs.liveThreads("drainer-2"));
        } finally {
            first.cancel();
            assertThrows(FlowException.class, () -> first.join(DEADLINE));
        }
        assertEquals(List.of(), firstGot);
        List<Long> got = new java.util.concurrent.CopyOnWriteArrayList<>();
        Flow second = Flow.start(Pipeline.of(Nodes.fromChannel(c), Nodes.sink((Long x) -> got.add(x)))
                .named("drainer-3"));
        for (long i = 1; i <= 100; i++) {
            c.put(i);
        }
        c.close();
        second.join(DEADLINE);
        assertEquals(Runs.range(1, 100), got);
    }
}
