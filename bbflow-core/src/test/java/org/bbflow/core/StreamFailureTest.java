package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source's stream ended by a {@link StreamFailure}: what it sent reaches the sinks (through a farm
 * whose workers flush at end of stream, and through a comb headed by the source), then the flow fails
 * with the wrapped cause, naming the source, and leaves no thread.
 */
@Timeout(60)
class StreamFailureTest {
    private static final IllegalStateException BOOM = new IllegalStateException("stream broke");

    private static Source<Long> itemsThenFailure(long n) {
        return Nodes.source(o -> {
            for (long i = 1; i <= n; i++) {
                o.send(i);
            }
            throw new StreamFailure(BOOM);
        });
    }

    @Test
    void itemsAndEndOfStreamWorkReachTheSinkThenTheFlowFails() {
        long n = 20_000;
        Runs.Collector<Long> got = new Runs.Collector<>();
        // workers sum their items and send the sum at end of stream: their onEos must still run
        Block<?, ?> flow = Pipeline.of(itemsThenFailure(n), Farm.of(3, () -> Nodes.<AtomicLong, Long, Long>stateful(
                AtomicLong::new, (s, x, out) -> s.addAndGet(x), (s, out) -> out.send(-s.get()))),
                got.sink()).named("sfail");
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(flow));
        assertSame(BOOM, e.getCause());
        assertTrue(e.nodePath().startsWith("sfail/source"), e.nodePath());
        long sum = 0;
        for (long x : got.get()) {
            sum += x;
        }
        assertEquals(-n * (n + 1) / 2, sum, "the workers' end-of-stream sums cover every item");
        assertEquals(List.of(), Runs.liveThreads("sfail"));
    }

    @Test
    void aCombHeadedByTheSourceEndsItsSecondNodeToo() {
        Runs.Collector<Long> got = new Runs.Collector<>();
        List<Long> expected = new ArrayList<>(Runs.range(1, 100));
        expected.add(-1L);
        Node<Long, Long> tail = Nodes.stateful(() -> null, (Object s, Long x, Outbox<Long> out) -> out.send(x),
                (s, out) -> out.send(-1L));
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(Comb.of(itemsThenFailure(100), tail), got.sink())));
        assertSame(BOOM, e.getCause());
        assertEquals(expected, got.get());
    }

    /**
     * A node downstream sees the cut at its end of stream: {@code flowFailed()} and, new, the failure
     * itself ({@code flowFailure()}), which a network outlet sends on to its receiver; in a flow that
     * ends well there is none.
     */
    @Test
    void aNodeAtItsEndOfStreamSeesTheStreamsFailure() {
        Throwable[] atEos = {null};
        boolean[] failedAtEos = {false};
        Node<Long, Void> probe = new Node<>() {
            private NodeContext ctx;

            @Override
            public void init(NodeContext c) {
                ctx = c;
            }

            @Override
            public void onItem(Long x, Outbox<Void> out) {
            }

            @Override
            public void onEos(Outbox<Void> out) {
                failedAtEos[0] = ctx.flowFailed();
                atEos[0] = ctx.flowFailure();
            }
        };
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(itemsThenFailure(100), probe)));
        assertSame(BOOM, e.getCause());
        assertTrue(failedAtEos[0]);
        assertSame(BOOM, atEos[0], "the stream's failure, not the StreamFailure wrapper");
        Runs.run(Pipeline.of(Nodes.range(1, 10), probe));
        assertNull(atEos[0], "a flow that ends well has no failure");
    }

    /**
     * A channel fed by a cut stream ends as incomplete: its reader gets the items, then an
     * IllegalStateException, never a clean end of stream (the sink closed the channel normally).
     */
    @Test
    void aChannelFedByACutStreamEndsAsIncomplete() throws Exception {
        Channel<Long> ch = Channel.spscUnbounded();
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(itemsThenFailure(10),
                Farm.of(2, () -> Nodes.<Long>identity()).ordered(), Nodes.toChannel(ch))));
        assertSame(BOOM, e.getCause());
        for (long i = 1; i <= 10; i++) {
            assertEquals(i, ch.take());
        }
        IllegalStateException incomplete = assertThrows(IllegalStateException.class, ch::take);
        assertTrue(incomplete.getMessage().contains("failed or was cancelled"), incomplete.getMessage());
    }

    /**
     * Unboxed sources end their stream with an error too (a StreamFailure from a generator written in
     * Kotlin, or rethrown unchecked from Java): the values of the batch not yet full still reach the
     * sink (they were dropped: 768 of 1,000).
     */
    @Test
    void unboxedSourcesDeliverTheirUnfilledBatchBeforeTheError() {
        long n = 1000;
        List<Long> longs = Collections.synchronizedList(new ArrayList<>());
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(LongNodes.source(o -> {
            for (long i = 1; i <= n; i++) {
                o.sendLong(i);
            }
            throw Sneaky.<RuntimeException>rethrow(new StreamFailure(BOOM));
        }), LongNodes.map(x -> x), LongNodes.sink(longs::add))));
        assertSame(BOOM, e.getCause());
        assertEquals(n, longs.size());
        assertEquals(Runs.range(1, n), longs);

        List<Double> doubles = Collections.synchronizedList(new ArrayList<>());
        e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(DoubleNodes.source(o -> {
            for (long i = 1; i <= n; i++) {
                o.sendDouble(i);
            }
            throw Sneaky.<RuntimeException>rethrow(new StreamFailure(BOOM));
        }), DoubleNodes.map(x -> x), DoubleNodes.sink(doubles::add))));
        assertSame(BOOM, e.getCause());
        assertEquals(n, doubles.size());
        assertEquals(1000.0, doubles.get(doubles.size() - 1));
    }

    /**
     * A StreamFailure thrown by the node fused after a source (a map's function may throw it: it is a
     * checked exception) is that node's ordinary failure: the flow is cancelled, with the
     * StreamFailure itself as the cause. It passed through the source's generate and was taken for
     * the source's stream ending: cause BOOM, the source cut at 4 items, nothing cancelled.
     */
    @Test
    void aStreamFailureFromTheNodeFusedAfterASourceIsThatNodesFailure() {
        AtomicLong sinkSaw = new AtomicLong();
        StreamFailure thrown = new StreamFailure(BOOM);
        Node<Long, Long> second = Nodes.map((Long x) -> {
            if (x == 5) {
                throw thrown;
            }
            return x;
        });
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(
                Comb.of(Comb.of(Nodes.range(1, 100), Nodes.<Long>identity()), second),
                Nodes.sink((Long x) -> sinkSaw.incrementAndGet())).named("sfcomb")));
        assertSame(thrown, e.getCause(), "an ordinary failure reports what the node threw");
        // the same node first in the fusion, after the source's comb, at depth 2
        Node<Long, Long> inner = Nodes.map((Long x) -> {
            if (x == 5) {
                throw thrown;
            }
            return x;
        });
        e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(
                Comb.of(Comb.of(Nodes.range(1, 100), inner), Nodes.<Long>identity()), Nodes.sink((Long x) -> { }))));
        assertSame(thrown, e.getCause());
        assertEquals(List.of(), Runs.liveThreads("sfcomb"));
    }
}
