package org.bbflow.core;

/** How a farm's collector reads its workers (FastFlow's gathering policies). */
public enum Collect {
    /** Whatever arrives first, scanning the workers fairly. */
    FIRST_COME,
    /**
     * Strictly one item from each worker in turn; a finished worker is skipped. Needs the farm's
     * round-robin emitter, and workers that send exactly one result per item: a worker that sends
     * none keeps the collector waiting on it (use {@link #ORDERED} for such workers).
     */
    ROUND_ROBIN,
    /**
     * One item from each worker in turn, delivered to the collector as one {@code List}; the usual
     * partner of {@link Dispatch#scatter()}. Needs the farm's round-robin, scatter or broadcast
     * emitter and one result per item from every worker.
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
