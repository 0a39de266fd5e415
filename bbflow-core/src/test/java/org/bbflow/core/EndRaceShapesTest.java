package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.function.Supplier;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * The end of a flow raced by {@code cancel()} or by a node's failure, in each shape (ordered farms,
 * round-robin and on demand, a feedback farm, an all-to-all loop, farms nested in farm workers, a comb
 * and a strict collector, unboxed longs through an ordered farm), and {@link Flow#stats()} read while a
 * feedback loop or an ordered farm runs: join never hangs, never loses the failure, never reports a
 * success over a failure, leaves no thread; live counts are never negative and the final ones add up.
 * Seeded moments (printed on failure). The sweep of session 11 found no defect here: regression tests.
 */
@Timeout(60)
class EndRaceShapesTest {

    static Farm<Long, Long> masterWorker(long[] finished) {
        return Farm.<Long, Long>of(3, () -> Nodes.map((Long x) -> x - 1)).emitter(
                Nodes.flatMap((Long x, Outbox<Long> o) -> {
                    if (x > 0) {
                        o.send(x);
                    } else {
                        finished[0]++;
                    }
                })).feedback().withoutCollector();
    }

    static List<Supplier<Block<?, ?>>> shapes() {
        List<Supplier<Block<?, ?>>> l = new ArrayList<>();
        l.add(() -> Pipeline.of(Nodes.range(1, 3000), Farm.of(3, () -> Nodes.<Long>identity()).ordered(8), Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(Nodes.range(1, 3000), Farm.of(3, () -> Nodes.<Long>identity()).dispatch(Dispatch.onDemand()).ordered(4), Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(Nodes.range(1, 200), masterWorker(new long[1])));
        l.add(() -> Pipeline.of(Nodes.range(1, 3000), AllToAll.<Long, Long>of(2, () -> Nodes.identity(), 3,
                () -> Nodes.<Long, Long>flatMap((x, o) -> { if (x >= 10) o.send(x / 2); else o.sendTo(2, x); })).feedback(),
                Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(Nodes.range(1, 3000), Farm.of(2, () -> Pipeline.of(Nodes.<Long>identity(),
                Farm.of(2, () -> Nodes.<Long>identity()).dispatch(Dispatch.onDemand()))), Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(Nodes.range(1, 3000), Nodes.<Long>identity().andThen(Nodes.map((Long x) -> x)),
                Farm.of(2, () -> Nodes.<Long>identity()).collect(Collect.ROUND_ROBIN), Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(Nodes.range(1, 300), Pipeline.of(Nodes.<Long>identity(), Farm.of(2,
                () -> Nodes.<Long>identity()).dispatch(Dispatch.onDemand()).ordered(4), Nodes.<Long, Long>flatMap((x, o) -> {
                    if (x > 0) {
                        o.send(x - 1);
                    } else {
                        o.sendTo(1, x);
                    }
                })).feedback(), Nodes.sink(x -> { })));
        l.add(() -> Pipeline.of(LongNodes.range(1, 30_000, 16), Farm.of(2, () -> LongNodes.map(x -> x)).ordered(),
                LongNodes.sink(x -> { })));
        return l;
    }

    /** The shapes of {@link #shapes()} whose node 1 heads a feedback loop (it reads more than the source sent). */
    private static final java.util.Set<Integer> LOOP_SHAPES = java.util.Set.of(2, 3, 6);

    /** cancel() at a random moment, in every shape: join ends, throws a cancellation or returns, no thread left. */
    @RepeatedTest(6)
    void cancelRacingTheEnd() throws Exception {
        Random r = new Random(TestSeed.current());
        int k = 0;
        for (Supplier<Block<?, ?>> s : shapes()) {
            String name = "cancel-" + k++;
            Block<?, ?> b = s.get();
            Flow flow = Flow.start(((Pipeline<?, ?>) b).named(name));
            for (int i = r.nextInt(20_000); i > 0; i--) {
                Thread.onSpinWait();
            }
            flow.cancel();
            try {
                flow.join(Duration.ofSeconds(20));
            } catch (FlowException e) {
                assertTrue(e.getCause() instanceof CancellationException, name + ": " + e);
            }
            assertEquals(List.of(), Runs.liveThreads(name), name);
            RunStats st = flow.stats();
            checkCounts(st, name);
            // after the end too, no consumer shows more than its producer sent: node 1 reads only the
            // source, except in the loop shapes (2, 3, 6), where it also reads what comes back
            if (!LOOP_SHAPES.contains(k - 1)) {
                assertTrue(st.nodes().get(1).itemsIn() <= st.nodes().get(0).itemsOut(), st.table());
            }
        }
    }

    /** No count is negative, and on each pipeline edge between single nodes the consumer never leads. */
    static void checkCounts(RunStats st, String name) {
        for (NodeStats n : st.nodes()) {
            assertTrue(n.itemsIn() >= 0 && n.itemsOut() >= 0, name + ": " + n);
        }
    }

    /** A node fails on its last item while the source ends: the failure, never a hang or a success. */
    @RepeatedTest(6)
    void failureRacingTheEnd() throws Exception {
        Random r = new Random(TestSeed.current());
        long n = 1 + r.nextInt(3000);
        IllegalStateException planted = new IllegalStateException("planted");
        List<Supplier<Node<Long, Long>>> bad = List.of(
                () -> Nodes.map((Long x) -> { if (x == n) throw planted; return x; }),
                () -> new Node<Long, Long>() {
                    public void onItem(Long x, Outbox<Long> o) { o.send(x); }
                    public void onEos(Outbox<Long> o) { throw planted; }
                });
        for (int v = 0; v < 2; v++) {
            Supplier<Node<Long, Long>> w = bad.get(v);
            List<Block<?, ?>> blocks = List.of(
                    Pipeline.of(Nodes.range(1, n), Farm.of(2, w::get).ordered(4), Nodes.sink(x -> { })),
                    Pipeline.of(Nodes.range(1, n), Farm.of(2, w::get).dispatch(Dispatch.onDemand()).ordered(2), Nodes.sink(x -> { })),
                    Pipeline.of(Nodes.range(1, n), AllToAll.<Long, Long>of(2, w::get, 2, () -> Nodes.identity()), Nodes.sink(x -> { })),
                    Pipeline.of(Nodes.range(1, n), w.get().andThen(Nodes.<Long>identity()), Nodes.sink(x -> { })),
                    Pipeline.of(Nodes.range(1, n), Farm.of(2, () -> Pipeline.of(w.get(), Farm.of(2, () -> Nodes.<Long>identity()))),
                            Nodes.sink(x -> { })));
            int k = 0;
            for (Block<?, ?> b : blocks) {
                String name = "fail-" + v + "-" + k++;
                FlowException e = assertThrows(FlowException.class, () -> Runs.run(((Pipeline<?, ?>) b).named(name)), name);
                assertTrue(e.getCause() == planted, name + ": " + e);
                assertEquals(List.of(), Runs.liveThreads(name), name);
            }
        }
    }

    /** Live stats of a feedback loop and of an ordered farm: never negative, consistent at the end. */
    @RepeatedTest(3)
    void statsWhileALoopRuns() {
        long[] finished = new long[1];
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 400), masterWorker(finished)).named("st-loop"));
        while (!flow.isDone()) {
            checkCounts(flow.stats(), "st-loop");
        }
        RunStats st = flow.join();
        assertEquals(400, finished[0]);
        NodeStats emitter = st.nodes().get(1);
        long workersIn = 0;
        long workersOut = 0;
        for (NodeStats s : st.nodes().subList(2, st.nodes().size())) {
            workersIn += s.itemsIn();
            workersOut += s.itemsOut();
        }
        assertEquals(emitter.itemsOut(), workersIn, st.table());
        assertEquals(400 + workersOut, emitter.itemsIn(), st.table());
    }

    @RepeatedTest(3)
    void statsWhileAnOrderedFarmRuns() {
        long n = 10_000;
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, n), Farm.of(3, () -> Nodes.<Long>identity())
                .dispatch(Dispatch.onDemand()).ordered(16), Nodes.sink(x -> { })).named("st-of"));
        while (!flow.isDone()) {
            RunStats s = flow.stats();
            checkCounts(s, "st-of");
            List<NodeStats> l = s.nodes();
            // read in one snapshot: no worker has more in than the emitter sent, the sink no more than the collector
            long wIn = 0;
            for (int i = 2; i < 5; i++) {
                wIn += l.get(i).itemsIn();
            }
            assertTrue(wIn <= l.get(1).itemsOut(), s.table());
            assertTrue(l.get(6).itemsIn() <= l.get(5).itemsOut(), s.table());
        }
        RunStats st = flow.join();
        List<NodeStats> l = st.nodes();
        assertEquals(n, l.get(0).itemsOut(), st.table());
        assertEquals(n, l.get(1).itemsIn(), st.table());
        assertEquals(n, l.get(1).itemsOut(), st.table());
        long wIn = 0;
        long wOut = 0;
        for (int i = 2; i < 5; i++) {
            wIn += l.get(i).itemsIn();
            wOut += l.get(i).itemsOut();
        }
        assertEquals(n, wIn, st.table());
        assertEquals(n, wOut, st.table());
        assertEquals(n, l.get(5).itemsIn(), st.table());
        assertEquals(n, l.get(6).itemsIn(), st.table());
    }
}
