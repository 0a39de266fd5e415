package org.bbflow.core;

/** How a farm's collector reads its workers (FastFlow's gathering policies). */
public enum Collect {
    /** Whatever arrives first, scanning the workers fairly. */
    FIRST_COME,
    /**
     * Strictly one item from each worker in turn; a finished worker is skipped. Needs the farm's
     * round-robin emitter, and workers that send exactly one result per item: when workers are
     * nodes or pipelines of nodes, a worker that sends none or several for an item fails the flow
     * with an error naming it (other workers are not checked, and such a worker would keep the
     * collector waiting on it). Use {@link #ORDERED} for workers that drop or multiply items.
     */
    ROUND_ROBIN,
    /**
     * One item from each worker in turn, delivered to the collector as one {@code List}; the usual
     * partner of {@link Dispatch#scatter()}. Needs the farm's round-robin, scatter or broadcast
     * emitter and one result per item from every worker (checked as for {@link #ROUND_ROBIN}).
     */
    GATHER,
    /**
     * Output in input order (FastFlow's {@code ff_OFarm}), whatever the workers' speeds and even if
     * a worker sends zero or several results for an item.
     */
    ORDERED,
    /** No collector: the workers' outputs are the farm's output ports. */
    NONE
}
