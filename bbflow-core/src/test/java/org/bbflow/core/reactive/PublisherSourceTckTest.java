package org.bbflow.core.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;
import org.testng.annotations.AfterMethod;

/**
 * The Reactive Streams TCK's subscriber rules against the subscriber a {@link PublisherSource}
 * gives its publisher: each case starts a flow whose source subscribes to a publisher that hands
 * the subscriber to the TCK, which then signals it directly.
 */
public class PublisherSourceTckTest extends FlowSubscriberBlackboxVerification<Long> {
    private final List<org.bbflow.core.Flow> flows = new ArrayList<>();

    public PublisherSourceTckTest() {
        super(new TestEnvironment(TckTiming.TIMEOUT_MILLIS, TckTiming.NO_SIGNALS_MILLIS, TckTiming.POLL_MILLIS));
    }

    @Override
    public Flow.Subscriber<Long> createFlowSubscriber() {
        CompletableFuture<Flow.Subscriber<? super Long>> handedOver = new CompletableFuture<>();
        Flow.Publisher<Long> handOver = handedOver::complete;
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(PublisherSource.of(handOver, 16),
                Nodes.sink(x -> { })));
        synchronized (flows) {
            flows.add(flow);
        }
        try {
            @SuppressWarnings("unchecked")
            Flow.Subscriber<Long> s = (Flow.Subscriber<Long>) handedOver.get(10, TimeUnit.SECONDS);
            return s;
        } catch (Exception e) {
            flow.cancel();
            throw new AssertionError("the source did not subscribe", e);
        }
    }

    @Override
    public Long createElement(int element) {
        return (long) element;
    }

    /** Every case's flow ends with it (the TCK leaves some subscriptions open). */
    @AfterMethod
    public void endFlows() {
        synchronized (flows) {
            for (org.bbflow.core.Flow f : flows) {
                f.close();
            }
            flows.clear();
        }
    }
}
