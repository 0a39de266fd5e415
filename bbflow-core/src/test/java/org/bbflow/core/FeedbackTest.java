package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.testing.TestTier;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(120)
class FeedbackTest {

    static List<WaitStrategy> strategies() {
        return List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
    }

    /**
     * The emitter of a master-worker loop: sends every item above 0 round again, keeps the others in
     * {@code finished}, and counts the items it saw fed back.
     */
    private static Node<Long, Long> master(AtomicLong fedBack, Runs.Collector<Long> finished) {
        return new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                if (c.fromFeedback()) {
                    fedBack.incrementAndGet();
                }
                if (x > 0) {
                    o.send(x);
                } else {
                    finished.items.add(x);
                }
            }
        };
    }

    /**
     * Master-worker (FastFlow's wrap_around): each item loops back until it reaches zero; the
     * master counts how many times it saw each item. The flow must end by itself.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void masterWorkerLoopEndsWhenNothingIsInFlight(WaitStrategy ws) {
        for (int rep = 0; rep < 10; rep++) {
            AtomicLong fedBack = new AtomicLong();
            Runs.Collector<Long> finished = new Runs.Collector<>();
            Node<Long, Long> master = master(fedBack, finished);
            Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> Nodes.map((Long x) -> x - 1)).emitter(master).feedback()
                    .withoutCollector();
            Runs.run(Pipeline.of(Nodes.range(1, 50), farm), FlowOptions.defaults().withWaitStrategy(ws));
            // item k makes k trips: it is fed back k times
            assertEquals(50 * 51 / 2, fedBack.get());
            assertEquals(50, finished.get().size());
        }
    }

    /**
     * A worker that keeps items past its onItem (it answers them in batches) keeps them only while
     * {@link NodeContext#hasPendingInput()} says an item waits, and answers them all otherwise: the
     * loop must neither end early (the kept items would be lost, their answers refused after the
     * loop ended) nor hang. Fails if hasPendingInput said true with nothing waiting.
     */
    @ParameterizedTest
    @MethodSource("strategies")
    void aWorkerKeepingItemsWhileInputWaitsKeepsTheLoopOpen(WaitStrategy ws) {
        AtomicLong mostKept = new AtomicLong();
        // busy-spin runs 4 spinning threads on 2 cores here: 4 repetitions by default (6.7 s for 10)
        int reps = ws == WaitStrategy.busySpin() ? TestTier.pick(4, 10) : 10;
        for (int rep = 0; rep < reps; rep++) {
            AtomicLong fedBack = new AtomicLong();
            Runs.Collector<Long> finished = new Runs.Collector<>();
            Node<Long, Long> master = master(fedBack, finished);
            Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> new Node<Long, Long>() {
                final List<Long> kept = new ArrayList<>();
                NodeContext c;

                @Override
                public void init(NodeContext c) {
                    this.c = c;
                }

                @Override
                public void onItem(Long x, Outbox<Long> o) {
                    kept.add(x);
                    if (!c.hasPendingInput()) {
                        mostKept.accumulateAndGet(kept.size(), Math::max);
                        kept.forEach(k -> o.send(k - 1));
                        kept.clear();
                    }
                }

                @Override
                public void onEos(Outbox<Long> o) {
                    kept.forEach(k -> o.send(k - 1)); // fails the flow if anything was left: the loop ended
                }
            }).emitter(master).feedback().withoutCollector();
            Runs.run(Pipeline.of(Nodes.range(1, 200), farm), FlowOptions.defaults().withWaitStrategy(ws));
            assertEquals(200 * 201 / 2, fedBack.get(), "rep " + rep);
            assertEquals(200, finished.get().size(), "rep " + rep);
        }
        assertTrue(mostKept.get() > 1, "a worker kept several items at once: " + mostKept.get());
    }

    @RepeatedTest(10)
    void workersSendForwardWithSendTo1() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> Nodes.<Long, Long>flatMap((x, o) -> {
            if (x % 2 == 0) {
                o.sendTo(1, x); // forward to the collector
            } else {
                o.send(x + 1); // back to the emitter
            }
        })).feedback();
        Runs.run(Pipeline.of(Nodes.range(1, 100), farm, out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 100; i++) {
            expected.add(i % 2 == 0 ? i : i + 1);
        }
        List<Long> got = out.get();
        Collections.sort(got);
        Collections.sort(expected);
        assertEquals(expected, got);
    }

    @RepeatedTest(10)
    void feedbackFromCollector() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Node<Long, Long> collector = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x < 1000) {
                o.send(x * 2); // back
            } else {
                o.sendTo(1, x);
            }
        });
        Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> Nodes.map((Long x) -> x + 1)).collector(collector)
                .feedbackFromCollector();
        Runs.run(Pipeline.of(Nodes.range(1, 20), farm, out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 20; i++) {
            long y = i + 1;
            while (y < 1000) {
                y = y * 2 + 1;
            }
            expected.add(y);
        }
        List<Long> got = out.get();
        Collections.sort(got);
        Collections.sort(expected);
        assertEquals(expected, got);
    }

    @RepeatedTest(10)
    void pipelineFeedbackHeadedByASource() {
        // the source seeds 1..10; the loop doubles items until >= 100 then drops them, recording them
        List<Long> done = Collections.synchronizedList(new ArrayList<>());
        Source<Long> looping = new Source<>() {
            @Override
            public void generate(Outbox<Long> o) {
                for (long i = 1; i <= 10; i++) {
                    o.send(i);
                }
            }

            @Override
            public void onFeedback(Long x, Outbox<Long> o) {
                o.send(x);
            }
        };
        Node<Long, Long> doubler = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x >= 100) {
                done.add(x);
            } else {
                o.send(x * 2);
            }
        });
        Runs.run(Pipeline.of(looping, doubler).feedback());
        List<Long> got = new ArrayList<>(done);
        Collections.sort(got);
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 10; i++) {
            long y = i;
            while (y < 100) {
                y *= 2;
            }
            expected.add(y);
        }
        Collections.sort(expected);
        assertEquals(expected, got);
    }

    /** Below 100: back, plus 100 (and one copy more if odd); from 100 on: forward. */
    private static Node<Long, Long> router() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x >= 100) {
                o.sendTo(1, x);
            } else {
                o.send(x + 100);
                if (x % 2 == 1) {
                    o.send(x + 101);
                }
            }
        });
    }

    /** What the router makes of 1..n, through workers that add w. */
    private static List<Long> routed(long n, long w) {
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            long y = i + w;
            if (y >= 100) {
                expected.add(y);
                continue;
            }
            expected.add(y + 100 + w);
            if (y % 2 == 1) {
                expected.add(y + 101 + w);
            }
        }
        Collections.sort(expected);
        return expected;
    }

    /**
     * An ordered farm whose collector closes a loop (its own feedbackFromCollector(), the last stage of a
     * pipeline loop, or as the workers of a farm with feedback) runs: the collector puts the units in
     * order, then sends back like any node. Before, each shape was refused with "an ordered farm cannot
     * have feedback", though the farm itself had none; a strict collector in the same place ran.
     */
    @RepeatedTest(3)
    void anOrderedFarmsCollectorMayCloseALoop() {
        for (boolean onDemand : new boolean[] {false, true}) {
            Runs.Collector<Long> own = new Runs.Collector<>();
            Runs.run(Pipeline.of(Nodes.range(1, 200), orderedFarm(onDemand).feedbackFromCollector(), own.sink()));
            assertEquals(routed(200, 1), sorted(own.get()), "feedbackFromCollector, on demand " + onDemand);

            Runs.Collector<Long> last = new Runs.Collector<>();
            Runs.run(Pipeline.of(Nodes.range(1, 200), Pipeline.of(Nodes.identity(), orderedFarm(onDemand)).feedback(),
                    last.sink()));
            assertEquals(routed(200, 1), sorted(last.get()), "last stage of a loop, on demand " + onDemand);

            Runs.Collector<Long> inner = new Runs.Collector<>();
            Runs.run(Pipeline.of(Nodes.range(1, 200), Farm.<Long, Long>of(2, () -> orderedFarm(onDemand)).feedback(),
                    inner.sink()));
            assertEquals(routed(200, 1), sorted(inner.get()), "workers of a farm with feedback, on demand " + onDemand);
        }
    }

    private static Farm<Long, Long> orderedFarm(boolean onDemand) {
        Farm<Long, Long> f = Farm.<Long, Long>of(3, () -> Pipeline.of(Nodes.map((Long x) -> x + 1),
                Nodes.filter((Long x) -> true))).collector(router());
        return onDemand ? f.dispatch(Dispatch.onDemand()).ordered(4) : f.ordered();
    }

    private static List<Long> sorted(List<Long> l) {
        List<Long> c = new ArrayList<>(l);
        Collections.sort(c);
        return c;
    }

    /**
     * A loop whose head is a source that does not override {@link Source#onFeedback} (a range, a
     * lambda source, a publisher's or a channel's source), alone or first in a comb, or a farm's
     * emitter: refused at start, naming it. It started, and failed at the first item fed back.
     */
    @Test
    void aLoopHeadedByASourceThatTakesNoFeedbackIsRefusedAtStart() {
        List<java.util.function.Supplier<Block<?, ?>>> shapes = List.of(
                () -> Pipeline.of(Nodes.range(1, 10), countDown()).feedback(),
                () -> Pipeline.of(Nodes.<Long>source(o -> o.send(3L)), Farm.of(2, FeedbackTest::countDown)
                        .withoutCollector()).feedback(),
                () -> Pipeline.of(Comb.of(Nodes.range(1, 10), Nodes.<Long>identity()), countDown()).feedback(),
                () -> Farm.<Long, Long>of(2, FeedbackTest::countDown).emitter(Nodes.range(1, 10)).feedback());
        for (java.util.function.Supplier<Block<?, ?>> s : shapes) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                try (Flow flow = Flow.start(s.get())) {
                    flow.join(Runs.DEADLINE); // started (wrongly): its failure is not the refusal asked for
                }
            });
            assertTrue(e.getMessage().contains("does not override Source.onFeedback"), e.getMessage());
        }
    }

    /** Sends x - 1 back while positive, x forward (output 1) at 0. */
    private static Node<Long, Long> countDown() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x > 0) {
                o.send(x - 1);
            } else {
                o.sendTo(1, x);
            }
        });
    }
}
