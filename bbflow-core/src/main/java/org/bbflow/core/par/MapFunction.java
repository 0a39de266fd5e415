package org.bbflow.core.par;

/**
 * What a {@link MapNode} does with one item: typically one or more parallel loops over it on the
 * node's own pool.
 *
 * @param <I> the item type
 * @param <O> the result type
 */
@FunctionalInterface
public interface MapFunction<I, O> {
    /**
     * Maps one item.
     *
     * @param item the item
     * @param pool the node's pool, for the loops over the item (the node's thread is its worker 0)
     * @return the result to send on, not null
     * @throws Exception to fail the flow
     */
    O apply(I item, ParallelFor pool) throws Exception;
}
