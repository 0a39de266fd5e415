package org.bbflow.core.sched;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.bbflow.core.Block;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Parallelism;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;

/**
 * Runs a {@link TaskGraph} on a farm of workers, each task only after all its dependencies
 * completed (Wavescope's access scheduler, FastFlow's macro data-flow). The farm's emitter is the
 * scheduler: it keeps at most {@link #maxInFlight(int)} tasks at the workers (default: one per
 * worker, like Wavescope's jobs queue), learns of completions over the farm's feedback channel, and
 * among the ready tasks always dispatches the first in the {@link #locality(Comparator)} order
 * (e.g. by file and offset, to keep disk reads sequential), ties in insertion order. Workers get
 * tasks on demand (to the least-loaded worker).
 *
 * <pre>{@code
 * TaskGraph<String, Segment> g = TaskGraph.create();
 * g.add("fft-a", segA).add("fft-b", segB).add("sum", sumAB, "fft-a", "fft-b");
 * DependencyScheduler.of(g, 4, () -> seg -> seg.run())
 *         .locality(Comparator.comparing(Segment::file).thenComparingLong(Segment::offset))
 *         .run();
 * }</pre>
 *
 * The graph is validated when the scheduler is made: unknown dependencies and cycles are rejected
 * with an {@link IllegalArgumentException} before anything runs. A failing task fails the flow.
 *
 * @param <K> task id type
 * @param <T> task payload type
 * @param <R> result type
 */
public final class DependencyScheduler<K, T, R> {
    private final Dag<K, T> dag;
    private final int workers;
    private final Supplier<? extends TaskAction<? super T, ? extends R>> actions;
    private Comparator<? super T> locality;
    private int maxInFlight;
    private SchedulerEmitter<K, T> emitter;

    private DependencyScheduler(Dag<K, T> dag, int workers, Supplier<? extends TaskAction<? super T, ? extends R>> actions) {
        this.dag = dag;
        this.workers = workers;
        this.actions = actions;
        this.maxInFlight = workers;
    }

    /**
     * A scheduler for {@code graph} on {@code workers} workers, each with its own action from
     * {@code actions}.
     *
     * @param <K> task id type
     * @param <T> task type
     * @param <R> result type
     * @param graph the tasks and their dependencies
     * @param workers the number of workers, in [1, {@link Parallelism#MAX}]
     * @param actions makes one action per worker
     * @return the scheduler
     * @throws IllegalArgumentException when the graph has an unknown dependency or a cycle
     */
    public static <K, T, R> DependencyScheduler<K, T, R> of(TaskGraph<K, T> graph, int workers,
            Supplier<? extends TaskAction<? super T, ? extends R>> actions) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(actions, "actions");
        Parallelism.check("workers", workers);
        return new DependencyScheduler<>(graph.compile(), workers, actions);
    }

    /**
     * The order in which ready tasks are dispatched (default: insertion order).
     *
     * @param order the dispatch order among ready tasks
     * @return this scheduler
     */
    public DependencyScheduler<K, T, R> locality(Comparator<? super T> order) {
        this.locality = Objects.requireNonNull(order, "order");
        return this;
    }

    /**
     * The most tasks dispatched and not yet completed at any time; at least 1 (default: workers).
     *
     * @param limit the most tasks in flight
     * @return this scheduler
     */
    public DependencyScheduler<K, T, R> maxInFlight(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("maxInFlight must be >= 1, got " + limit);
        }
        this.maxInFlight = limit;
        return this;
    }

    /**
     * The scheduler as a block whose output is the tasks' non-null results, in completion order;
     * single-use.
     *
     * @return the block
     */
    public Block<Void, R> block() {
        if (emitter != null) {
            throw new IllegalStateException("a DependencyScheduler builds its block once");
        }
        emitter = new SchedulerEmitter<>(dag, maxInFlight, locality);
        // Workers take jobs and send both results (forward) and jobs (back): typed loosely inside.
        Supplier<Block<Object, R>> worker = () -> erase(new SchedulerWorker<T, R>(actions.get()));
        Farm<Object, R> farm = Farm.<Object, R>of(workers, worker)
            .emitter(emitter)
            .dispatch(Dispatch.onDemand())
            .feedback();
        return Pipeline.of(Nodes.fromIterable(List.of(Boolean.TRUE)), farm);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <X> Block<Object, X> erase(Block<?, ?> b) {
        return (Block) b;
    }

    /**
     * Runs all tasks, discarding results.
     *
     * @return the run's statistics
     * @throws org.bbflow.core.FlowException when a task failed
     */
    public RunStats run() {
        return Pipeline.of(block(), Nodes.sink(r -> { })).run();
    }

    /** @return tasks completed (after or during a run) */
    public int completed() {
        return emitter == null ? 0 : emitter.completed();
    }

    /** @return the most tasks that were in flight at once (at most {@link #maxInFlight(int)}) */
    public int peakInFlight() {
        return emitter == null ? 0 : emitter.maxSeenInFlight();
    }
}
