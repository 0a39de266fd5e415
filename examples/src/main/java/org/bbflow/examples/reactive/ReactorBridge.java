package org.bbflow.examples.reactive;

import java.util.List;
import java.util.concurrent.Flow;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.reactive.FlowPublisher;
import org.bbflow.core.reactive.PublisherSource;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;

/**
 * Reactor on both sides of a flow: a {@link Flux} feeds a BBFlow farm through
 * {@link PublisherSource}, and the farm's output is a {@link Flux} again through
 * {@link FlowPublisher}. Demand crosses both ways: Reactor asks the flow for what it can take, the
 * flow asks the upstream Flux for what it can take.
 *
 * <p>Run: {@code ./mvnw -q -pl examples exec:java -Dexec.mainClass=org.bbflow.examples.reactive.ReactorBridge}
 */
public final class ReactorBridge {
    private ReactorBridge() {
    }

    /**
     * The flow between the two Fluxes: squares of the upstream's numbers, computed by a farm of
     * {@code workers}, in input order.
     *
     * @param numbers the upstream, as a JDK publisher
     * @param workers the farm's workers
     * @return a publisher running one such flow per subscriber
     */
    public static FlowPublisher<Long> squares(Flow.Publisher<Long> numbers, int workers) {
        return FlowPublisher.of(() -> Pipeline.from(PublisherSource.of(numbers))
                .then(Farm.of(workers, () -> Nodes.map((Long x) -> x * x)).ordered())
                .build());
    }

    /**
     * Runs the example.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        Flux<Long> numbers = Flux.range(1, 1_000_000).map(Integer::longValue);
        Flux<Long> squares = JdkFlowAdapter.flowPublisherToFlux(
                squares(JdkFlowAdapter.publisherToFlowPublisher(numbers), 4));
        List<Long> firstFive = squares.take(5).collectList().block();
        Long total = squares.reduce(0L, Long::sum).block();
        System.out.println("first five squares: " + firstFive);
        System.out.println("sum of the squares of 1..1,000,000: " + total);
    }
}
