package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A plain one-to-one edge runs the shortest loop ({@link CollectRuns}: the consumer hands the node
 * every item its channel holds in one run, statistics and context written once per run; the
 * producer's {@code send} puts straight on the channel): what the node sees and what the
 * statistics count stay those of the general loop.
 */
@Timeout(60)
class PlainEdgeTest {

    /**
     * A two-stage pipeline's edge is plain and its sink reads in runs; so does a farm's worker (one
     * input, though not a plain edge: the emitter has two outputs); a worker of an ordered farm (its
     * items come in units) and a node with two inputs read item by item.
     */
    @Test
    void theLoopFollowsThePlan() {
        FlowPlan plan = PlanCompiler.compile(Pipeline.of(Nodes.range(1, 10), Nodes.<Long>sink(x -> { })),
                FlowOptions.defaults());
        assertTrue(plan.nodes.get(1).inputs[0].plain, "the edge of a two-stage pipeline is plain");
        assertEquals(List.of("runs"), loops(sink -> Pipeline.of(Nodes.range(1, 3), sink)));
        assertEquals(List.of("items"), loops(sink -> Pipeline.of(Nodes.range(1, 3),
                Farm.<Long, Long>of(2, () -> Nodes.<Long, Long>map(x -> x)).withoutCollector(), sink)));
        assertEquals(List.of("runs"), loops(sink -> Pipeline.of(Nodes.range(1, 3),
                Farm.<Long, Void>of(List.of(sink, Nodes.<Long>sink(x -> { }))).withoutCollector())));
        assertEquals(List.of("items"), loops(sink -> Pipeline.of(Nodes.range(1, 3),
                Farm.<Long, Void>of(List.of(sink, Nodes.<Long>sink(x -> { }))).ordered())));
    }

    /** How the node {@code sink} given to {@code flow} read its items: "runs" ({@link CollectRuns}) or "items". */
    private static List<String> loops(java.util.function.Function<Node<Long, Void>, Block<?, ?>> flow) {
        java.util.Set<String> seen = java.util.Collections.synchronizedSet(new java.util.TreeSet<>());
        Node<Long, Void> sink = new Node<>() {
            NodeRunner runner;

            @Override
            public void init(NodeContext c) {
                runner = (NodeRunner) c;
            }

            @Override
            public void onItem(Long x, Outbox<Void> o) {
                seen.add(runner.runInput ? "runs" : "items");
            }
        };
        Runs.run(flow.apply(sink));
        return new ArrayList<>(seen);
    }

    /** Inside a run the input index is 0 for every item; outside onItem it is -1 again. */
    @Test
    void everyItemOfARunSeesItsInputAndOnEosSeesNone() {
        List<Integer> indices = new ArrayList<>();
        int[] atEos = {Integer.MIN_VALUE};
        Node<Long, Void> sink = new Node<>() {
            NodeContext ctx;

            @Override
            public void init(NodeContext c) {
                ctx = c;
            }

            @Override
            public void onItem(Long x, Outbox<Void> o) {
                indices.add(ctx.inputIndex());
            }

            @Override
            public void onEos(Outbox<Void> o) {
                atEos[0] = ctx.inputIndex();
            }
        };
        RunStats stats = Runs.run(Pipeline.of(Nodes.range(1, 5000), sink));
        assertEquals(5000, indices.size());
        assertTrue(indices.stream().allMatch(i -> i == 0), "an item without input index 0");
        assertEquals(-1, atEos[0]);
        assertEquals(5000, stats.nodes().get(1).itemsIn());
        assertEquals(5000, stats.nodes().get(0).itemsOut());
    }

    /**
     * A cancellation raised while a run still has items in the channel stops the run before the next
     * item: the node never sees an item after the flow was cancelled.
     */
    @Test
    void cancellationStopsARunBeforeItsNextItem() {
        AtomicReference<Flow> flow = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean allSent = new java.util.concurrent.atomic.AtomicBoolean();
        List<Long> seen = new ArrayList<>();
        Source<Long> source = Nodes.source(out -> {
            for (long i = 1; i <= 100; i++) {
                out.send(i);
            }
            allSent.set(true);
        });
        Node<Long, Void> sink = Nodes.sink(x -> {
            seen.add(x);
            if (x == 1) {
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (!allSent.get() && System.nanoTime() < deadline) {
                    Thread.onSpinWait(); // the other 99 are now in the channel, behind this one
                }
                assertTrue(allSent.get(), "the source did not send its 100 items");
                while (flow.get() == null) {
                    Thread.onSpinWait();
                }
                flow.get().cancel();
            }
        });
        Flow f = Flow.start(Pipeline.of(source, sink));
        flow.set(f);
        assertThrows(FlowException.class, f::join);
        assertEquals(List.of(1L), seen);
    }

    /**
     * A source sending into a channel that has room sees a cancellation at its next send: it is not
     * left to run on until the channel fills (with a slow source that could be minutes). The source
     * cancels its own flow after its tenth item, so the send that must refuse is the eleventh, and the
     * 1,024-slot channel has room for all 100.
     */
    @Test
    void aSourceSendingIntoRoomStopsAtItsFirstSendAfterCancellation() {
        AtomicReference<Flow> flow = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger returned = new java.util.concurrent.atomic.AtomicInteger();
        Source<Long> source = Nodes.source(out -> {
            for (long i = 1; i <= 100; i++) {
                out.send(i);
                returned.incrementAndGet();
                if (i == 10) {
                    while (flow.get() == null) {
                        Thread.onSpinWait();
                    }
                    flow.get().cancel();
                }
            }
        });
        Flow f = Flow.start(Pipeline.of(source, Nodes.<Long>sink(x -> { })),
                FlowOptions.defaults().withChannels(ChannelSpec.bounded(1024)));
        flow.set(f);
        assertThrows(FlowException.class, f::join);
        assertEquals(10, returned.get(), "sends that returned: only the ten before the flow was cancelled");
    }

    /** A node failing in the middle of a run: the items it was handed, the failing one too, are counted. */
    @Test
    void aFailureInARunCountsTheItemsHandedOver() {
        Flow f = Flow.start(Pipeline.of(Nodes.range(1, 1000), Nodes.<Long>sink(x -> {
            if (x == 300) {
                throw new IllegalStateException("boom at 300");
            }
        })));
        FlowException e = assertThrows(FlowException.class, f::join);
        assertEquals("boom at 300", e.getCause().getMessage());
        assertEquals(300, f.stats().nodes().get(1).itemsIn());
    }
}
