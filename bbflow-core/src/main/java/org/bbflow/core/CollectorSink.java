package org.bbflow.core;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * A sink that folds every item it receives into a {@link Collector} and holds the collector's
 * result once its flow has ended normally: the flow's output as a value (Reactor's
 * {@code collectList()}, Akka's {@code Sink.seq}, a stream's {@code collect}).
 *
 * <p>Most code does not need this class: {@link Block#run(Collector)} and
 * {@link Chain#run(Collector)} end a block in a collecting sink, run it and return the result.
 * Place a {@code CollectorSink} yourself ({@link Nodes#collect}) where the result is one of several
 * outputs, or when the flow is started with {@link Flow#start} and joined later:
 *
 * <pre>{@code
 * CollectorSink<Long, Long> total = Nodes.collect(Collectors.summingLong(x -> x));
 * Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 100), Nodes.map((Long x) -> x * x), total));
 * ...
 * flow.join();                     // throws if the flow failed or was cancelled
 * long sum = total.result();       // 338350
 * }</pre>
 *
 * <p>Items are folded on the sink's own thread, in the order they arrive (input order after an
 * ordered farm; first come from an unordered one), so the collector needs no thread safety. Its
 * supplier runs in {@link #init}, its finisher at end of stream ({@link #onEos}): an exception from
 * any of its functions fails the flow like any node's.
 *
 * <p>No partial result is ever presented as a result: {@link #result()} answers only after the sink
 * received end of stream on every input and closed without the flow being cancelled or failed by
 * then. Read it after {@link Flow#join()} returned normally; when {@code join} threw, the flow has
 * no result. A sink may run again in a later flow; each run starts from an empty container.
 *
 * @param <T> item type
 * @param <R> result type
 */
public final class CollectorSink<T, R> implements Node<T, Void> {
    private final Supplier<Object> supplier;
    private final BiConsumer<Object, ? super T> accumulator;
    private final Function<Object, ? extends R> finisher;
    private NodeContext context;
    private Object container;
    private R finished;
    private boolean ended;
    /** The published result; {@link #hasResult} says whether there is one (a finisher may return null). */
    private volatile R result;
    private volatile boolean hasResult;

    @SuppressWarnings("unchecked")
    CollectorSink(Collector<? super T, ?, ? extends R> collector) {
        Objects.requireNonNull(collector, "collector");
        Collector<? super T, Object, ? extends R> c = (Collector<? super T, Object, ? extends R>) collector;
        this.supplier = (Supplier<Object>) c.supplier();
        this.accumulator = c.accumulator();
        this.finisher = c.finisher();
        Objects.requireNonNull(supplier, "the collector's supplier");
        Objects.requireNonNull(accumulator, "the collector's accumulator");
        Objects.requireNonNull(finisher, "the collector's finisher");
    }

    @Override
    public void init(NodeContext context) {
        this.context = context;
        hasResult = false;
        result = null;
        finished = null;
        ended = false;
        container = supplier.get();
    }

    @Override
    public void onItem(T item, Outbox<Void> out) {
        accumulator.accept(container, item);
    }

    @Override
    public void onEos(Outbox<Void> out) {
        finished = finisher.apply(container);
        container = null;
        ended = true;
    }

    @Override
    public void close() {
        // Published only if the sink saw the whole stream and the flow was still intact when it ended.
        // A source's stream that ended with an error (StreamFailure) ends every node's stream normally,
        // cancelling nothing, but the stream was cut: its value is no result either. The context says so
        // (flowFailed), also one that wraps the runtime's (a distributed job's routed member).
        if (ended && context != null && !context.flowFailed()) { // flowFailed: cancelled too
            result = finished;
            hasResult = true;
        }
        container = null;
        finished = null;
        context = null;
    }

    /**
     * The collector's result for the stream this sink received. It is published when the sink closes
     * after a complete stream with its flow intact, so it is the whole of that stream; a node of another
     * branch that fails after that fails the flow ({@link Flow#join()} throws) but does not take the
     * result back: read it after a join that returned.
     *
     * @return the result (null only if the collector's finisher returned null)
     * @throws IllegalStateException if the sink's flow has not ended, or ended without a complete
     *         stream (a node failed, or the flow was cancelled)
     */
    public R result() {
        if (!hasResult) {
            throw new IllegalStateException("collector sink has no result: its flow has not ended, or it failed or was"
                    + " cancelled (join() says which)");
        }
        return result;
    }

    @Override
    public String name() {
        return "collect";
    }
}
