package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.bbflow.core.ChannelSpec;
import org.bbflow.core.FlowException;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.reactive.FlowPublisher;
import org.bbflow.core.reactive.PublisherSource;
import org.bbflow.examples.reactive.ReactorBridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Subscription;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/** Reactor on either side of the java.util.concurrent.Flow bridge: results, demand, cancellation, errors. */
@Timeout(60)
class ReactorBridgeTest {
    private static final IllegalStateException BOOM = new IllegalStateException("boom");
    private static final int N = 50_000;

    private static Flux<Long> numbers(int n) {
        return Flux.range(1, n).map(Integer::longValue);
    }

    /** Threads of flows still alive (node threads are named after their block path). */
    private static List<String> flowThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("pipeline/")).collect(Collectors.toList());
    }

    private static void awaitNoFlowThreads() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!flowThreads().isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "flow threads still alive: " + flowThreads());
            Thread.sleep(10);
        }
    }

    @Test
    void fluxToFarmToFluxIsExactAndInOrder() {
        List<Long> squares = JdkFlowAdapter.flowPublisherToFlux(
                ReactorBridge.squares(JdkFlowAdapter.publisherToFlowPublisher(numbers(N)), 4)).collectList().block();
        assertEquals(LongStream.rangeClosed(1, N).map(x -> x * x).boxed().collect(Collectors.toList()), squares);
    }

    @Test
    void eachSubscriberRunsItsOwnFlow() {
        Flux<Long> squares = JdkFlowAdapter.flowPublisherToFlux(
                ReactorBridge.squares(JdkFlowAdapter.publisherToFlowPublisher(numbers(100)), 2));
        assertEquals(338_350L, squares.reduce(0L, Long::sum).block());
        assertEquals(List.of(1L, 4L, 9L), squares.take(3).collectList().block());
    }

    @Test
    void theSourceNeverHasMoreThanItsPrefetchRequestedAndNotTaken() {
        AtomicLong requested = new AtomicLong();
        AtomicLong emitted = new AtomicLong();
        AtomicLong worstAhead = new AtomicLong();
        Flux<Long> upstream = numbers(N)
                .doOnRequest(n -> requested.addAndGet(n))
                .doOnNext(x -> worstAhead.accumulateAndGet(requested.get() - emitted.incrementAndGet(), Math::max));
        long sum = Pipeline.from(PublisherSource.of(JdkFlowAdapter.publisherToFlowPublisher(upstream), 32))
                .then(Nodes.map((Long x) -> x))
                .run(Collectors.summingLong(x -> x));
        assertEquals((long) N * (N + 1) / 2, sum);
        assertTrue(worstAhead.get() < 32, "outstanding demand " + worstAhead.get() + " exceeds the prefetch of 32");
    }

    @Test
    void aSlowSubscriberHoldsTheFlowBack() throws Exception {
        // Bounded channels of 16 between three stages: however long the subscriber waits, the source
        // can be at most the demand plus what the channels and the stages hold ahead of it.
        AtomicLong produced = new AtomicLong();
        FlowPublisher<Long> publisher = FlowPublisher.of(() -> Pipeline.from(Nodes.<Long>source(out -> {
            for (long i = 0; ; i++) {
                out.send(i);
                produced.incrementAndGet();
            }
        })).then(Nodes.map((Long x) -> x)).build(), FlowOptions.defaults().withChannels(ChannelSpec.bounded(16)));
        CountDownLatch ten = new CountDownLatch(10);
        BaseSubscriber<Long> slow = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                s.request(10);
            }

            @Override
            protected void hookOnNext(Long x) {
                ten.countDown();
            }
        };
        JdkFlowAdapter.flowPublisherToFlux(publisher).subscribe(slow);
        assertTrue(ten.await(30, TimeUnit.SECONDS));
        Thread.sleep(200); // time for a runaway source to show itself; a correct one is bounded whatever the wait
        long bound = 10 + 2 * 16 + 4;
        assertTrue(produced.get() <= bound, produced.get() + " items produced for a demand of 10 (bound " + bound + ")");
        slow.dispose();
        awaitNoFlowThreads();
    }

    @Test
    void takingFewItemsCancelsTheEndlessFlow() throws Exception {
        FlowPublisher<Long> endless = FlowPublisher.of(() -> Nodes.range(0, Long.MAX_VALUE));
        assertEquals(List.of(0L, 1L, 2L), JdkFlowAdapter.flowPublisherToFlux(endless).take(3).collectList().block());
        awaitNoFlowThreads();
    }

    @Test
    void aFailingFlowCancelsTheUpstreamSubscription() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        Flux<Long> endless = Flux.<Long, Long>generate(() -> 0L, (i, sink) -> {
            sink.next(i);
            return i + 1;
        }).doOnCancel(cancelled::countDown);
        FlowException e = assertThrows(FlowException.class,
                () -> Pipeline.from(PublisherSource.of(JdkFlowAdapter.publisherToFlowPublisher(endless)))
                        .map(x -> {
                            if (x == 1_000) {
                                throw BOOM;
                            }
                            return x;
                        })
                        .run(Collectors.counting()));
        assertSame(BOOM, e.getCause());
        assertTrue(cancelled.await(30, TimeUnit.SECONDS), "the Flux's subscription was not cancelled");
    }

    @Test
    void anUpstreamErrorFailsTheFlowWithItAsCause() {
        Flux<Long> failing = numbers(5).concatWith(Flux.error(BOOM));
        FlowException e = assertThrows(FlowException.class,
                () -> Pipeline.from(PublisherSource.of(JdkFlowAdapter.publisherToFlowPublisher(failing))).run(Collectors.toList()));
        assertSame(BOOM, e.getCause());
    }

    @Test
    void aFlowFailureReachesTheSubscriberAsOnError() throws Exception {
        FlowPublisher<Long> failing = FlowPublisher.of(() -> Pipeline.from(Nodes.range(1, 100)).map(x -> {
            if (x == 50) {
                throw BOOM;
            }
            return x;
        }).build());
        Throwable t = assertThrows(Throwable.class,
                () -> JdkFlowAdapter.flowPublisherToFlux(failing).collectList().block(Duration.ofSeconds(30)));
        assertInstanceOf(FlowException.class, t, t.toString());
        assertSame(BOOM, t.getCause());
        awaitNoFlowThreads();
    }
}
