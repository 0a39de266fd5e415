package org.bbflow.core.reactive;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.function.Supplier;
import org.bbflow.core.Block;
import org.bbflow.core.FlowOptions;

/**
 * A flow's output as a {@link Flow.Publisher}: every subscriber gets its own flow, built by the
 * supplier (blocks are single-use) and started when the subscriber has been given its
 * subscription. The block's output ports feed one last stage that hands each item to the
 * subscriber's {@code onNext} against its demand.
 *
 * <pre>{@code
 * Flow.Publisher<Long> squares = FlowPublisher.of(() -> Pipeline.from(Nodes.range(1, 1_000))
 *     .then(Farm.of(4, () -> Nodes.map((Long x) -> x * x)).ordered())
 *     .build());
 * List<Long> first = JdkFlowAdapter.flowPublisherToFlux(squares).take(10).collectList().block();
 * }</pre>
 *
 * <p>Demand: with no outstanding demand the last stage waits, its input channel fills and every
 * producer upstream waits in turn, so nothing is buffered beyond the flow's bounded channels. A
 * demand of {@code Long.MAX_VALUE} (or a total that reaches it) is unbounded.
 *
 * <p>Signals: {@code onNext} comes from the flow's last node thread, {@code onComplete} or
 * {@code onError} once every thread of the flow has ended (so never concurrently with
 * {@code onNext}). A flow that fails signals {@code onError} with its
 * {@link org.bbflow.core.FlowException} (the failed node and its exception as the cause); a block
 * that cannot start (an invalid composition, a supplier that throws) signals {@code onError} with
 * that exception. {@code cancel()} cancels the subscriber's flow and no signal follows;
 * {@code request(n)} with {@code n <= 0} cancels it and signals {@code onError} with an
 * {@link IllegalArgumentException} (rule 3.9).
 *
 * @param <T> item type
 */
public final class FlowPublisher<T> implements Flow.Publisher<T> {
    private final Supplier<? extends Block<Void, ? extends T>> blocks;
    private final FlowOptions options;

    private FlowPublisher(Supplier<? extends Block<Void, ? extends T>> blocks, FlowOptions options) {
        this.blocks = blocks;
        this.options = options;
    }

    /**
     * A publisher running a new block from {@code blocks} for each subscriber, with
     * {@link FlowOptions#defaults()}.
     *
     * @param <T> item type
     * @param blocks builds the block a subscriber's flow runs: a source, or a composition starting
     *        with one, whose output is published
     * @return the publisher
     */
    public static <T> FlowPublisher<T> of(Supplier<? extends Block<Void, ? extends T>> blocks) {
        return of(blocks, FlowOptions.defaults());
    }

    /**
     * A publisher running a new block from {@code blocks} for each subscriber, with the given
     * options.
     *
     * @param <T> item type
     * @param blocks builds the block a subscriber's flow runs
     * @param options the options of every flow started
     * @return the publisher
     */
    public static <T> FlowPublisher<T> of(Supplier<? extends Block<Void, ? extends T>> blocks, FlowOptions options) {
        return new FlowPublisher<>(Objects.requireNonNull(blocks, "blocks"), Objects.requireNonNull(options, "options"));
    }

    /**
     * Gives {@code subscriber} its subscription, then starts its flow.
     *
     * @param subscriber the subscriber
     * @throws NullPointerException if subscriber is null (rule 1.9)
     */
    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber (rule 1.9)");
        FlowSubscription<T> subscription = new FlowSubscription<>(subscriber);
        try {
            subscriber.onSubscribe(subscription);
        } catch (RuntimeException | Error e) {
            // the subscriber broke rule 2.13: treat its subscription as cancelled (rule 2.13 allows it)
            subscription.cancel();
            return;
        }
        subscription.start(blocks, options);
    }
}
