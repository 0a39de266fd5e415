package org.bbflow.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A chain of stages, each any block, running in parallel (FastFlow's {@code ff_pipeline}). Stage
 * {@code i}'s output ports are wired to stage {@code i+1}'s input ports by a {@link Topology}
 * ({@link Topology#AUTO} unless given) over channels described by a {@link ChannelSpec} (the
 * flow's default unless given).
 *
 * <pre>{@code
 * Pipeline<Void, Void> p = Pipeline.of(
 *     Nodes.range(1, 1_000),
 *     Farm.of(4, () -> Nodes.map((Long x) -> x * x)).ordered(),
 *     Nodes.sink(System.out::println));
 * RunStats stats = p.run();
 * }</pre>
 *
 * <p>Item types are checked by the compiler for the typed two-stage {@link #of(Block, Block)} and
 * for chains built with {@link #from(Block)} ({@link Chain}), where lambdas also infer their
 * parameter types. The varargs form and {@link #then} accept any stage: a mismatch there shows up
 * as a {@link ClassCastException} in the receiving node.
 *
 * <p>{@link #feedback()} closes the pipeline into a loop: the last stage's output ports feed the
 * first stage (which must have exactly one input port) and the loop ends once the first stage's
 * upstream has ended and no item is left inside the loop.
 *
 * <p>Loops nest when they share their first stage (FastFlow's nested {@code wrap_around}), which
 * gives one stage several back edges: in
 * {@code Pipeline.of(Pipeline.of(s0, s1, s2).feedback(), s3).feedback()} both {@code s2} and
 * {@code s3} feed {@code s0}. Each of them sends back with {@code out.send(x)} and forward with
 * {@code out.sendTo(1, x)}; the nested loops form one loop with one in-flight count, which ends
 * once {@code s0}'s upstream has ended and no item is left anywhere inside. Nested loops whose
 * first stages differ are refused with an {@link IllegalStateException}.
 *
 * @param <I> input type of the first stage
 * @param <O> output type of the last stage
 */
public final class Pipeline<I, O> extends Composite<I, O> {
    private final List<Block<?, ?>> stages = new ArrayList<>();
    private final List<Topology> topologies = new ArrayList<>();
    private final List<ChannelSpec> specs = new ArrayList<>();
    private boolean feedback;

    private Pipeline() {
        super("pipeline");
    }

    /**
     * A pipeline of the given stages, wired with {@link Topology#AUTO}.
     *
     * @param <I> input type of the first stage
     * @param <O> output type of the last stage
     * @param stages the stages, in order
     * @return the pipeline
     * @throws IllegalArgumentException if there is no stage or a stage is null
     */
    public static <I, O> Pipeline<I, O> of(Block<?, ?>... stages) {
        Objects.requireNonNull(stages, "stages");
        if (stages.length == 0) {
            throw new IllegalArgumentException("a pipeline needs at least one stage");
        }
        Pipeline<I, O> p = new Pipeline<>();
        for (int i = 0; i < stages.length; i++) {
            if (stages[i] == null) {
                throw new IllegalArgumentException("stage " + i + " of the pipeline is null");
            }
            p.add(stages[i], Topology.AUTO, null);
        }
        return p;
    }

    /**
     * Starts a typed pipeline whose first stage is {@code first}: every stage appended with
     * {@link Chain#then}, {@link Chain#map}, {@link Chain#filter} or {@link Chain#to} is type-checked
     * against the previous one, and lambdas infer their parameter types.
     *
     * <pre>{@code
     * Pipeline<Void, Void> p = Pipeline.from(Nodes.range(1, 100))
     *     .then(Nodes.map(x -> x * 2))
     *     .to(Nodes.sink(System.out::println));
     * }</pre>
     *
     * @param first the first stage (a source, or any block)
     * @param <I> the first stage's input type
     * @param <O> the first stage's output type
     * @return a chain ending with {@code first}
     * @throws IllegalArgumentException if {@code first} is null
     */
    public static <I, O> Chain<I, O> from(Block<I, O> first) {
        if (first == null) {
            throw new IllegalArgumentException("the first stage of the pipeline is null");
        }
        return new Chain<>(Pipeline.<I, O>of(new Block<?, ?>[] {first}));
    }

    /**
     * A typed two-stage pipeline.
     *
     * @param <I> input type of the first stage
     * @param <M> the type passed from the first stage to the second
     * @param <O> output type of the second stage
     * @param first the first stage
     * @param second the second stage
     * @return the pipeline
     */
    public static <I, M, O> Pipeline<I, O> of(Block<I, ? extends M> first, Block<? super M, O> second) {
        return of(new Block<?, ?>[] {first, second});
    }

    /**
     * Appends a stage (FastFlow's {@code appendBlock}), wired with {@link Topology#AUTO}.
     *
     * @param <R> output type of the new last stage
     * @param next the stage to append
     * @return this pipeline, typed with the new output
     */
    public <R> Pipeline<I, R> then(Block<?, R> next) {
        return then(next, Topology.AUTO, null);
    }

    /**
     * Appends a stage wired with the given topology.
     *
     * @param <R> output type of the new last stage
     * @param next the stage to append
     * @param topology how the previous stage's output ports connect to the new stage's input ports
     * @return this pipeline, typed with the new output
     */
    public <R> Pipeline<I, R> then(Block<?, R> next, Topology topology) {
        return then(next, topology, null);
    }

    /**
     * Appends a stage whose incoming channels follow {@code spec}.
     *
     * @param <R> output type of the new last stage
     * @param next the stage to append
     * @param spec the channels into the new stage
     * @return this pipeline, typed with the new output
     */
    public <R> Pipeline<I, R> then(Block<?, R> next, ChannelSpec spec) {
        return then(next, Topology.AUTO, spec);
    }

    /**
     * Appends a stage.
     *
     * @param <R> output type of the new last stage
     * @param next the stage to append
     * @param topology how the previous stage's output ports connect to this stage's input ports
     * @param spec the channels of that connection, or null for the flow's default
     * @return this pipeline, typed with the new output
     */
    @SuppressWarnings("unchecked")
    public <R> Pipeline<I, R> then(Block<?, R> next, Topology topology, ChannelSpec spec) {
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(topology, "topology");
        checkModifiable();
        add(next, topology, spec);
        return (Pipeline<I, R>) this;
    }

    private void add(Block<?, ?> stage, Topology topology, ChannelSpec spec) {
        if (stage == this) {
            throw new IllegalArgumentException("a pipeline cannot contain itself");
        }
        stages.add(stage);
        topologies.add(topology);
        specs.add(spec);
    }

    /**
     * Makes the last stage's output feed the first stage (FastFlow's {@code wrap_around}). The
     * last stage's {@code send} goes back; {@code sendTo(1, x)} goes forward when the pipeline has a
     * next stage. If the first stage already heads a loop (a nested pipeline or farm with feedback),
     * the two loops become one (see the class comment).
     *
     * @return this pipeline
     */
    public Pipeline<I, O> feedback() {
        checkModifiable();
        this.feedback = true;
        return this;
    }

    /**
     * Whether this pipeline closes a feedback loop ({@link #feedback()}).
     *
     * @return true if the last stage's output goes back to the first stage
     */
    public boolean hasFeedback() {
        return feedback;
    }

    /**
     * Sets the name used in paths and thread names (default {@code pipeline}).
     *
     * @param name the new name
     * @return this pipeline
     */
    public Pipeline<I, O> named(String name) {
        rename(name);
        return this;
    }

    /**
     * The stages, in order.
     *
     * @return the stages (unmodifiable)
     */
    public List<Block<?, ?>> stages() {
        return Collections.unmodifiableList(stages);
    }

    @Override
    Ports compile(GraphBuilder g, String path, int workerIndex) {
        int firstVertex = g.vertices.size();
        Ports first = null;
        Ports previous = null;
        for (int i = 0; i < stages.size(); i++) {
            Block<?, ?> stage = stages.get(i);
            Ports p = g.compile(stage, path + "/" + childName(stage) + "[" + i + "]", workerIndex);
            if (previous == null) {
                first = p;
            } else {
                g.wire(previous.exits, p.entries, topologies.get(i), specs.get(i),
                        "pipeline '" + name() + "' (" + path + "), stage " + i + " (" + childName(stage) + ")");
            }
            previous = p;
        }
        if (feedback) {
            String where = "pipeline '" + name() + "' (" + path + ")";
            // where items come back: the first stage's input port, or the source it begins with
            List<Vertex> heads = first.loopEntries;
            if (heads.size() != 1) {
                throw new IllegalStateException(where + ": feedback needs a first stage with exactly one input port, it has "
                        + heads.size());
            }
            Vertex head = heads.get(0);
            for (Vertex exit : previous.exits) {
                g.connect(exit, head, specs.get(0), true);
                if (exit.send == Vertex.Send.POLICY) {
                    exit.send = Vertex.Send.BACK;
                }
            }
            g.loops.add(new LoopShape(where, List.of(head), g.since(firstVertex)));
        }
        return new Ports(first.entries, previous.exits, first.loopEntries);
    }
}
