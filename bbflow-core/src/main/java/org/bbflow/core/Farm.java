package org.bbflow.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A farm (FastFlow's {@code ff_farm}): an emitter dispatches items to N workers running in parallel
 * and a collector gathers their results. Workers are any blocks (nodes, pipelines, farms...).
 *
 * <pre>{@code
 * Farm<Long, Long> f = Farm.of(4, () -> Nodes.map((Long x) -> heavy(x)))
 *         .dispatch(Dispatch.onDemand())
 *         .ordered();
 * }</pre>
 *
 * <ul>
 *   <li>Emitter: an identity node by default; replace it with {@link #emitter(Node)} (a
 *       {@link Source} emitter generates the stream itself), remove it with
 *       {@link #withoutEmitter()} (the workers become the farm's input ports). Its
 *       {@link Outbox#send} follows the {@link Dispatch} policy.</li>
 *   <li>Collector: an identity node reading first-come by default; set the {@link Collect} policy,
 *       replace the node with {@link #collector(Node)}, or remove it with {@link #withoutCollector()}
 *       (the workers become the farm's output ports).</li>
 *   <li>{@link #ordered()}: results leave in input order (FastFlow's {@code ff_OFarm}). Workers must
 *       then be nodes or pipelines of nodes; they may send zero, one or several results per item.
 *       The emitter dispatches round-robin or {@link Dispatch#onDemand() on demand}; on demand, the
 *       collector restores input order within a bounded reorder window ({@link #ordered(int)}).</li>
 *   <li>{@link #feedback()}: workers send results back to the emitter ({@code out.send(x)}) and may
 *       send forward to the collector with {@code out.sendTo(1, x)}; {@link #feedbackFromCollector()}
 *       closes the loop from the collector instead. The loop ends once the emitter's upstream has
 *       ended (or its {@code generate} returned) and no item is left inside the loop (a worker that
 *       keeps items past its {@code onItem} must heed {@link NodeContext#hasPendingInput()}). Feedback
 *       channels are unbounded (as in FastFlow), so a loop can never deadlock on a full way back.</li>
 * </ul>
 *
 * @param <I> input type
 * @param <O> output type
 */
public final class Farm<I, O> extends Composite<I, O> {
    private enum Feedback { NONE, WORKERS, COLLECTOR }

    /** Capacity of the emitter-to-worker channels of an on-demand farm without its own channels. */
    static final int ON_DEMAND_CAPACITY = 1;

    /**
     * The reorder window of an ordered on-demand farm given none with {@link #ordered(int)}: at most
     * this many items (or twice the number of workers, if that is larger) are between the emitter
     * and the collector at any time.
     */
    public static final int DEFAULT_REORDER_WINDOW = 1024;

    private final List<Block<?, ?>> workers = new ArrayList<>();
    private Node<?, ?> emitter;
    private boolean hasEmitter = true;
    private Node<?, ?> collector;
    private Collect collect = Collect.FIRST_COME;
    private Dispatch dispatch = Dispatch.roundRobin();
    private Feedback feedback = Feedback.NONE;
    private ChannelSpec spec;
    /** The reorder window of an ordered farm, or 0 for the default (see {@link #ordered(int)}). */
    private int reorderWindow;

    private Farm() {
        super("farm");
    }

    /**
     * A farm of {@code workers} workers, each made by the factory.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @param workers how many workers
     * @param worker makes each worker (called {@code workers} times, so every worker is a new block)
     * @return the farm
     * @throws IllegalArgumentException if workers is not in [1, {@link Parallelism#MAX}]
     */
    public static <I, O> Farm<I, O> of(int workers, Supplier<? extends Block<? super I, ? extends O>> worker) {
        Parallelism.check("workers", workers);
        Objects.requireNonNull(worker, "worker");
        Farm<I, O> f = new Farm<>();
        for (int i = 0; i < workers; i++) {
            f.addWorker(Objects.requireNonNull(worker.get(), "the worker factory returned null"));
        }
        return f;
    }

    /**
     * A farm of the given workers.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @param workers the workers, each a distinct block
     * @return the farm
     * @throws IllegalArgumentException if there are none, or more than {@link Parallelism#MAX}
     */
    public static <I, O> Farm<I, O> of(List<? extends Block<?, ?>> workers) {
        Objects.requireNonNull(workers, "workers");
        Parallelism.check("workers", workers.size());
        Farm<I, O> f = new Farm<>();
        workers.forEach(f::addWorker);
        return f;
    }

    /**
     * A farm with no worker yet (the thesis's empty farm): add them with {@link #addWorker}.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @return the empty farm
     */
    public static <I, O> Farm<I, O> empty() {
        return new Farm<>();
    }

    /**
     * Adds a worker.
     *
     * @param worker the worker to add
     * @return this farm
     * @throws IllegalArgumentException if the farm has {@link Parallelism#MAX} workers already
     */
    public Farm<I, O> addWorker(Block<?, ?> worker) {
        Objects.requireNonNull(worker, "worker");
        checkModifiable();
        if (worker == this) {
            throw new IllegalArgumentException("a farm cannot be its own worker");
        }
        Parallelism.check("workers", workers.size() + 1);
        workers.add(worker);
        return this;
    }

    /**
     * The emitter's dispatch policy (round-robin by default). An on-demand farm's emitter-to-worker
     * channels have one slot unless {@link #channels} sets them, so that a slow worker holds at
     * most 2 items (one in hand, one queued); when every worker's queue is full the emitter waits for
     * the first one to free a slot.
     *
     * @param policy the dispatch policy
     * @return this farm
     */
    public Farm<I, O> dispatch(Dispatch policy) {
        checkModifiable();
        this.dispatch = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * The collector's policy ({@link Collect#FIRST_COME} by default); {@link Collect#NONE} removes it.
     *
     * @param policy the collection policy
     * @return this farm
     */
    public Farm<I, O> collect(Collect policy) {
        checkModifiable();
        this.collect = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * The collector's policy, as set by {@link #collect(Collect)} or {@link #ordered()}.
     *
     * @return the collection policy
     */
    public Collect collectPolicy() {
        return collect;
    }

    /**
     * Results leave in input order: {@code collect(Collect.ORDERED)}. The emitter dispatches
     * round-robin (the default) or {@link Dispatch#onDemand() on demand}; with on-demand dispatch
     * the collector puts results back in order within a reorder window of
     * {@link #DEFAULT_REORDER_WINDOW} items, or {@code 2 * workers} if that is larger
     * ({@link #ordered(int)} sets another).
     *
     * @return this farm
     */
    public Farm<I, O> ordered() {
        return collect(Collect.ORDERED);
    }

    /**
     * Results leave in input order, with at most {@code window} items between the emitter and the
     * collector (FastFlow's ordered farm with a bounded reorder memory). The emitter records which
     * worker got each item and waits when {@code window} items are dispatched and not yet collected;
     * the collector takes each item's results from the worker that got it, in input order, so results
     * waiting for an earlier, slower item stay in the workers' output channels: never more than
     * {@code window} items' worth, and never more than those channels hold. Works with round-robin
     * and {@link Dispatch#onDemand() on-demand} dispatch; a small window keeps memory and latency
     * low, a large one lets fast workers run ahead of a slow one. Any window of 1 or more is free of
     * deadlock (a window of 1 processes one item at a time).
     *
     * @param window the most items dispatched and not yet collected, at least 1
     * @return this farm
     * @throws IllegalArgumentException if window &lt; 1
     */
    public Farm<I, O> ordered(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("an ordered farm's reorder window must be at least 1, got " + window);
        }
        collect(Collect.ORDERED);
        this.reorderWindow = window;
        return this;
    }

    /**
     * Replaces the default emitter. Its outputs are the workers' input ports, in worker order;
     * {@link Outbox#send} follows the dispatch policy.
     *
     * @param node the emitter node
     * @return this farm
     */
    public Farm<I, O> emitter(Node<?, ?> node) {
        checkModifiable();
        this.emitter = Objects.requireNonNull(node, "node");
        this.hasEmitter = true;
        return this;
    }

    /**
     * Removes the emitter: the workers' input ports become the farm's.
     *
     * @return this farm
     */
    public Farm<I, O> withoutEmitter() {
        checkModifiable();
        this.emitter = null;
        this.hasEmitter = false;
        return this;
    }

    /**
     * Replaces the default collector. Its inputs are the workers' output ports, in worker order
     * ({@link NodeContext#inputIndex()} tells which worker); with {@link Collect#GATHER} it receives
     * a {@code List} per round.
     *
     * @param <R> output item type of the collector
     * @param node the collector node
     * @return this farm, typed with the collector's output
     */
    @SuppressWarnings("unchecked")
    public <R> Farm<I, R> collector(Node<?, R> node) {
        checkModifiable();
        this.collector = Objects.requireNonNull(node, "node");
        if (collect == Collect.NONE) {
            collect = Collect.FIRST_COME;
        }
        return (Farm<I, R>) this;
    }

    /**
     * Removes the collector: the workers' output ports become the farm's.
     *
     * @return this farm
     */
    public Farm<I, O> withoutCollector() {
        checkModifiable();
        this.collector = null;
        this.collect = Collect.NONE;
        return this;
    }

    /**
     * Workers' {@code send} goes back to the emitter; {@code sendTo(1, x)} goes forward.
     *
     * @return this farm
     */
    public Farm<I, O> feedback() {
        checkModifiable();
        this.feedback = Feedback.WORKERS;
        return this;
    }

    /**
     * The collector's {@code send} goes back to the emitter; {@code sendTo(1, x)} goes forward.
     *
     * @return this farm
     */
    public Farm<I, O> feedbackFromCollector() {
        checkModifiable();
        this.feedback = Feedback.COLLECTOR;
        return this;
    }

    /**
     * Whether this farm closes a feedback loop ({@link #feedback()} or {@link #feedbackFromCollector()}).
     *
     * @return true if items can go back to the emitter
     */
    public boolean hasFeedback() {
        return feedback != Feedback.NONE;
    }

    /**
     * The channels between emitter, workers and collector (the flow's default otherwise).
     *
     * @param channels the channels' settings
     * @return this farm
     */
    public Farm<I, O> channels(ChannelSpec channels) {
        checkModifiable();
        this.spec = Objects.requireNonNull(channels, "channels");
        return this;
    }

    /**
     * Sets the name used in paths and thread names (default {@code farm}).
     *
     * @param name the new name
     * @return this farm
     */
    public Farm<I, O> named(String name) {
        rename(name);
        return this;
    }

    /**
     * The workers.
     *
     * @return the workers (unmodifiable)
     */
    public List<Block<?, ?>> workers() {
        return Collections.unmodifiableList(workers);
    }

    /**
     * The number of workers.
     *
     * @return the number of workers
     */
    public int workerCount() {
        return workers.size();
    }

    boolean hasEmitter() {
        return hasEmitter;
    }

    @Override
    Ports compile(GraphBuilder g, String path, int workerIndex) {
        String where = "farm '" + name() + "' (" + path + ")";
        if (workers.isEmpty()) {
            throw new IllegalStateException(where + " has no worker");
        }
        if (feedback != Feedback.NONE && !hasEmitter) {
            throw new IllegalStateException(where + ": feedback goes to the emitter, but the farm has none");
        }
        if (feedback == Feedback.COLLECTOR && collect == Collect.NONE) {
            throw new IllegalStateException(where + ": feedback from the collector, but the farm has none");
        }
        int firstVertex = g.vertices.size();
        Vertex e = null;
        if (hasEmitter) {
            Node<?, ?> node = emitter != null ? emitter : new Nodes.Identity<>("emitter");
            e = g.vertex(node, path + "/emitter", workerIndex);
            e.dispatch = dispatch;
        }
        List<Ports> ports = new ArrayList<>();
        List<String> workerPaths = new ArrayList<>();
        List<List<Vertex>> workerVertices = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            int before = g.vertices.size();
            String workerPath = path + "/worker-" + i;
            ports.add(g.compile(workers.get(i), workerPath, i));
            workerPaths.add(workerPath);
            workerVertices.add(g.since(before));
        }
        if (e != null) {
            // On demand means something only with short worker queues: with long ones "least
            // loaded" is just "not full yet" and a slow worker hoards items. As FastFlow, one-slot
            // queues (a JCTools SPSC queue holds at least 4, so "2" would really be 4): a slow
            // worker holds at most 2 items, one in hand and one queued; channels(...) overrides it.
            ChannelSpec toWorkers = spec == null && dispatch.kind == Dispatch.Kind.ON_DEMAND
                    ? ChannelSpec.bounded(ON_DEMAND_CAPACITY) : spec;
            for (Ports p : ports) {
                for (Vertex entry : p.entries) {
                    g.connect(e, entry, toWorkers, false);
                }
            }
        }
        if (feedback == Feedback.WORKERS) {
            for (Ports p : ports) {
                for (Vertex exit : p.exits) {
                    g.connect(exit, e, spec, true);
                    exit.send = Vertex.Send.BACK;
                }
            }
            // the loop runs through the emitter and the workers; the collector is outside it
            g.loops.add(new LoopShape(where, List.of(e), g.since(firstVertex)));
        }
        Vertex c = null;
        if (collect != Collect.NONE) {
            Node<?, ?> node = collector != null ? collector : new Nodes.Identity<>("collector");
            c = g.vertex(node, path + "/collector", workerIndex);
            c.collect = collect;
            for (Ports p : ports) {
                for (Vertex exit : p.exits) {
                    g.connect(exit, c, spec, false);
                }
            }
        }
        if (feedback == Feedback.COLLECTOR) {
            g.connect(c, e, spec, true);
            c.send = Vertex.Send.BACK;
            g.loops.add(new LoopShape(where, List.of(e), g.since(firstVertex)));
        }
        g.farms.add(new FarmShape(where, e, c, collect, dispatch, reorderWindow, feedback == Feedback.WORKERS,
                workers, workerPaths, workerVertices));
        List<Vertex> entries = new ArrayList<>();
        List<Vertex> loopEntries = new ArrayList<>();
        if (e != null) {
            if (!e.isSource()) {
                entries.add(e);
            }
            loopEntries.add(e);
        } else {
            ports.forEach(p -> entries.addAll(p.entries));
            ports.forEach(p -> loopEntries.addAll(p.loopEntries));
        }
        List<Vertex> exits = new ArrayList<>();
        if (c != null) {
            exits.add(c);
        } else {
            ports.forEach(p -> exits.addAll(p.exits));
        }
        return new Ports(entries, exits, loopEntries);
    }

    /**
     * Combines two farms into one block in the eight ways of FastFlow's {@code combine_farms} (the
     * thesis, chapter 3). {@code r} and {@code g} make the R and G nodes (one per worker where they
     * are fused with workers, so they are factories); either may be null.
     *
     * <p>With {@code merge == false}:
     * <ul>
     *   <li>R and G: the first farm's emitter, an all-to-all of (left worker + R) to (G + right
     *       worker), the second farm's collector;</li>
     *   <li>only R, or only G: the same with only that node fused;</li>
     *   <li>neither: a plain all-to-all of the two farms' workers (first emitter and second
     *       collector removed, as the thesis describes).</li>
     * </ul>
     * With {@code merge == true}:
     * <ul>
     *   <li>R and/or G: a pipeline of the first farm without collector and the second farm whose
     *       emitter is R (fused with G when both are given, or G alone);</li>
     *   <li>neither, same number of workers: the farm fusion, one farm whose worker {@code i} is a
     *       pipeline of left worker {@code i} and right worker {@code i};</li>
     *   <li>neither, different numbers: as with {@code merge == false}.</li>
     * </ul>
     * The two farms are consumed: they cannot be used again. A farm with feedback can only be combined
     * with {@code merge == true} and an R or G node (the one combination that keeps both farms whole).
     *
     * @param <I> input item type of the first farm
     * @param <O> output item type of the second farm
     * @param f1 the first farm
     * @param f2 the second farm
     * @param r makes the R node, or null for none
     * @param g makes the G node, or null for none
     * @param merge whether to merge the farms (see above)
     * @return the combined block
     * @throws IllegalArgumentException if f1 and f2 are one farm, or a farm with feedback would be taken apart
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <I, O> Block<I, O> combine(Farm<I, ?> f1, Farm<?, O> f2,
                                             Supplier<? extends Node<?, ?>> r, Supplier<? extends Node<?, ?>> g,
                                             boolean merge) {
        Objects.requireNonNull(f1, "f1");
        Objects.requireNonNull(f2, "f2");
        if (f1 == f2) {
            throw new IllegalArgumentException("cannot combine a farm with itself");
        }
        f1.checkModifiable();
        f2.checkModifiable();
        if (merge && (r != null || g != null)) {
            Node rNode = r != null ? r.get() : null;
            Node gNode = g != null ? g.get() : null;
            Node emitter = rNode != null && gNode != null ? Comb.of(rNode, gNode) : (rNode != null ? rNode : gNode);
            f1.withoutCollector();
            f2.emitter(emitter);
            return (Block<I, O>) Pipeline.of(f1, f2).named("combine");
        }
        // the other combinations take the farms apart (their workers go into new blocks): a feedback
        // loop to an emitter that is removed or replaced would be dropped without a word
        for (Farm<?, ?> f : List.of(f1, f2)) {
            if (f.hasFeedback()) {
                throw new IllegalArgumentException("cannot combine farm '" + f.name() + "': it has feedback, which"
                        + " this combination would drop (its workers go into a new block); only merge == true with an R"
                        + " or G node keeps both farms whole");
            }
        }
        if (merge && f1.workerCount() == f2.workerCount()) {
            List<Block<?, ?>> fused = new ArrayList<>();
            for (int i = 0; i < f1.workerCount(); i++) {
                fused.add(Pipeline.of(f1.workers.get(i), f2.workers.get(i)));
            }
            Farm<I, O> farm = Farm.<I, O>of(fused).named("combine");
            farm.adoptEnds(f1, f2);
            f1.markStarted();
            f2.markStarted();
            return farm;
        }
        List<Block<?, ?>> left = new ArrayList<>();
        for (Block<?, ?> w : f1.workers) {
            left.add(r == null ? w : fuse(w, r.get()));
        }
        List<Block<?, ?>> right = new ArrayList<>();
        for (Block<?, ?> w : f2.workers) {
            right.add(g == null ? w : fuse(g.get(), w));
        }
        f1.markStarted();
        f2.markStarted();
        AllToAll<I, O> a2a = AllToAll.<I, O>of(left, right);
        if (r == null && g == null) {
            return a2a;
        }
        Farm<I, O> farm = Farm.<I, O>of(List.of(a2a)).named("combine");
        farm.adoptEnds(f1, f2);
        return farm;
    }

    /** Takes f1's emitter configuration and f2's collector configuration. */
    private void adoptEnds(Farm<?, ?> f1, Farm<?, ?> f2) {
        this.hasEmitter = f1.hasEmitter;
        this.emitter = f1.emitter;
        this.dispatch = f1.dispatch;
        this.collect = f2.collect;
        this.collector = f2.collector;
        this.reorderWindow = f2.reorderWindow;
        this.spec = f1.spec;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Block<?, ?> fuse(Block<?, ?> a, Block<?, ?> b) {
        if (a instanceof Node && b instanceof Node && !(b instanceof Source)) {
            return Comb.of((Node) a, (Node) b);
        }
        return Pipeline.of(a, b);
    }
}
