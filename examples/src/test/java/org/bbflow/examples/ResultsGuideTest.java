package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow.Publisher;
import java.util.stream.Collectors;
import org.bbflow.core.CollectorSink;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.reactive.FlowPublisher;
import org.bbflow.core.reactive.PublisherSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;

/** The examples of docs/core.md's "Results as values" and "Reactive Streams" sections, run. */
@Timeout(60)
class ResultsGuideTest {

    @Test
    void resultsAsValues() throws Exception {
        // tag::collect[]
        List<Long> squares = Pipeline.from(Nodes.range(1, 5))
                .then(Farm.of(2, () -> Nodes.map((Long x) -> x * x)).ordered())
                .run(Collectors.toList());                       // [1, 4, 9, 16, 25]

        Map<Boolean, Long> evenOdd = Pipeline.from(Nodes.range(1, 1_000))
                .then(Farm.of(4, () -> Nodes.map((Long x) -> x * 3)))    // first come
                .run(Collectors.partitioningBy(x -> x % 2 == 0, Collectors.counting()));
        // end::collect[]
        assertEquals(List.of(1L, 4L, 9L, 16L, 25L), squares);
        assertEquals(Map.of(true, 500L, false, 500L), evenOdd);

        // tag::collect-sink[]
        CollectorSink<Long, Long> total = Nodes.collect(Collectors.summingLong(x -> x));
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.map((Long x) -> x * x), total));
        flow.join(Duration.ofMinutes(1));   // throws if the flow failed or was cancelled
        long sum = total.result();          // 338350
        // end::collect-sink[]
        assertEquals(338_350L, sum);
    }

    @Test
    void reactiveStreams() {
        // tag::reactive[]
        // A Flux feeds a farm; the farm's output is a Flux again.
        Publisher<Long> numbers = JdkFlowAdapter.publisherToFlowPublisher(Flux.range(1, 1_000).map(Integer::longValue));
        FlowPublisher<Long> squares = FlowPublisher.of(() -> Pipeline.from(PublisherSource.of(numbers))
                .then(Farm.of(4, () -> Nodes.map((Long x) -> x * x)).ordered())
                .build());
        List<Long> firstTen = JdkFlowAdapter.flowPublisherToFlux(squares).take(10).collectList().block();
        // end::reactive[]
        assertEquals(List.of(1L, 4L, 9L, 16L, 25L, 36L, 49L, 64L, 81L, 100L), firstTen);
    }
}
