package org.bbflow.core.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;

/**
 * A publisher that sends more items than were requested breaks rule 1.1, and the flow fails with an
 * {@link IllegalStateException}, whatever the prefetch (the source's hand-over queue is rounded up to
 * a power of two, so its fullness is no measure of the demand); the source then cancels the
 * subscription the publisher has not ended (rule 2.6).
 */
class PublisherOverflowTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /**
     * At its first request(n) sends n + 1 items, one more than requested, then completes if
     * {@code completes}, else goes quiet (as a publisher that would go on producing); records whether
     * it was cancelled.
     */
    private static final class OneTooMany implements Flow.Publisher<Long> {
        final CountDownLatch cancelled = new CountDownLatch(1);
        private final boolean completes;

        OneTooMany(boolean completes) {
            this.completes = completes;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super Long> s) {
            s.onSubscribe(new Flow.Subscription() {
                private boolean sent;

                @Override
                public synchronized void request(long n) {
                    if (sent) {
                        return;
                    }
                    sent = true;
                    for (long i = 1; i <= n + 1; i++) {
                        s.onNext(i);
                    }
                    if (completes) {
                        s.onComplete();
                    }
                }

                @Override
                public void cancel() {
                    cancelled.countDown();
                }
            });
        }
    }

    @Test
    void theBrokenSubscriptionIsCancelled() throws Exception {
        // rule 2.6: the source gives up a subscription the publisher has not ended, so a publisher that
        // breaks rule 1.1 (and would go on producing) is told to stop
        OneTooMany publisher = new OneTooMany(false);
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(
                Pipeline.of(PublisherSource.of(publisher, 4), Nodes.sink((Long x) -> { })));
        FlowException e = assertThrows(FlowException.class, () -> flow.join(DEADLINE));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(0, publisher.cancelled.getCount(), "the subscription was not cancelled when the flow ended");
    }

    @Test
    void oneItemMoreThanRequestedFailsTheFlow() {
        for (int prefetch : new int[] {1, 3, 100, 256, 1000}) {
            org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(
                    Pipeline.of(PublisherSource.of(new OneTooMany(true), prefetch), Nodes.sink((Long x) -> { })));
            FlowException e = assertThrows(FlowException.class, () -> flow.join(DEADLINE),
                    "prefetch " + prefetch + ": the extra item was taken silently");
            assertInstanceOf(IllegalStateException.class, e.getCause(), "prefetch " + prefetch);
            assertTrue(e.getCause().getMessage().contains("rule 1.1"), e.getCause().getMessage());
        }
    }
}
