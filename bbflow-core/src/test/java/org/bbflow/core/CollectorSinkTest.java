package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collector;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A flow's output as a value: {@link Block#run(Collector)}, {@link Chain#run(Collector)}, {@link CollectorSink}. */
@Timeout(60)
class CollectorSinkTest {
    private static final int N = 20_000;
    private static final IllegalStateException BOOM = new IllegalStateException("boom");

    private static List<Long> squares(int n) {
        return LongStream.rangeClosed(1, n).map(x -> x * x).boxed().collect(Collectors.toList());
    }

    @Test
    void aChainRunsIntoACollectorAndReturnsItsResult() {
        List<String> labels = Pipeline.from(Nodes.range(1, 3)).map(x -> "item " + x).run(Collectors.toList());
        assertEquals(List.of("item 1", "item 2", "item 3"), labels);
    }

    @Test
    void anOrderedFarmCollectsInInputOrder() {
        List<Long> out = Pipeline.from(Nodes.range(1, N))
                .then(Farm.of(4, () -> Nodes.map((Long x) -> x * x)).ordered())
                .run(Collectors.toList());
        assertEquals(squares(N), out);
    }

    @Test
    void anUnorderedFarmCollectsEveryResultOnce() {
        Map<Long, Long> byLastDigit = Pipeline.from(Nodes.range(1, N))
                .then(Farm.of(4, () -> Nodes.map((Long x) -> x * x)))
                .run(Collectors.groupingBy(x -> x % 10, Collectors.counting()));
        assertEquals(squares(N).stream().collect(Collectors.groupingBy(x -> x % 10, Collectors.counting())), byLastDigit);
    }

    @Test
    void everyExitOfAFarmWithoutCollectorFeedsTheOneSink() {
        // four workers, four exit ports, one collecting sink reading all four (N x 1)
        Farm<Long, Long> farm = Farm.<Long, Long>of(4, () -> Nodes.map((Long x) -> x * x)).withoutCollector();
        List<Long> out = Pipeline.<Void, Long>of(Nodes.range(1, N), farm).run(Collectors.toList());
        List<Long> sorted = new ArrayList<>(out);
        sorted.sort(null);
        assertEquals(squares(N), sorted);
    }

    @Test
    void anAllToAllsRightMembersFeedTheOneSink() {
        long sum = Pipeline.<Void, Long>of(Nodes.range(1, N),
                AllToAll.<Long, Long>of(2, () -> Nodes.map((Long x) -> x), 3, () -> Nodes.map((Long x) -> 2 * x)))
                .run(Collectors.summingLong(x -> x));
        assertEquals((long) N * (N + 1), sum);
    }

    @Test
    void aPlacedSinkHoldsTheResultAfterJoin() throws Exception {
        CollectorSink<Long, Long> total = Nodes.collect(Collectors.summingLong(x -> x));
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.map((Long x) -> x * x), total));
        flow.join(Duration.ofSeconds(30));
        assertEquals(338_350L, total.result());
    }

    @Test
    void aSinkRunsAgainFromAnEmptyContainer() {
        CollectorSink<Long, List<Long>> sink = Nodes.collect(Collectors.toList());
        Runs.run(Pipeline.of(Nodes.range(1, 3), sink));
        assertEquals(List.of(1L, 2L, 3L), sink.result());
        Runs.run(Pipeline.of(Nodes.range(7, 8), sink));
        assertEquals(List.of(7L, 8L), sink.result());
    }

    @Test
    void aNullResultIsAResult() {
        assertNull(Pipeline.from(Nodes.range(1, 3)).run(Collectors.collectingAndThen(Collectors.toList(), l -> null)));
    }

    @Test
    void noResultBeforeTheFlowEnded() throws Exception {
        CollectorSink<Long, List<Long>> sink = Nodes.collect(Collectors.toList());
        assertThrows(IllegalStateException.class, sink::result);
        CountDownLatch release = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 3), Nodes.map((Long x) -> {
            release.await();
            return x;
        }), sink));
        assertThrows(IllegalStateException.class, sink::result);
        release.countDown();
        flow.join(Duration.ofSeconds(30));
        assertEquals(List.of(1L, 2L, 3L), sink.result());
    }

    @Test
    void aFailingWorkerFailsTheRunWithNoResult() {
        CollectorSink<Long, List<Long>> sink = Nodes.collect(Collectors.toList());
        Block<Void, Void> p = Pipeline.of(Nodes.range(1, N), Farm.of(4, () -> Nodes.map((Long x) -> {
            if (x == N / 2) {
                throw BOOM;
            }
            return x;
        })), sink);
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(p));
        assertSame(BOOM, e.getCause());
        assertThrows(IllegalStateException.class, sink::result, "a partial list presented as the result");
    }

    @Test
    void theTypedRunThrowsInsteadOfReturningAPartialResult() {
        FlowException e = assertThrows(FlowException.class, () -> Pipeline.from(Nodes.range(1, N))
                .map(x -> {
                    if (x == N - 1) {
                        throw BOOM;
                    }
                    return x;
                })
                .run(Collectors.toList()));
        assertSame(BOOM, e.getCause());
    }

    @Test
    void aStageFailingAfterItsLastItemStillFailsTheTypedRun() {
        // the sink sees a complete stream, but the flow fails (the map stage's close): no result
        Node<Long, Long> closeFails = new Node<>() {
            @Override
            public void onItem(Long item, Outbox<Long> out) {
                out.send(item);
            }

            @Override
            public void close() {
                throw BOOM;
            }
        };
        FlowException e = assertThrows(FlowException.class,
                () -> Pipeline.from(Nodes.range(1, 10)).then(closeFails).run(Collectors.toList()));
        assertSame(BOOM, e.getCause());
    }

    @Test
    void eachFunctionOfTheCollectorFailsTheFlowNamingTheSink() {
        List<Collector<Long, ?, ?>> failing = List.of(
                Collector.of(() -> {
                    throw BOOM;
                }, (List<Long> l, Long x) -> { }, (a, b) -> a),
                Collector.of(ArrayList::new, (List<Long> l, Long x) -> {
                    throw BOOM;
                }, (a, b) -> a),
                Collector.of(ArrayList::new, List::add, (a, b) -> a, (Function<List<Long>, Object>) l -> {
                    throw BOOM;
                }));
        for (Collector<Long, ?, ?> c : failing) {
            FlowException e = assertThrows(FlowException.class, () -> Pipeline.from(Nodes.range(1, 10)).run(c));
            assertSame(BOOM, e.getCause());
            assertTrue(e.nodePath().contains("/collect"), e.nodePath());
        }
    }

    @Test
    void cancellingTheFlowLeavesNoResult() throws Exception {
        CollectorSink<Long, List<Long>> sink = Nodes.collect(Collectors.toList());
        CountDownLatch someCollected = new CountDownLatch(100);
        Flow flow = Flow.start(Pipeline.of(FailureTest.endless(), Nodes.map((Long x) -> {
            someCollected.countDown();
            return x;
        }), sink));
        assertTrue(someCollected.await(30, TimeUnit.SECONDS));
        flow.cancel();
        FlowException e = assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
        assertInstanceOf(CancellationException.class, e.getCause());
        assertThrows(IllegalStateException.class, sink::result, "the items collected before the cancel are no result");
    }

    @Test
    void aNullCollectorIsRefusedAtOnce() {
        assertThrows(NullPointerException.class, () -> Nodes.collect(null));
    }
}
