package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source's stream cut by a {@link StreamFailure} in each shape it can meet (the combination sweep
 * of session 11): every item sent before the error reaches the sinks, in order where the shape keeps
 * order, items still circulating in a feedback loop are all handled and the loop ends, {@code join()}
 * throws the cause naming the source, a collecting sink has no result, and no thread is left. Seeded
 * item counts (the seed is printed on failure).
 */
@Timeout(60)
class StreamFailureShapesTest {
    private static final IllegalStateException BOOM = new IllegalStateException("stream broke");

    private static Source<Long> failing(long n) {
        return Nodes.source(o -> {
            for (long i = 1; i <= n; i++) {
                o.send(i);
            }
            throw new StreamFailure(BOOM);
        });
    }

    private static long seededCount(int bound) {
        return 1 + new Random(TestSeed.current()).nextInt(bound);
    }

    private static void expectFailure(Pipeline<?, ?> p, String name) {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(p.named(name)));
        assertSame(BOOM, e.getCause(), String.valueOf(e));
        assertTrue(e.nodePath().startsWith(name + "/"), e.nodePath());
        assertEquals(List.of(), Runs.liveThreads(name));
    }

    private static List<Long> sorted(List<Long> l) {
        List<Long> s = new ArrayList<>(l);
        Collections.sort(s);
        return s;
    }

    /** Ends each item's trip at 0: sends x - 1 round again while positive, otherwise forward (output 1). */
    private static Node<Long, Long> countDown() {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x > 0) {
                o.send(x - 1);
            } else {
                o.sendTo(1, x);
            }
        });
    }

    /** A source heading a loop: it sends 1..n, then ends its stream with BOOM; fed-back items go round again. */
    private static final class LoopSource implements Source<Long> {
        final long n;

        LoopSource(long n) {
            this.n = n;
        }

        @Override
        public void generate(Outbox<Long> out) throws Exception {
            for (long i = 1; i <= n; i++) {
                out.send(i);
            }
            throw new StreamFailure(BOOM);
        }

        @Override
        public void onFeedback(Long item, Outbox<Long> out) {
            out.send(item);
        }
    }

    @RepeatedTest(3)
    void orderedFarmsDeliverEveryItemInOrder() {
        long n = seededCount(5000);
        Runs.Collector<Long> rr = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n), Farm.of(3, () -> Nodes.map((Long x) -> x)).ordered(16), rr.sink()), "sfs-o");
        assertEquals(Runs.range(1, n), rr.get());
        Runs.Collector<Long> od = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n), Farm.of(3, () -> Pipeline.of(Nodes.map((Long x) -> x),
                Nodes.<Long>identity().andThen(Nodes.map((Long x) -> x)))).dispatch(Dispatch.onDemand()).ordered(4),
                od.sink()), "sfs-od");
        assertEquals(Runs.range(1, n), od.get());
    }

    @RepeatedTest(3)
    void byKeyOnDemandAllToAllAndNestedFarmsDeliverEveryItem() {
        long n = seededCount(5000);
        Runs.Collector<Long> got = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n),
                Farm.of(3, () -> Nodes.map((Long x) -> x)).dispatch(Dispatch.byKey((Long x) -> x % 5)),
                AllToAll.<Long, Long>of(2, () -> Nodes.identity(), 3, () -> Nodes.identity()).dispatch(Dispatch.byKey((Long x) -> x)),
                Farm.of(2, () -> Pipeline.of(Nodes.<Long>identity(), Farm.of(2, () -> Nodes.<Long>identity())
                        .dispatch(Dispatch.onDemand()))),
                got.sink()), "sfs-mix");
        assertEquals(Runs.range(1, n), sorted(got.get()));
    }

    @RepeatedTest(3)
    void itemsCirculatingInALoopHeadedByTheSourceAreAllHandled() {
        long n = seededCount(300);
        Runs.Collector<Long> got = new Runs.Collector<>();
        expectFailure(Pipeline.of(Pipeline.of(new LoopSource(n), Farm.of(2, StreamFailureShapesTest::countDown)
                .withoutCollector()).feedback(), got.sink()), "sfs-loop");
        assertEquals(n, got.get().size());
        // a farm whose emitter is the source, closing the loop itself
        Runs.Collector<Long> done = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(3, StreamFailureShapesTest::countDown).emitter(new LoopSource(n))
                .feedback();
        expectFailure(Pipeline.of(farm, done.sink()), "sfs-eloop");
        assertEquals(n, done.get().size());
    }

    @RepeatedTest(3)
    void itemsCirculatingInLoopsAfterTheSourceAreAllHandled() {
        long n = seededCount(300);
        long[] finished = new long[1];
        Farm<Long, Long> masterWorker = Farm.<Long, Long>of(3, () -> Nodes.map((Long x) -> x - 1)).emitter(
                Nodes.flatMap((Long x, Outbox<Long> o) -> {
                    if (x > 0) {
                        o.send(x);
                    } else {
                        finished[0]++;
                    }
                })).feedback().withoutCollector();
        expectFailure(Pipeline.of(failing(n), masterWorker), "sfs-mw");
        assertEquals(n, finished[0]);

        Runs.Collector<Long> a2a = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n), AllToAll.<Long, Long>of(2, () -> Nodes.identity(), 3,
                () -> Nodes.<Long, Long>flatMap((x, o) -> {
                    if (x >= 10) {
                        o.send(x / 2);
                    } else {
                        o.sendTo(2, x);
                    }
                })).feedback(), a2a.sink()), "sfs-a2a");
        assertEquals(n, a2a.get().size());

        // an ordered farm inside a pipeline loop; the last stage sends back or forward
        Runs.Collector<Long> ordered = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n), Pipeline.of(Nodes.<Long>identity(),
                Farm.of(2, () -> Nodes.map((Long x) -> x)).ordered(8), countDown()).feedback(), ordered.sink()), "sfs-ol");
        assertEquals(n, ordered.get().size());
    }

    @RepeatedTest(3)
    void oneOfTwoSourcesFailsTheOtherStillDeliversAndBothFailuresAreKept() {
        long n = seededCount(2000);
        Runs.Collector<Long> got = new Runs.Collector<>();
        expectFailure(Pipeline.of(Farm.<Void, Long>of(List.of(failing(n), Nodes.range(10_001, 10_000 + n))).withoutEmitter(),
                got.sink()), "sfs-two");
        assertEquals(2 * n, got.get().size());

        // both fail: one error is the cause, the other is attached to it (fresh errors: suppressed ones accumulate)
        IllegalStateException one = new IllegalStateException("one stream broke");
        IllegalStateException other = new IllegalStateException("other stream broke");
        List<Source<Long>> sources = new ArrayList<>();
        for (IllegalStateException error : List.of(one, other)) {
            sources.add(Nodes.source(o -> {
                o.send(1L);
                throw new StreamFailure(error);
            }));
        }
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(
                Farm.<Void, Long>of(sources).withoutEmitter(), Nodes.sink(x -> { }))));
        assertTrue(e.getCause() == one || e.getCause() == other, String.valueOf(e.getCause()));
        assertEquals(List.of(e.getCause() == one ? other : one), List.of(e.getCause().getSuppressed()));
    }

    @Test
    void aCollectingSinkAfterAnOrderedFarmHasNoResult() {
        CollectorSink<Long, List<Long>> sink = Nodes.collect(Collectors.toList());
        expectFailure(Pipeline.of(failing(100), Farm.of(2, () -> Nodes.<Long>identity()).ordered(), sink), "sfs-cs");
        assertThrows(IllegalStateException.class, sink::result);
        FlowException e = assertThrows(FlowException.class, () -> Pipeline.of(failing(100),
                Farm.of(2, () -> Nodes.<Long>identity()).dispatch(Dispatch.onDemand())).run(Collectors.toList()));
        assertSame(BOOM, e.getCause());
    }

    /**
     * Wait strategies, MPSC channels into a first-come collector, and a boxed stream batched into longs
     * ({@code batch()} keeps values while input waits: its end of stream must send them).
     */
    @Test
    void strategiesMpscChannelsAndBatchingKeepEveryItem() {
        long n = 3000;
        for (WaitStrategy ws : List.of(WaitStrategy.blocking(), WaitStrategy.backoff(), WaitStrategy.busySpin())) {
            Runs.Collector<Long> got = new Runs.Collector<>();
            FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(failing(n),
                    Farm.of(2, () -> Nodes.<Long>identity()).ordered(8), got.sink()).named("sfs-ws"),
                    FlowOptions.defaults().withWaitStrategy(ws)));
            assertSame(BOOM, e.getCause());
            assertEquals(Runs.range(1, n), got.get(), ws.toString());
        }
        Runs.Collector<Long> mpsc = new Runs.Collector<>();
        expectFailure(Pipeline.of(failing(n), Farm.of(3, () -> Nodes.<Long>identity()).channels(ChannelSpec.mpsc(64)),
                mpsc.sink()), "sfs-mpsc");
        assertEquals(Runs.range(1, n), sorted(mpsc.get()));
        List<Long> longs = java.util.Collections.synchronizedList(new ArrayList<>());
        expectFailure(Pipeline.of(failing(n), LongNodes.batch(), LongNodes.map(x -> x), LongNodes.sink(longs::add)),
                "sfs-batch");
        assertEquals(Runs.range(1, n), longs);
    }

    /** The flow's future fails with the same error as join, after every item reached the sink. */
    @Test
    void theCompletionFutureFailsWithTheStreamsError() throws Exception {
        Runs.Collector<Long> got = new Runs.Collector<>();
        Flow flow = Flow.start(Pipeline.of(failing(500), Farm.of(2, () -> Nodes.<Long>identity()).ordered(), got.sink()));
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> flow.completion().get(60, java.util.concurrent.TimeUnit.SECONDS));
        assertSame(BOOM, e.getCause().getCause());
        assertEquals(Runs.range(1, 500), got.get());
        assertSame(BOOM, assertThrows(FlowException.class, flow::join).getCause());
        RunStats st = flow.stats(); // final counts of a failed flow add up
        assertEquals(500, st.nodes().get(0).itemsOut(), st.table());
        assertEquals(500, st.nodes().get(st.nodes().size() - 1).itemsIn(), st.table());
    }

    /** cancel() racing the stream's error: join throws one of the two, ends, and leaves no thread. */
    @RepeatedTest(5)
    void cancelRacingTheStreamsError() throws Exception {
        Random r = new Random(TestSeed.current());
        Flow flow = Flow.start(Pipeline.of(failing(r.nextInt(2000)), Farm.of(2, () -> Nodes.<Long>identity()).ordered(),
                Nodes.sink(x -> { })).named("sfs-cancel"));
        for (int i = r.nextInt(2000); i > 0; i--) {
            Thread.onSpinWait();
        }
        flow.cancel();
        FlowException e = assertThrows(FlowException.class, () -> flow.join(Runs.DEADLINE));
        assertTrue(e.getCause() == BOOM || e.getCause() instanceof CancellationException, String.valueOf(e.getCause()));
        assertEquals(List.of(), Runs.liveThreads("sfs-cancel"));
    }
}
