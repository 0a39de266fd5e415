package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where the unit protocol of ordered and strict farms meets other features (issue 28, findings 1-3):
 * a farm inside an ordered farm's worker, an ordered farm inside a feedback loop whose workers drop
 * or multiply items, a strict (gather) farm inside a loop, and {@code LongNodes.batch()} /
 * {@code DoubleNodes.batch()} inside an ordered farm's worker. Each shape either runs exactly (the
 * sequential oracle) or is refused at start with an error naming the block and the rule; a hang is
 * a failure (a deadline, with the flow's statistics).
 */
@Timeout(120)
class UnitRegionTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** x -> 10x, 10x + 1: two results per item. */
    private static Node<Long, Long> twoPerItem() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            o.send(10 * x);
            o.send(10 * x + 1);
        });
    }

    private static List<Long> twoPerItem(long n) {
        List<Long> l = new ArrayList<>();
        for (long x = 1; x <= n; x++) {
            l.add(10 * x);
            l.add(10 * x + 1);
        }
        return l;
    }

    private static void refusedNaming(Supplier<Block<?, ?>> shape, String... parts) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(shape.get()));
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "'" + p + "' not in: " + e.getMessage());
        }
    }

    // ---- finding 1: a farm inside an ordered (or strict) farm's worker --------------------------

    @Test
    void aRoundRobinOrderedFarmInsideAnOrderedFarmsWorkerIsRefused() {
        // today: accepted (the inner farm has one worker, so its nodes form a chain), and the outer
        // output comes out 10, 20, 11, 21, ...: each unit is re-emitted item by item
        refusedNaming(() -> Pipeline.of(Nodes.range(1, 1000),
                Farm.of(2, () -> Farm.of(1, UnitRegionTest::twoPerItem).ordered()).ordered(),
                Nodes.sink(x -> { })), "ordered units", "worker-0");
    }

    @Test
    void anOnDemandOrderedFarmInsideAnOrderedFarmsWorkerIsRefused() {
        // today: accepted, and 5,000 items give no result: the flow hangs
        refusedNaming(() -> Pipeline.of(Nodes.range(1, 5000),
                Farm.of(2, () -> Pipeline.of(Nodes.identity(),
                        Farm.of(1, UnitRegionTest::twoPerItem).dispatch(Dispatch.onDemand()).ordered())).ordered(),
                Nodes.sink(x -> { })), "ordered units", "farm");
    }

    @Test
    void aFarmInsideAStrictFarmsWorkerIsRefused() {
        refusedNaming(() -> Pipeline.of(Nodes.range(1, 1000),
                Farm.of(2, () -> Farm.of(1, () -> Nodes.map((Long x) -> x)).ordered()).collect(Collect.ROUND_ROBIN),
                Nodes.sink(x -> { })), "strict collector", "ROUND_ROBIN");
    }

    @Test
    void theSameShapeIsAcceptedOrRefusedWhateverTheInnerWorkerCount() {
        // a worker count derived from cores gives 1 on 2 cores and more elsewhere: the verdict must not depend on it
        for (int inner = 1; inner <= 3; inner++) {
            int n = inner;
            refusedNaming(() -> Pipeline.of(Nodes.range(1, 10),
                    Farm.of(2, () -> Farm.of(n, () -> Nodes.map((Long x) -> x))).ordered(), Nodes.sink(x -> { })),
                    "ordered units");
        }
    }

    @Test
    void pipelinesOfNodesAndCombsInsideAnOrderedFarmsWorkerStillKeepOrder() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 20_000),
                Farm.of(3, () -> Pipeline.of(Nodes.identity(), twoPerItem().andThen(Nodes.identity()))).ordered(),
                out.sink()), FlowOptions.defaults(), DEADLINE);
        assertEquals(twoPerItem(20_000), out.get());
    }

    // ---- finding 2: an ordered farm inside a feedback loop ---------------------------------------

    /** The loop's last stage: x above 1000 goes round again as x / 2; others leave, negated. */
    private static Node<Long, Long> backOrOut() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x > 1000) {
                o.send(x / 2); // back to the loop's head
            } else {
                o.sendTo(1, -x); // forward, out of the loop
            }
        });
    }

    /** The worker: drops multiples of 3, sends x, and also x + 1 when x % 3 == 1. */
    private static Node<Long, Long> dropOrMultiply() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x % 3 == 0) {
                return;
            }
            o.send(x);
            if (x % 3 == 1) {
                o.send(x + 1);
            }
        });
    }

    private static List<Long> loopOracle(long n) {
        List<Long> out = new ArrayList<>();
        List<Long> work = new ArrayList<>(Runs.range(1, n));
        while (!work.isEmpty()) {
            List<Long> next = new ArrayList<>();
            for (long x : work) {
                List<Long> produced = new ArrayList<>();
                if (x % 3 != 0) {
                    produced.add(x);
                    if (x % 3 == 1) {
                        produced.add(x + 1);
                    }
                }
                for (long y : produced) {
                    if (y > 1000) {
                        next.add(y / 2);
                    } else {
                        out.add(-y);
                    }
                }
            }
            work = next;
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void anOrderedFarmWhoseWorkersDropOrMultiplyRunsInsideAFeedbackLoop() {
        for (Dispatch d : List.of(Dispatch.roundRobin(), Dispatch.onDemand())) {
            Runs.Collector<Long> out = new Runs.Collector<>();
            Farm<Long, Long> ordered = Farm.<Long, Long>of(2, UnitRegionTest::dropOrMultiply).dispatch(d).ordered();
            // today: every item leaves, then the loop never ends (the unit markers stay counted in flight)
            Runs.run(Pipeline.of(Nodes.range(1, 3000),
                    Pipeline.of(Nodes.identity(), ordered, backOrOut()).feedback(), out.sink()),
                    FlowOptions.defaults(), DEADLINE);
            List<Long> got = out.get();
            Collections.sort(got);
            assertEquals(loopOracle(3000), got, "dispatch " + d);
        }
    }

    @Test
    void aGatherFarmRunsInsideAFeedbackLoop() {
        // a gathered round is one delivery of the collector's, but each result in it was counted in
        // flight on its way there: each must leave the loop's count (today the loop never ends)
        Runs.Collector<Long> out = new Runs.Collector<>();
        Farm<Long, Object> gather = Farm.<Long, Object>of(2, () -> Nodes.map((Long x) -> x))
                .dispatch(Dispatch.broadcast()).collect(Collect.GATHER);
        Node<Object, Long> lastStage = Nodes.flatMap((Object round, Outbox<Long> o) -> {
            List<?> r = (List<?>) round;
            long y = (Long) r.get(0);
            if (r.size() != 2 || (Long) r.get(1) != y) {
                throw new AssertionError("a round of a broadcast item: " + r);
            }
            if (y > 500) {
                o.send(y - 500);
            } else {
                o.sendTo(1, y);
            }
        });
        Runs.run(Pipeline.of(Nodes.range(1, 2000),
                Pipeline.of(Nodes.map((Long x) -> x), gather, lastStage).feedback(), out.sink()),
                FlowOptions.defaults(), DEADLINE);
        List<Long> expected = new ArrayList<>();
        for (long x = 1; x <= 2000; x++) {
            long y = x;
            while (y > 500) {
                y -= 500;
            }
            expected.add(y);
        }
        List<Long> got = out.get();
        Collections.sort(expected);
        Collections.sort(got);
        assertEquals(expected, got);
    }

    @Test
    void aGatherFarmWithRoundRobinDispatchInsideAFeedbackLoopIsRefused() {
        // found by the generator: a round waits for an item of every worker, and when the items in
        // flight do not fill it, what would come back to complete it is held in the round (a hang)
        refusedNaming(() -> Pipeline.of(Nodes.range(1, 100), Pipeline.of(Nodes.map((Long x) -> x),
                Farm.<Long, Object>of(3, () -> Nodes.map((Long x) -> x)).collect(Collect.GATHER),
                Nodes.flatMap((Object round, Outbox<Long> o) -> o.sendTo(1, (long) ((List<?>) round).size()))).feedback(),
                Nodes.sink(x -> { })), "strict collector", "GATHER", "feedback loop");
    }

    // ---- finding 3: batch() inside an ordered farm's worker --------------------------------------

    @Test
    void longBatchInsideAnOrderedFarmKeepsOrderValueByValue() {
        int n = 200_000;
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, n),
                Farm.of(2, () -> Pipeline.of(LongNodes.batch(), LongNodes.map(x -> 2 * x), LongNodes.unbatch())).ordered(),
                out.sink()), FlowOptions.defaults(), DEADLINE);
        List<Long> got = out.get();
        assertEquals(n, got.size());
        int inversions = 0;
        for (int i = 0; i < n; i++) {
            if (got.get(i) != 2L * (i + 1)) {
                inversions++;
            }
        }
        assertEquals(0, inversions, "values out of input order");
    }

    @Test
    void doubleBatchInsideAnOrderedFarmKeepsOrderValueByValue() {
        int n = 200_000;
        Runs.Collector<Double> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, n), Nodes.map((Long x) -> (double) x),
                Farm.of(2, () -> Pipeline.of(DoubleNodes.batch(), DoubleNodes.map(x -> -x), DoubleNodes.unbatch())).ordered(),
                out.sink()), FlowOptions.defaults(), DEADLINE);
        List<Double> got = out.get();
        assertEquals(n, got.size());
        int inversions = 0;
        for (int i = 0; i < n; i++) {
            if (got.get(i) != -(double) (i + 1)) {
                inversions++;
            }
        }
        assertEquals(0, inversions, "values out of input order");
    }
}
