package org.bbflow.core;

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
}
