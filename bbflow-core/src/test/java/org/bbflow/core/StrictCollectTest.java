package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A strict collector behind a worker that breaks "one result per item" fails the flow instead of stalling. */
@Timeout(60)
class StrictCollectTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void roundRobinCollectorBehindADroppingWorkerFailsWithAClearError() {
        // worker 1 of 3 drops item 500 (item i goes to worker (i - 1) % 3)
        Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> Nodes.filter((Long x) -> x != 500))
                .collect(Collect.ROUND_ROBIN);
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(
                Pipeline.of(Nodes.range(1, 100_000), farm, Nodes.sink(x -> { })), FlowOptions.defaults(), DEADLINE));
        assertTrue(e.nodePath().endsWith("collector"), e.nodePath());
        String m = e.getCause().getMessage();
        assertTrue(m.contains("worker-1") && m.contains("sent none") && m.contains("ROUND_ROBIN"), m);
    }

    @Test
    void roundRobinCollectorBehindAPipelineWorkerThatDropsInItsFirstStageFails() {
        Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> Pipeline.of(
                Nodes.filter((Long x) -> x % 1000 != 0), Nodes.map((Long x) -> x))).collect(Collect.ROUND_ROBIN);
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(
                Pipeline.of(Nodes.range(1, 100_000), farm, Nodes.sink(x -> { })), FlowOptions.defaults(), DEADLINE));
        assertTrue(e.getCause().getMessage().contains("sent none"), e.getCause().getMessage());
    }

    @Test
    void gatherCollectorBehindAMultiplyingWorkerFails() {
        Farm<Long, Object> farm = Farm.<Long, Object>of(2, () -> Nodes.flatMap((Long x, Outbox<Long> o) -> {
            o.send(x);
            if (x == 7) {
                o.send(x);
            }
        })).collect(Collect.GATHER);
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(
                Pipeline.of(Nodes.range(1, 100_000), farm, Nodes.sink(x -> { })), FlowOptions.defaults(), DEADLINE));
        assertTrue(e.getCause().getMessage().contains("sent several"), e.getCause().getMessage());
    }

    @Test
    void wellBehavedWorkersStillWorkIncludingSendsFromOnEos() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> new Node<Long, Long>() {
            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.send(x * 10);
            }

            @Override
            public void onEos(Outbox<Long> o) {
                o.send(-1L);
            }
        }).collect(Collect.ROUND_ROBIN);
        Runs.run(Pipeline.of(Nodes.range(1, 9), farm, out.sink()));
        assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L, -1L, -1L, -1L), out.get());
    }

    /** A node that passes items on and sends -1 from its onEos. */
    private static Node<Long, Long> endsWithMinusOne() {
        return new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.send(x);
            }

            @Override
            public void onEos(Outbox<Long> o) {
                o.send(-1L);
            }
        };
    }

    /**
     * What a pipeline worker's first stage sends from its onEos is no item's result: the next stage may
     * drop it (or multiply it) without the strict collector taking that for a worker that sent none (or
     * several) for an item. Before, it failed the flow with that error.
     */
    @Test
    void aLaterStageMayDropOrMultiplyWhatAnEarlierStageSentFromOnEos() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Farm<Long, Long> dropping = Farm.<Long, Long>of(2, () -> Pipeline.of(endsWithMinusOne(),
                Nodes.filter((Long x) -> x > 0))).collect(Collect.ROUND_ROBIN);
        Runs.run(Pipeline.of(Nodes.range(1, 9), dropping, out.sink()), FlowOptions.defaults(), DEADLINE);
        assertEquals(Runs.range(1, 9), out.get());

        Runs.Collector<Object> rounds = new Runs.Collector<>();
        Farm<Long, Object> doubling = Farm.<Long, Object>of(2, () -> Pipeline.of(endsWithMinusOne(),
                Nodes.<Long, Long>flatMap((x, o) -> {
                    o.send(x);
                    if (x < 0) {
                        o.send(x - 1);
                    }
                }), endsWithMinusOne())).collect(Collect.GATHER);
        Runs.run(Pipeline.of(Nodes.range(1, 4), doubling, rounds.sink()), FlowOptions.defaults(), DEADLINE);
        // two rounds of results, then each worker's -1, -2 (from its first stage's onEos) and -1 (its last's)
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(-1L, -1L), List.of(-2L, -2L), List.of(-1L, -1L)),
                rounds.get());
    }

    /**
     * A user's emitter that feeds one worker with sendTo breaks the rhythm a strict collector reads in:
     * the collector waits on the other worker while the fed one's results fill its channel, and the
     * farm hung. sendTo is now refused where it is called, naming the emitter, as an ordered farm's
     * emitter refuses it.
     */
    @Test
    void anEmitterThatSendsToOneWorkerFailsInsteadOfStallingTheFarm() {
        for (Collect c : new Collect[] {Collect.ROUND_ROBIN, Collect.GATHER}) {
            Farm<Long, Object> farm = Farm.<Long, Object>of(2, () -> Nodes.map((Long x) -> x))
                    .emitter(Nodes.<Long, Long>flatMap((x, o) -> o.sendTo(0, x))).collect(c);
            FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.range(1, 100_000),
                    farm, Nodes.sink(x -> { })), FlowOptions.defaults(), DEADLINE));
            assertTrue(e.nodePath().endsWith("emitter"), e.nodePath());
            assertTrue(e.getCause() instanceof UnsupportedOperationException
                    && e.getCause().getMessage().contains("strict turn"), String.valueOf(e.getCause()));
        }
    }
}
