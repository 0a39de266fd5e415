package org.bbflow.core;

import java.util.stream.Collector;

/**
 * A building block: a {@link Node}, or a composition of blocks ({@link Pipeline}, {@link Farm},
 * {@link AllToAll}). Any block nests in any other. A composed block exposes entry ports (where its
 * input arrives) and exit ports (where its output leaves); composition wires them once, before any
 * thread starts.
 *
 * <p>Blocks are single-use: a composite block can be started once, and a node instance can be in
 * one running flow at a time.
 *
 * @param <I> the type of the items the block consumes ({@code Void} for a source)
 * @param <O> the type of the items it produces ({@code Void} for a sink)
 */
public sealed interface Block<I, O> permits Node, Composite {

    /**
     * Runs this block to completion: {@code Flow.start(this).join()}.
     *
     * @return per-node statistics
     * @throws FlowException if a node failed
     */
    default RunStats run() {
        return Flow.start(this).join();
    }

    /**
     * Runs this block with the given options; see {@link #run()}.
     *
     * @param options the flow's options
     * @return the statistics of the run
     */
    default RunStats run(FlowOptions options) {
        return Flow.start(this, options).join();
    }

    /**
     * Runs this block with its output folded into {@code collector} and returns the result: the
     * block's exit ports feed one {@link CollectorSink} (every exit of a farm without collector, or
     * of an all-to-all, into the one sink), the flow runs to its end, and the collector's result is
     * returned.
     *
     * <pre>{@code
     * List<Long> squares = Pipeline.<Void, Long>of(Nodes.range(1, 5),
     *         Farm.of(2, () -> Nodes.map((Long x) -> x * x)).ordered())
     *     .run(Collectors.toList());       // [1, 4, 9, 16, 25]
     * }</pre>
     *
     * @param <R> the result type
     * @param collector folds the output; its functions run on the sink's thread
     * @return the collector's result over the whole stream
     * @throws FlowException if a node (or the collector) failed, or the flow was cancelled: there is
     *         no partial result
     */
    default <R> R run(Collector<? super O, ?, R> collector) {
        return run(collector, FlowOptions.defaults());
    }

    /**
     * Runs this block with the given options, its output folded into {@code collector}; see
     * {@link #run(Collector)}.
     *
     * @param <R> the result type
     * @param collector folds the output
     * @param options the flow's options
     * @return the collector's result over the whole stream
     * @throws FlowException if a node failed or the flow was cancelled
     */
    default <R> R run(Collector<? super O, ?, R> collector, FlowOptions options) {
        CollectorSink<O, R> sink = new CollectorSink<>(collector);
        Flow.start(Pipeline.of(this, sink), options).join();
        return sink.result();
    }
}
