package org.bbflow.core;

import java.util.Objects;
import java.util.stream.Collector;

/**
 * A typed pipeline under construction, started by {@link Pipeline#from(Block)}: each step's input
 * type must accept the previous step's output type, so a mismatch is a compile error, and lambdas
 * need no parameter types because they are inferred from the previous step.
 *
 * <pre>{@code
 * RunStats s = Pipeline.from(Nodes.range(1, 1_000))        // Chain<Void, Long>
 *     .then(Nodes.map(x -> x * 2))                        // Chain<Void, Long>
 *     .filter(x -> x % 3 == 0)
 *     .map(x -> "item " + x)                              // Chain<Void, String>
 *     .to(Nodes.sink(System.out::println))                // Pipeline<Void, Void>
 *     .run();
 * }</pre>
 *
 * <p>A chain is a view of one {@link Pipeline}: every step appends a stage to it and returns the
 * same chain, retyped. {@link #to(Block)} and {@link #build()} return that pipeline, which runs and
 * nests like any block. Use {@link Pipeline#of(Block[])} for chains whose types Java cannot express.
 *
 * @param <I> input type of the first stage ({@code Void} for a source)
 * @param <O> output type of the last stage so far
 */
public final class Chain<I, O> {
    private final Pipeline<I, ?> pipeline;

    Chain(Pipeline<I, ?> pipeline) {
        this.pipeline = pipeline;
    }

    /**
     * Appends a stage, any block whose input accepts this chain's output, wired with
     * {@link Topology#AUTO}.
     *
     * @param next the next stage
     * @param <R> the next stage's output type
     * @return this chain, now ending with {@code next}
     * @throws IllegalStateException if the pipeline was already started
     */
    public <R> Chain<I, R> then(Block<? super O, R> next) {
        return then(next, Topology.AUTO, null);
    }

    /**
     * Appends a stage wired with the given topology (e.g. {@link Topology#ALL_TO_ALL} between two
     * farms without collector and emitter).
     *
     * @param next the next stage
     * @param topology how this chain's output ports connect to the stage's input ports
     * @param <R> the next stage's output type
     * @return this chain, now ending with {@code next}
     * @throws IllegalStateException if the pipeline was already started
     */
    public <R> Chain<I, R> then(Block<? super O, R> next, Topology topology) {
        return then(next, topology, null);
    }

    /**
     * Appends a stage whose incoming channels follow {@code spec}.
     *
     * @param next the next stage
     * @param spec the channels into {@code next}
     * @param <R> the next stage's output type
     * @return this chain, now ending with {@code next}
     * @throws IllegalStateException if the pipeline was already started
     */
    public <R> Chain<I, R> then(Block<? super O, R> next, ChannelSpec spec) {
        return then(next, Topology.AUTO, Objects.requireNonNull(spec, "spec"));
    }

    /**
     * Appends a stage.
     *
     * @param next the next stage
     * @param topology how this chain's output ports connect to the stage's input ports
     * @param spec the channels of that connection, or null for the flow's default
     * @param <R> the next stage's output type
     * @return this chain, now ending with {@code next}
     * @throws IllegalStateException if the pipeline was already started
     */
    @SuppressWarnings("unchecked")
    public <R> Chain<I, R> then(Block<? super O, R> next, Topology topology, ChannelSpec spec) {
        pipeline.then(next, topology, spec);
        return (Chain<I, R>) this;
    }

    /**
     * Appends {@link Nodes#map}: a node sending {@code f(item)} for every item.
     *
     * @param f the function; must not return null
     * @param <R> the result type
     * @return this chain, now ending with the map node
     */
    public <R> Chain<I, R> map(Nodes.ThrowingFunction<? super O, ? extends R> f) {
        return then(Nodes.<O, R>map(f));
    }

    /**
     * Appends {@link Nodes#filter}: a node forwarding the items {@code p} accepts.
     *
     * @param p the predicate
     * @return this chain, now ending with the filter node
     */
    public Chain<I, O> filter(Nodes.ThrowingPredicate<? super O> p) {
        return then(Nodes.<O>filter(p));
    }

    /**
     * Appends {@link Nodes#flatMap}: a node that may send any number of results per item.
     *
     * @param f called with each item and the node's outbox
     * @param <R> the result type
     * @return this chain, now ending with the flatMap node
     */
    public <R> Chain<I, R> flatMap(Nodes.ThrowingBiConsumer<? super O, Outbox<R>> f) {
        return then(Nodes.<O, R>flatMap(f));
    }

    /**
     * Appends the last stage, typically a sink, and returns the finished pipeline.
     *
     * @param last the last stage
     * @param <R> its output type ({@code Void} for a sink)
     * @return the pipeline, ready to run or to nest
     */
    public <R> Pipeline<I, R> to(Block<? super O, R> last) {
        return then(last).build();
    }

    /**
     * Runs the pipeline built so far with its output folded into {@code collector} and returns the
     * result ({@link Block#run(Collector)}).
     *
     * <pre>{@code
     * List<String> labels = Pipeline.from(Nodes.range(1, 3))
     *     .map(x -> "item " + x)
     *     .run(Collectors.toList());       // [item 1, item 2, item 3]
     * }</pre>
     *
     * @param collector folds the output
     * @param <R> the result type
     * @return the collector's result over the whole stream
     * @throws FlowException if a node failed or the flow was cancelled
     */
    public <R> R run(Collector<? super O, ?, R> collector) {
        return build().run(collector);
    }

    /**
     * As {@link #run(Collector)}, with the given options.
     *
     * @param collector folds the output
     * @param options the flow's options
     * @param <R> the result type
     * @return the collector's result over the whole stream
     * @throws FlowException if a node failed or the flow was cancelled
     */
    public <R> R run(Collector<? super O, ?, R> collector, FlowOptions options) {
        return build().run(collector, options);
    }

    /**
     * The pipeline built so far, typed by its first and last stage. Further steps on this chain
     * still append to it.
     *
     * @return the pipeline
     */
    @SuppressWarnings("unchecked")
    public Pipeline<I, O> build() {
        return (Pipeline<I, O>) pipeline;
    }

    /**
     * Sets the pipeline's name (used in paths and thread names).
     *
     * @param name the name, non-empty, without '/'
     * @return this chain
     */
    public Chain<I, O> named(String name) {
        pipeline.named(name);
        return this;
    }
}
