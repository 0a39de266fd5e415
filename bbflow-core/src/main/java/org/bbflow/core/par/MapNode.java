package org.bbflow.core.par;

import java.util.Objects;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Parallelism;
import org.bbflow.core.WaitStrategy;

/**
 * A node that runs parallel loops over each item on a pool of its own (FastFlow's {@code ff_Map}):
 * a stream of arrays, say, each mapped in parallel. Usable wherever a node is: as a pipeline stage,
 * as a farm worker (each worker with its own pool), fused with {@code andThen}.
 *
 * <pre>{@code
 * Pipeline.of(
 *     Nodes.fromIterable(images),
 *     MapNode.of(4, (double[] img, ParallelFor pf) -> {
 *         double[] out = new double[img.length];
 *         pf.parallelForInt(0, img.length, i -> out[i] = filter(img, i));
 *         return out;
 *     }),
 *     Nodes.sink(results::add)).run();
 * }</pre>
 *
 * <p>The pool is made when the flow starts the node ({@link #init}) and closed when the node ends
 * ({@link #close}), whether the flow succeeded, failed or was cancelled. Its parallelism counts the
 * node's own thread, which runs worker 0 of every loop: a map node of parallelism p adds p-1
 * threads, named {@code <node path>/map/worker-<i>}. Cancelling the flow interrupts the node's thread,
 * which cancels the loop it runs.
 *
 * @param <I> the input item type
 * @param <O> the output item type
 */
public final class MapNode<I, O> implements Node<I, O> {
    private final int parallelism;
    private final WaitStrategy waitStrategy;
    private final MapFunction<? super I, ? extends O> function;
    private ParallelFor pool;

    private MapNode(int parallelism, WaitStrategy waitStrategy, MapFunction<? super I, ? extends O> function) {
        this.parallelism = parallelism;
        this.waitStrategy = waitStrategy;
        this.function = function;
    }

    /**
     * A map node whose pool has {@code parallelism} workers waiting with {@link ParallelFor#defaultWaitStrategy()}.
     *
     * @param <I> the input item type
     * @param <O> the output item type
     * @param parallelism the pool's workers, the node's thread included; at least 1
     * @param function maps one item, given the pool
     * @return the node
     * @throws IllegalArgumentException if parallelism is not in [1, {@link Parallelism#MAX}]
     */
    public static <I, O> MapNode<I, O> of(int parallelism, MapFunction<? super I, ? extends O> function) {
        return of(parallelism, ParallelFor.defaultWaitStrategy(), function);
    }

    /**
     * A map node whose pool waits between items with the given strategy (FastFlow's
     * {@code ff_Map(maxp, spinWait)}).
     *
     * @param <I> the input item type
     * @param <O> the output item type
     * @param parallelism the pool's workers, the node's thread included; at least 1
     * @param waitStrategy how the pool's threads wait between loops
     * @param function maps one item, given the pool
     * @return the node
     * @throws IllegalArgumentException if parallelism is not in [1, {@link Parallelism#MAX}]
     */
    public static <I, O> MapNode<I, O> of(int parallelism, WaitStrategy waitStrategy,
            MapFunction<? super I, ? extends O> function) {
        Parallelism.check("parallelism", parallelism);
        return new MapNode<>(parallelism, Objects.requireNonNull(waitStrategy, "waitStrategy"),
                Objects.requireNonNull(function, "function"));
    }

    /**
     * Starts the node's pool.
     *
     * @param context the node's place in the flow; its path names the pool's threads
     */
    @Override
    public void init(NodeContext context) {
        if (pool != null) {
            throw new IllegalStateException("map node " + context.path() + " is already running: a node belongs to one flow");
        }
        pool = ParallelFor.create(context.path() + "/map", parallelism, waitStrategy);
    }

    @Override
    public void onItem(I item, Outbox<O> out) throws Exception {
        O result = function.apply(item, pool);
        if (result == null) {
            throw new IllegalArgumentException("map node function returned null for item " + item);
        }
        out.send(result);
    }

    /** Closes the node's pool: its threads have ended when this returns. */
    @Override
    public void close() {
        ParallelFor p = pool;
        pool = null;
        if (p != null) {
            p.close();
        }
    }

    @Override
    public String name() {
        return "map";
    }

    /**
     * The number of workers of the node's pool.
     *
     * @return the parallelism
     */
    public int parallelism() {
        return parallelism;
    }
}
