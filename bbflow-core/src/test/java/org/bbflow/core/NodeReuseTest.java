package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nodes are reusable, one flow at a time (issue 28, findings 4 and 5): a node run again after a
 * failed flow starts clean (no value of the failed flow is sent in the next), and a node fused into
 * a comb is registered like any other, so the same node twice in one flow, or in two running flows,
 * is refused at start even when one of the places is inside {@code andThen}.
 */
@Timeout(60)
class NodeReuseTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** Thrown on purpose by the node under test. */
    static final class Planted extends RuntimeException {
        Planted() {
            super("planted failure");
        }
    }

    private static List<Long> longs(Block<?, ?> source, Node<LongBatch, LongBatch> node) {
        List<Long> out = new ArrayList<>();
        Runs.run(Pipeline.of(source, node, LongNodes.sink(out::add)), FlowOptions.defaults(), DEADLINE);
        return out;
    }

    @Test
    void aLongFlatMapRunAfterAFailedFlowSendsNoValueOfThatFlow() {
        boolean[] fail = {true};
        Node<LongBatch, LongBatch> flat = LongNodes.flatMap((o, x) -> {
            o.sendLong(x);
            if (x == 5 && fail[0]) {
                throw new Planted();
            }
        });
        FlowException e = assertThrows(FlowException.class, () -> longs(LongNodes.range(1, 5), flat));
        assertTrue(e.getCause() instanceof Planted, String.valueOf(e.getCause()));
        fail[0] = false;
        // today: [1, 2, 3, 4, 5, 100, 101, 102], the failed flow's half-filled batch sent first
        assertEquals(List.of(100L, 101L, 102L), longs(LongNodes.range(100, 102), flat));
    }

    @Test
    void aLongSourceAndBatchRunAfterAFailedFlowSendNoValueOfThatFlow() {
        boolean[] fail = {true};
        Source<LongBatch> source = LongNodes.source(o -> {
            for (long x = fail[0] ? 1 : 100; x <= (fail[0] ? 5 : 102); x++) {
                o.sendLong(x);
            }
            if (fail[0]) {
                throw new Planted();
            }
        });
        assertThrows(FlowException.class, () -> longs(source, LongNodes.map(x -> x)));
        fail[0] = false;
        assertEquals(List.of(100L, 101L, 102L), longs(source, LongNodes.map(x -> x)));

        Node<Long, LongBatch> batch = LongNodes.batch();
        Node<Long, Long> failing = Nodes.map((Long x) -> x);
        Node<LongBatch, Void> breaking = LongNodes.sink(x -> {
            if (x == 3) {
                throw new Planted();
            }
        });
        // batch() keeps values only while input is pending; a failure of its consumer leaves them behind
        assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.range(1, 50_000), failing, batch, breaking),
                FlowOptions.defaults(), DEADLINE));
        List<Long> out = new ArrayList<>();
        Runs.run(Pipeline.of(Nodes.range(100, 102), batch, LongNodes.sink(out::add)), FlowOptions.defaults(), DEADLINE);
        assertEquals(List.of(100L, 101L, 102L), out);
    }

    @Test
    void aDoubleFlatMapRunAfterAFailedFlowSendsNoValueOfThatFlow() {
        boolean[] fail = {true};
        Node<DoubleBatch, DoubleBatch> flat = DoubleNodes.flatMap((o, x) -> {
            o.sendDouble(x);
            if (x == 5 && fail[0]) {
                throw new Planted();
            }
        });
        List<Double> out = new ArrayList<>();
        assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(LongNodes.range(1, 5), DoubleNodes.fromLongs(x -> x),
                flat, DoubleNodes.sink(out::add)), FlowOptions.defaults(), DEADLINE));
        fail[0] = false;
        out.clear();
        Runs.run(Pipeline.of(LongNodes.range(100, 102), DoubleNodes.fromLongs(x -> x), flat, DoubleNodes.sink(out::add)),
                FlowOptions.defaults(), DEADLINE);
        assertEquals(List.of(100.0, 101.0, 102.0), out);
    }

    @Test
    void theSameNodeAsAStageAndInsideACombOfOneFlowIsRefused() {
        Node<Long, Long> twice = Nodes.map((Long x) -> x + 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 10), twice, Nodes.<Long>identity().andThen(twice), Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("appears twice"), e.getMessage());
        // and the node is free again: the refused start registered nothing
        Runs.run(Pipeline.of(Nodes.range(1, 10), twice, Nodes.sink(x -> { })));
    }

    @Test
    void theSameNodeInsideTwoCombsOfOneFlowIsRefused() {
        Node<Long, Long> twice = Nodes.map((Long x) -> x + 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 10), Nodes.<Long>identity().andThen(twice), twice.andThen(Nodes.<Long>identity()),
                Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("appears twice"), e.getMessage());
    }

    @Test
    void aNodeRunningInsideACombOfOneFlowIsRefusedInAnother() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Node<LongBatch, LongBatch> shared = LongNodes.map(x -> x);
        Source<LongBatch> held = LongNodes.source(o -> {
            o.sendLong(1);
            inside.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Flow first = Flow.start(Pipeline.of(held, Nodes.<LongBatch>identity().andThen(shared), LongNodes.sink(x -> { })));
        try {
            assertTrue(inside.await(10, TimeUnit.SECONDS));
            // today: accepted, and the two flows run one node object on two threads
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Flow.start(Pipeline.of(LongNodes.range(1, 10), shared, LongNodes.sink(x -> { }))));
            assertTrue(e.getMessage().contains("already running in another flow"), e.getMessage());
            IllegalStateException e2 = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                    LongNodes.range(1, 10), shared.andThen(Nodes.<LongBatch>identity()), LongNodes.sink(x -> { }))));
            assertTrue(e2.getMessage().contains("already running in another flow"), e2.getMessage());
        } finally {
            release.countDown();
            first.join(DEADLINE);
        }
        // once the first flow ended, the node runs in another
        List<Long> out = new ArrayList<>();
        Runs.run(Pipeline.of(LongNodes.range(1, 3), shared, LongNodes.sink(out::add)));
        assertEquals(List.of(1L, 2L, 3L), out);
    }
    /**
     * The same node as a stage and as a farm's emitter or collector, twice in a farm's worker list or in
     * an all-to-all, or as both emitter and collector: refused at start naming it; and a farm run once
     * is refused in a second flow.
     */
    @Test
    void oneNodeInTwoPlacesOfOtherShapesIsRefusedAndABlockRunsOnce() {
        Node<Long, Long> n = Nodes.identity();
        List<Supplier<Block<?, ?>>> shapes = List.of(
                () -> Pipeline.of(Nodes.range(1, 3), n, Farm.of(2, () -> Nodes.<Long>identity()).emitter(n), Nodes.sink(x -> { })),
                () -> Pipeline.of(Nodes.range(1, 3), n, Farm.of(2, () -> Nodes.<Long>identity()).collector(n), Nodes.sink(x -> { })),
                () -> Pipeline.of(Nodes.range(1, 3), Farm.of(List.of(n, n)), Nodes.sink(x -> { })),
                () -> Pipeline.of(Nodes.range(1, 3), AllToAll.<Long, Long>of(List.of(n), List.of(n)), Nodes.sink(x -> { })),
                () -> Pipeline.of(Nodes.range(1, 3), Farm.of(2, () -> Nodes.<Long>identity()).emitter(n).collector(n), Nodes.sink(x -> { })));
        for (Supplier<Block<?, ?>> s : shapes) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> Flow.start(s.get()));
            assertTrue(e instanceof IllegalStateException || e instanceof IllegalArgumentException, String.valueOf(e));
            assertTrue(String.valueOf(e.getMessage()).contains("twice") || String.valueOf(e.getMessage()).contains("distinct"), e.getMessage());
        }
        Farm<Long, Long> farm = Farm.of(2, () -> Nodes.<Long>identity());
        Runs.run(Pipeline.of(Nodes.range(1, 3), farm, Nodes.sink(x -> { })));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(Nodes.range(1, 3), farm, Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("already started"), e.getMessage());
    }
}
