package org.bbflow.core.reactive;

import java.util.Objects;
import java.util.concurrent.Flow;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Source;

/**
 * A {@link Flow.Publisher} as the source of a flow: each run subscribes once and sends every item
 * the publisher emits; the publisher's completion is the flow's end of stream.
 *
 * <pre>{@code
 * Flow.Publisher<Long> numbers = ...;   // e.g. JdkFlowAdapter.publisherToFlowPublisher(Flux.range(1, 100))
 * long sum = Pipeline.from(PublisherSource.of(numbers))
 *     .then(Farm.of(4, () -> Nodes.map((Long x) -> x * x)))
 *     .run(Collectors.summingLong(x -> x));
 * }</pre>
 *
 * <p>Demand: the source requests {@code prefetch} items when subscribed and, each time the flow has
 * taken three quarters of them, that many more, so at most {@code prefetch} items wait between the
 * publisher and the flow; when the flow's first channel is full the source stops taking and the
 * publisher gets no new demand. Items arrive on the publisher's threads and are handed over through
 * a bounded single-producer queue; every {@code request} and {@code cancel} comes from the source's
 * own thread.
 *
 * <p>Errors and cancellation: the publisher's {@code onError} is a terminal signal after the items
 * it delivered, so it ends the stream after them: every item delivered before the error still goes
 * through the flow to its sinks, in order, and the rest of the flow ends as at a completion; then
 * the flow fails, and {@link org.bbflow.core.Flow#join()} throws a
 * {@link org.bbflow.core.FlowException} naming this source whose cause is the publisher's exception
 * (the source throws a {@link org.bbflow.core.StreamFailure}; a collecting sink holds no result of
 * the cut stream). A flow that ends early (another node failed, or it was cancelled)
 * cancels the subscription. A publisher that breaks the specification (more items than requested)
 * fails the flow with an {@link IllegalStateException}.
 *
 * <p>The source may run again in a later flow; each run subscribes anew (a cold publisher then
 * starts over).
 *
 * @param <T> item type
 */
public final class PublisherSource<T> implements Source<T> {
    /** Items requested ahead when no prefetch is given. */
    public static final int DEFAULT_PREFETCH = 256;

    private final Flow.Publisher<? extends T> publisher;
    private final int prefetch;
    private NodeContext context;
    private volatile PublisherInlet<T> inlet;

    private PublisherSource(Flow.Publisher<? extends T> publisher, int prefetch) {
        this.publisher = publisher;
        this.prefetch = prefetch;
    }

    /**
     * A source of {@code publisher}'s items, requesting {@link #DEFAULT_PREFETCH} ahead.
     *
     * @param <T> item type
     * @param publisher the publisher, subscribed once per run
     * @return the source
     */
    public static <T> PublisherSource<T> of(Flow.Publisher<? extends T> publisher) {
        return of(publisher, DEFAULT_PREFETCH);
    }

    /**
     * A source of {@code publisher}'s items, requesting {@code prefetch} ahead.
     *
     * @param <T> item type
     * @param publisher the publisher, subscribed once per run
     * @param prefetch how many items may be requested and not yet taken by the flow, in
     *        {@code [1, 2^20]}
     * @return the source
     * @throws IllegalArgumentException if prefetch is out of range
     */
    public static <T> PublisherSource<T> of(Flow.Publisher<? extends T> publisher, int prefetch) {
        Objects.requireNonNull(publisher, "publisher");
        if (prefetch < 1 || prefetch > (1 << 20)) {
            throw new IllegalArgumentException("prefetch must be in [1, 2^20], got " + prefetch);
        }
        return new PublisherSource<>(publisher, prefetch);
    }

    @Override
    public void init(NodeContext context) {
        this.context = context;
    }

    @Override
    public void generate(Outbox<T> out) throws Exception {
        PublisherInlet<T> in = new PublisherInlet<>(prefetch);
        inlet = in;
        publisher.subscribe(in);
        in.drain(out, context);
    }

    /** Gives the subscription up (cancels it unless the publisher completed or failed). */
    @Override
    public void close() {
        PublisherInlet<T> in = inlet;
        if (in != null) {
            inlet = null;
            in.cancel();
        }
        context = null;
    }

    @Override
    public String name() {
        return "publisher";
    }
}
