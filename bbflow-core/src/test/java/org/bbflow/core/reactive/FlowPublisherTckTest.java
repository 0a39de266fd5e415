package org.bbflow.core.reactive;

import java.util.concurrent.Flow;
import org.bbflow.core.Nodes;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;

/**
 * The Reactive Streams TCK's publisher rules against {@link FlowPublisher} (a TestNG class: the
 * TestNG engine runs it on the JUnit Platform with the other tests; a broken rule fails the build).
 */
public class FlowPublisherTckTest extends FlowPublisherVerification<Long> {

    public FlowPublisherTckTest() {
        super(new TestEnvironment(TckTiming.TIMEOUT_MILLIS, TckTiming.NO_SIGNALS_MILLIS, TckTiming.POLL_MILLIS), TckTiming.GC_TIMEOUT_MILLIS);
    }

    @Override
    public Flow.Publisher<Long> createFlowPublisher(long elements) {
        return FlowPublisher.of(() -> Nodes.range(0, elements - 1));
    }

    @Override
    public Flow.Publisher<Long> createFailedFlowPublisher() {
        return FlowPublisher.of(() -> Nodes.<Long>source(out -> {
            throw new IllegalStateException("a source that fails on purpose");
        }));
    }
}
