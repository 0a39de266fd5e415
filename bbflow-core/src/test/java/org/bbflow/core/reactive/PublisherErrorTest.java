package org.bbflow.core.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.bbflow.core.CollectorSink;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowException;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.Test;

/**
 * A publisher's {@code onError} after items: every item it delivered before the error goes through
 * the flow to its sink, in order, and only then does the flow fail, with the publisher's exception
 * as the cause (the error is a terminal signal after the items, not a crash that drops them).
 */
class PublisherErrorTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** Sends {@code count} items (1..count) against demand, on the requesting thread, then onError. */
    private static final class ItemsThenError implements Flow.Publisher<Long> {
        final int count;
        final Exception error;

        ItemsThenError(int count, Exception error) {
            this.count = count;
            this.error = error;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super Long> s) {
            s.onSubscribe(new Flow.Subscription() {
                private long next = 1;
                private long demand;
                private boolean emitting;
                private boolean ended;

                @Override
                public synchronized void request(long n) {
                    demand += n;
                    if (emitting) {
                        return; // rule 3.3: a request from inside onNext only adds demand
                    }
                    emitting = true;
                    while (!ended && demand > 0 && next <= count) {
                        demand--;
                        s.onNext(next++);
                    }
                    if (!ended && next > count) {
                        ended = true;
                        s.onError(error);
                    }
                    emitting = false;
                }

                @Override
                public synchronized void cancel() {
                    ended = true;
                }
            });
        }
    }

    /** Wraps a source and opens a latch once its generate has ended, however it ended. */
    private static final class Watched<T> implements Source<T> {
        final Source<T> source;
        final CountDownLatch ended = new CountDownLatch(1);

        Watched(Source<T> source) {
            this.source = source;
        }

        @Override
        public void init(NodeContext context) throws Exception {
            source.init(context);
        }

        @Override
        public void generate(Outbox<T> out) throws Exception {
            try {
                source.generate(out);
            } finally {
                ended.countDown();
            }
        }

        @Override
        public void close() throws Exception {
            source.close();
        }
    }

    @Test
    void itemsBeforeTheErrorReachTheSinkThenTheFlowFails() throws Exception {
        int n = 100;
        IllegalStateException boom = new IllegalStateException("publisher failed");
        // prefetch above n: the publisher delivers every item and the error at the first request,
        // before the source has handed a single item to the flow
        Watched<Long> source = new Watched<>(PublisherSource.of(new ItemsThenError(n, boom), 256));
        List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        // the slow downstream: the sink takes its first item only once the source has ended, so every
        // item is still in the flow's channel when the publisher's error ends the source
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(source, Nodes.sink((Long x) -> {
            if (seen.isEmpty() && !source.ended.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the source did not end");
            }
            seen.add(x);
        })));
        FlowException e = assertThrows(FlowException.class, () -> join(flow));
        assertEquals(expected(n), seen, "every item the publisher delivered before its error, in order");
        assertSame(boom, e.getCause(), "the publisher's own exception is the cause");
        assertTrue(e.nodePath().startsWith("pipeline/"), e.nodePath());
    }

    @Test
    void aCollectingSinkHasNoResultAfterThePublishersError() throws Exception {
        // the rest of the flow ends its stream normally after the error, but the stream was cut short:
        // a collected value of it would be a partial result
        IllegalStateException boom = new IllegalStateException("publisher failed");
        CollectorSink<Long, List<Long>> all = Nodes.collect(Collectors.toList());
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(
                PublisherSource.of(new ItemsThenError(10, boom), 4), Nodes.map((Long x) -> x), all));
        FlowException e = assertThrows(FlowException.class, () -> join(flow));
        assertSame(boom, e.getCause());
        assertThrows(IllegalStateException.class, all::result);
    }

    @Test
    void anotherNodesFailureStillCancelsAtOnce() throws Exception {
        // only the publisher's error waits for the items; a failing node downstream cancels the flow
        // (and the source's subscription) as before, and its failure, not the publisher's, is reported
        IllegalStateException boom = new IllegalStateException("publisher failed");
        ArithmeticException bad = new ArithmeticException("node failed");
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(
                PublisherSource.of(new ItemsThenError(1_000_000, boom), 64), Nodes.sink((Long x) -> {
                    if (x == 500) {
                        throw bad;
                    }
                })));
        FlowException e = assertThrows(FlowException.class, () -> join(flow));
        assertSame(bad, e.getCause());
    }

    @Test
    void seededErrorsAfterItemsThroughAFarm() throws Exception {
        Random rnd = TestSeed.random();
        for (int round = 0; round < 20; round++) {
            int n = rnd.nextInt(2_000);
            int prefetch = 1 + rnd.nextInt(300);
            int workers = 1 + rnd.nextInt(3);
            IllegalStateException boom = new IllegalStateException("publisher failed, round " + round);
            Flow.Publisher<Long> publisher = rnd.nextBoolean() ? new ItemsThenError(n, boom)
                    : new OnItsOwnThread(new ItemsThenError(n, boom));
            List<Long> seen = Collections.synchronizedList(new ArrayList<>());
            org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(PublisherSource.of(publisher, prefetch),
                    Farm.of(workers, () -> Nodes.map((Long x) -> x)).ordered(), Nodes.sink((Long x) -> seen.add(x))));
            String what = "round " + round + ": n=" + n + " prefetch=" + prefetch + " workers=" + workers;
            FlowException e = assertThrows(FlowException.class, () -> join(flow), what);
            assertSame(boom, e.getCause(), what);
            assertEquals(expected(n), seen, what);
        }
    }

    /** Signals the wrapped publisher's subscriber from a thread of its own (signals stay serial). */
    private static final class OnItsOwnThread implements Flow.Publisher<Long> {
        final Flow.Publisher<Long> inner;

        OnItsOwnThread(Flow.Publisher<Long> inner) {
            this.inner = inner;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super Long> s) {
            inner.subscribe(new Flow.Subscriber<Long>() {
                @Override
                public void onSubscribe(Flow.Subscription sub) {
                    s.onSubscribe(new Flow.Subscription() {
                        @Override
                        public void request(long n) {
                            Thread t = new Thread(() -> sub.request(n), "test-publisher");
                            t.start();
                            try {
                                t.join(); // serial signals: the requester waits for this batch's signals
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }

                        @Override
                        public void cancel() {
                            sub.cancel();
                        }
                    });
                }

                @Override
                public void onNext(Long item) {
                    s.onNext(item);
                }

                @Override
                public void onError(Throwable t) {
                    s.onError(t);
                }

                @Override
                public void onComplete() {
                    s.onComplete();
                }
            });
        }
    }

    private static List<Long> expected(int n) {
        List<Long> l = new ArrayList<>(n);
        for (long i = 1; i <= n; i++) {
            l.add(i);
        }
        return l;
    }

    private static void join(org.bbflow.core.Flow flow) {
        try {
            flow.join(DEADLINE);
        } catch (TimeoutException t) {
            StringBuilder dump = new StringBuilder("HANG: flow still running after " + DEADLINE + "\n");
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                dump.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
                for (StackTraceElement s : e.getValue()) {
                    dump.append("    at ").append(s).append('\n');
                }
            }
            System.err.println(dump);
            flow.close();
            throw new AssertionError("flow did not end within " + DEADLINE, t);
        }
    }
}
