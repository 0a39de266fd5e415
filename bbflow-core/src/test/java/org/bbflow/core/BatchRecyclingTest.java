package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * Batches reused between two stages of {@link LongNodes} and {@link DoubleNodes} ({@link BatchReturns}): that they are
 * reused where it is safe (a probe counts the distinct batch objects it sees), that the values stay
 * right when batches go round many times (tiny channels, every wait strategy, a sequential model),
 * and that nothing is reused where a batch has a second reader or a keeper: a broadcast, a node of
 * the user's, a stage run again in another flow or fused into a node, an abandoned start.
 */
@Timeout(120)
class BatchRecyclingTest {

    @AfterEach
    void noHook() {
        Flow.threadStartHook = null;
    }

    /** A last stage that keeps no batch, as a sink of LongNodes, and counts the batch objects it saw. */
    private static final class Probe extends BatchStage<LongBatch, Void> {
        final Set<LongBatch> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        long[] values = new long[1024];
        int n;
        int batches;

        Probe() {
            super("probe", LongBatch.class, null);
        }

        @Override
        public void onItem(LongBatch in, Outbox<Void> out) {
            distinct.add(in);
            batches++;
            for (int i = 0; i < in.size; i++) {
                if (n == values.length) {
                    values = java.util.Arrays.copyOf(values, 2 * n);
                }
                values[n++] = in.values[i];
            }
            done(in);
        }

        long[] values() {
            return java.util.Arrays.copyOf(values, n);
        }
    }

    /** Every stage that makes batches, in front of the probe, reuses a few instead of making one per batch. */
    @Test
    void everyStageThatMakesBatchesReusesAFew() {
        long n = 500_000;
        long[] model = LongStream.rangeClosed(1, n).toArray();
        List<Supplier<List<Block<?, ?>>>> fronts = List.of(
                () -> List.of(LongNodes.range(1, n)),
                () -> List.of(LongNodes.source(out -> {
                    for (long i = 1; i <= n; i++) {
                        out.sendLong(i);
                    }
                })),
                () -> List.of(LongNodes.range(0, n - 1), LongNodes.map(x -> x + 1)),
                () -> List.of(LongNodes.range(1, 2 * n), LongNodes.filter(x -> x <= n)),
                () -> List.of(LongNodes.range(1, n), LongNodes.flatMap((out, x) -> out.sendLong(x))),
                () -> List.of(LongNodes.range(1, n), LongNodes.unbatch(), LongNodes.batch()));
        for (int k = 0; k < fronts.size(); k++) {
            Probe probe = new Probe();
            List<Block<?, ?>> stages = new ArrayList<>(fronts.get(k).get());
            Block<?, ?> last = stages.get(stages.size() - 1);
            String name = last instanceof Node ? ((Node<?, ?>) last).name() : last.toString();
            stages.add(probe);
            Runs.run(Pipeline.of(stages.toArray(new Block<?, ?>[0])),
                    FlowOptions.defaults().withChannels(ChannelSpec.bounded(8)));
            assertArrayEquals(model, probe.values(), "front " + k);
            // a channel of 8, a way back of 16 and the batches in the two stages' hands
            assertTrue(probe.distinct.size() <= 32, "front " + k + " (" + name + "): " + probe.distinct.size()
                    + " batch objects for " + probe.batches + " batches: not reused");
        }
    }

    /**
     * Tiny channels make every batch go round thousands of times; a stage that gave a batch back
     * before it had read it, or a producer that refilled one still in a channel, would change values.
     * Six stages under backoff and blocking; busy-spin (a core per node, see docs/core.md, "Channels and waiting") on two, a
     * range into the probe. At most 20,000 batches a run: with one-slot channels and blocking, every
     * batch is a park and an unpark per stage.
     */
    @Test
    void valuesStayRightWhileBatchesGoRound() {
        long seed = TestSeed.current();
        System.out.println("BatchRecyclingTest.valuesStayRightWhileBatchesGoRound seed " + seed);
        Random r = new Random(seed);
        List<WaitStrategy> strategies = List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
        for (int rep = 0; rep < 12; rep++) {
            int batch = 1 + r.nextInt(400);
            long n = 1 + r.nextInt(Math.min(400_000, 20_000 * batch));
            int capacity = 1 + r.nextInt(4);
            long mod = 2 + r.nextInt(5);
            WaitStrategy ws = strategies.get(rep % strategies.size());
            Probe probe = new Probe();
            long[] expected;
            if (ws == WaitStrategy.busySpin()) {
                Runs.run(Pipeline.of(LongNodes.range(1, n, batch), probe),
                        FlowOptions.defaults().withChannels(ChannelSpec.bounded(capacity)).withWaitStrategy(ws));
                expected = LongStream.rangeClosed(1, n).toArray();
            } else {
                Runs.run(Pipeline.of(LongNodes.range(1, n, batch), LongNodes.map(x -> 3 * x + 1),
                        LongNodes.filter(x -> x % mod != 0), LongNodes.flatMap((out, x) -> {
                            out.sendLong(x);
                            if (x % 7 == 0) {
                                out.sendLong(-x);
                            }
                        }), LongNodes.map(x -> x ^ 0x5555), probe),
                        FlowOptions.defaults().withChannels(ChannelSpec.bounded(capacity)).withWaitStrategy(ws));
                expected = LongStream.rangeClosed(1, n).map(x -> 3 * x + 1).filter(x -> x % mod != 0)
                        .flatMap(x -> x % 7 == 0 ? LongStream.of(x, -x) : LongStream.of(x)).map(x -> x ^ 0x5555)
                        .toArray();
            }
            String where = "seed " + seed + " rep " + rep + ": n " + n + ", batch " + batch + ", channel " + capacity
                    + ", " + ws;
            assertArrayEquals(expected, probe.values(), where);
            assertTrue(probe.batches < 64 || probe.distinct.size() < probe.batches / 2, where + ": not reused");
        }
    }

    /**
     * A range shorter than its batch size, between stages that recycle: the range made its one
     * batch of the batch size there (room for the batches it would refill), so a valid batch size of
     * Integer.MAX_VALUE failed with "Requested array size exceeds VM limit" where a node of the
     * user's after the range (no recycling) ran.
     */
    @Test
    void aRangeShorterThanItsBatchSizeMakesBatchesOfItsValues() {
        for (int batch : new int[] {Integer.MAX_VALUE, 10, 7}) {
            long[] sum = new long[1];
            Runs.run(Pipeline.of(LongNodes.range(1, 10, batch), LongNodes.map(x -> 2 * x), LongNodes.sink(x -> sum[0] += x)),
                    FlowOptions.defaults());
            assertEquals(110, sum[0], "batch size " + batch);
            List<Long> boxed = Collections.synchronizedList(new ArrayList<>());
            Runs.run(Pipeline.of(LongNodes.range(-3, 3, batch), LongNodes.unbatch(), Nodes.sink((Long x) -> boxed.add(x))), FlowOptions.defaults());
            assertEquals(List.of(-3L, -2L, -1L, 0L, 1L, 2L, 3L), boxed, "batch size " + batch);
        }
    }

    /**
     * A range as the emitter of a broadcasting farm sends each batch to two sinks of LongNodes, which
     * keep none: were the batch given back by one while the other still read it, the range would
     * refill it under the other's eyes.
     */
    @Test
    void aBroadcastBatchIsNotReused() {
        long n = 300_000;
        for (int rep = 0; rep < 10; rep++) {
            long[] sums = new long[2];
            List<Block<?, ?>> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int me = w;
                workers.add(LongNodes.sink(x -> {
                    sums[me] += x;
                    if (me == 1 && (x & 63) == 0) {
                        Thread.onSpinWait(); // the second reader lags behind the first
                    }
                }));
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            Farm<Object, Object> farm = (Farm) Farm.of(workers).dispatch(Dispatch.broadcast())
                    .emitter((Node) LongNodes.range(1, n));
            Runs.run(farm, FlowOptions.defaults().withChannels(ChannelSpec.bounded(2)));
            long expected = n * (n + 1) / 2;
            assertEquals(expected, sums[0], "rep " + rep + ": the first reader saw refilled batches");
            assertEquals(expected, sums[1], "rep " + rep + ": the second reader saw refilled batches");
        }
    }

    /** A node of the user's may keep the batches it receives and pass them on: none of them is refilled. */
    @Test
    void batchesAUserNodeKeepsAreNeverRefilled() {
        long n = 200_000;
        List<LongBatch> kept = new ArrayList<>();
        Node<LongBatch, LongBatch> keeper = Nodes.map((LongBatch b) -> {
            kept.add(b);
            return b;
        });
        long[] sum = {0};
        Runs.run(Pipeline.of(LongNodes.range(1, n), keeper, LongNodes.map(x -> x), LongNodes.sink(x -> sum[0] += x)),
                FlowOptions.defaults().withChannels(ChannelSpec.bounded(2)));
        assertEquals(n * (n + 1) / 2, sum[0]);
        assertArrayEquals(LongStream.rangeClosed(1, n).toArray(), flatten(kept), "a kept batch was refilled");
    }

    /**
     * A range and a map that recycled between them in one flow run again fused with a keeper in
     * between ({@code range.andThen(keeper).andThen(map)}, no edge): the map must not give the kept
     * batches to the range's old way back, where the range would take and refill them.
     */
    @Test
    void stagesRunAgainForgetTheirLastFlowsWayBack() {
        Source<LongBatch> range = LongNodes.range(1, 100_000);
        Node<LongBatch, LongBatch> map = LongNodes.map(x -> x);
        Probe first = new Probe();
        Runs.run(Pipeline.of(range, map, first), FlowOptions.defaults().withChannels(ChannelSpec.bounded(2)));
        assertTrue(first.distinct.size() < 32, "the first flow did not recycle: " + first.distinct.size());

        List<LongBatch> kept = new ArrayList<>();
        Node<LongBatch, LongBatch> keeper = Nodes.map((LongBatch b) -> {
            kept.add(b);
            return b;
        });
        long[] sum = {0};
        Runs.run(Pipeline.of(range.andThen(keeper).andThen(map), LongNodes.sink(x -> sum[0] += x)));
        assertEquals(100_000L * 100_001 / 2, sum[0]);
        assertArrayEquals(LongStream.rangeClosed(1, 100_000).toArray(), flatten(kept), "a kept batch was refilled");
    }

    /** A start given up after its stages were wired leaves none of them recycling. */
    @Test
    void anAbandonedStartLeavesNoStageRecycling() {
        BatchStage<?, ?> range = (BatchStage<?, ?>) LongNodes.range(1, 1_000);
        BatchStage<?, ?> map = (BatchStage<?, ?>) LongNodes.map(x -> x);
        RuntimeException boom = new RuntimeException("no more threads");
        Flow.threadStartHook = started -> {
            if (started == 1) {
                throw boom;
            }
        };
        @SuppressWarnings("unchecked")
        Pipeline<?, ?> p = Pipeline.of((Source<LongBatch>) range, (Node<LongBatch, LongBatch>) map, LongNodes.sink(x -> { }));
        assertSame(boom, assertThrows(RuntimeException.class, () -> Flow.start(p)));
        assertNull(range.takeFrom, "the range still takes from a way back");
        assertNull(map.giveTo, "the map still gives back");
    }

    /** A last stage of doubles that keeps no batch, and counts the batch objects it saw. */
    private static final class DoubleProbe extends BatchStage<DoubleBatch, Void> {
        final Set<DoubleBatch> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        double sum;
        int batches;

        DoubleProbe() {
            super("doubleProbe", DoubleBatch.class, null);
        }

        @Override
        public void onItem(DoubleBatch in, Outbox<Void> out) {
            distinct.add(in);
            batches++;
            for (int i = 0; i < in.size; i++) {
                sum += in.values[i];
            }
            done(in);
        }
    }

    /**
     * The double stages recycle the same way, across the crossings to and from longs too: every edge
     * here (range, fromLongs, map, filter, flatMap, toLongs, fromLongs, probe) passes batches back.
     */
    @Test
    void doubleStagesAndTheCrossingsReuseBatchesWithTheValuesRight() {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        for (int rep = 0; rep < 6; rep++) {
            long n = 100_000 + r.nextInt(200_000);
            int capacity = 1 + r.nextInt(4);
            DoubleProbe probe = new DoubleProbe();
            Runs.run(Pipeline.of(LongNodes.range(1, n), DoubleNodes.fromLongs(x -> x), DoubleNodes.map(x -> 2 * x),
                    DoubleNodes.filter(x -> x % 3 != 0), DoubleNodes.flatMap((out, x) -> out.sendDouble(x)),
                    DoubleNodes.toLongs(x -> (long) x), DoubleNodes.fromLongs(x -> x + 0.5), probe),
                    FlowOptions.defaults().withChannels(ChannelSpec.bounded(capacity)));
            double expected = LongStream.rangeClosed(1, n).map(x -> 2 * x).filter(x -> x % 3 != 0)
                    .mapToDouble(x -> x + 0.5).sum();
            String where = "seed " + seed + " rep " + rep + ": n " + n + ", channel " + capacity;
            assertEquals(expected, probe.sum, where); // exact: every partial sum is an integer + k/2 below 2^53
            assertTrue(probe.distinct.size() <= 32, where + ": " + probe.distinct.size() + " batch objects for "
                    + probe.batches + " batches: not reused");
        }
    }

    /**
     * Which edges recycle, read off the stages of a running flow: every edge from a batch stage to one
     * reading the class it sends, across the crossings between longs and doubles; none into or out of
     * a boxed stage, none from a broadcasting emitter.
     */
    @Test
    void everyEdgeBetweenBatchStagesOfOneClassRecyclesAndNoOther() throws Exception {
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<Node<?, ?>> stages = List.of(LongNodes.source(out -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    out.sendLong(1);
                }), DoubleNodes.fromLongs(x -> x), DoubleNodes.map(x -> x), DoubleNodes.filter(x -> true),
                DoubleNodes.flatMap((out, x) -> out.sendDouble(x)), DoubleNodes.toLongs(x -> (long) x),
                LongNodes.filter(x -> true), LongNodes.flatMap((out, x) -> out.sendLong(x)), LongNodes.unbatch(),
                Nodes.map((Long x) -> x), LongNodes.batch(), LongNodes.map(x -> x), DoubleNodes.fromLongs(x -> x),
                DoubleNodes.unbatch(), Nodes.map((Double x) -> x), DoubleNodes.batch(), DoubleNodes.sink(x -> { }));
        try (Flow flow = Flow.start(Pipeline.of(stages.toArray(new Block<?, ?>[0])))) {
            for (int i = 0; i + 1 < stages.size(); i++) {
                boolean batchEdge = stages.get(i) instanceof BatchStage && stages.get(i + 1) instanceof BatchStage
                        && !stages.get(i).name().endsWith("unbatch");
                BatchReturns sent = stages.get(i) instanceof BatchStage ? ((BatchStage<?, ?>) stages.get(i)).takeFrom : null;
                BatchReturns back = stages.get(i + 1) instanceof BatchStage
                        ? ((BatchStage<?, ?>) stages.get(i + 1)).giveTo : null;
                String edge = stages.get(i).name() + " -> " + stages.get(i + 1).name();
                if (batchEdge) {
                    assertTrue(sent != null && sent == back, edge + " does not recycle");
                } else {
                    assertTrue(sent == null && back == null, edge + " recycles");
                }
            }
            go.countDown();
            flow.join();
        }

        BatchStage<?, ?> emitter = (BatchStage<?, ?>) LongNodes.range(1, 1);
        BatchStage<?, ?> w0 = (BatchStage<?, ?>) LongNodes.sink(x -> { });
        BatchStage<?, ?> w1 = (BatchStage<?, ?>) LongNodes.sink(x -> { });
        @SuppressWarnings({"unchecked", "rawtypes"})
        Farm<Object, Object> broadcast = (Farm) Farm.of(List.of(w0, w1)).dispatch(Dispatch.broadcast()).emitter(emitter);
        assertEquals("none", recyclingAtStart(broadcast, emitter, w0, w1), "a broadcast edge recycles");

        // an ordered farm of one worker: every edge is one to one, but carries numbered items or units
        BatchStage<?, ?> first = (BatchStage<?, ?>) LongNodes.range(1, 1);
        BatchStage<?, ?> worker = (BatchStage<?, ?>) LongNodes.map(x -> x);
        BatchStage<?, ?> last = (BatchStage<?, ?>) LongNodes.sink(x -> { });
        @SuppressWarnings({"unchecked", "rawtypes"})
        Farm<Object, Object> ordered = (Farm) Farm.of(List.of(worker)).ordered().emitter(first).collector(last);
        assertEquals("none", recyclingAtStart(ordered, first, worker, last), "an ordered farm's edge recycles");
    }

    /**
     * Two batch stages inside a feedback loop, one to one: the edge between them does not recycle.
     * The rule keeps recycling out of loops on purpose, conservatively: only an edge in the middle
     * of a loop, like this one, could otherwise qualify, and no loop workload was measured to want it.
     */
    @Test
    void noEdgeInsideAFeedbackLoopRecycles() {
        BatchStage<?, ?> plusOne = (BatchStage<?, ?>) LongNodes.map(x -> x + 1);
        BatchStage<?, ?> twice = (BatchStage<?, ?>) LongNodes.map(x -> 2 * x);
        long[] back = {0};
        Source<LongBatch> head = new Source<>() {
            @Override
            public void generate(Outbox<LongBatch> out) {
                out.send(LongBatch.of(1, 2, 3));
            }

            @Override
            public void onFeedback(LongBatch x, Outbox<LongBatch> out) {
                for (int i = 0; i < x.size(); i++) {
                    back[0] += x.get(i);
                }
            }
        };
        @SuppressWarnings("unchecked")
        Pipeline<?, ?> loop = Pipeline.of(head, (Node<LongBatch, LongBatch>) plusOne,
                (Node<LongBatch, LongBatch>) twice).feedback();
        assertEquals("none", recyclingAtStart(loop, plusOne, twice), "an edge inside a feedback loop recycles");
        assertEquals(18, back[0], "(2 + 3 + 4) x 2 came back");
    }

    /** Runs {@code block}; which of {@code stages} recycled when its threads started, or "none". */
    private static String recyclingAtStart(Block<?, ?> block, BatchStage<?, ?>... stages) {
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
        Flow.threadStartHook = started -> {
            if (started == 0) {
                String s = "none";
                for (BatchStage<?, ?> st : stages) {
                    if (st.takeFrom != null || st.giveTo != null) {
                        s = st.name();
                    }
                }
                seen.set(s);
            }
        };
        Runs.run(block);
        return seen.get();
    }

    private static long[] flatten(List<LongBatch> batches) {
        return batches.stream().flatMapToLong(b -> LongStream.of(b.toArray())).toArray();
    }
}
