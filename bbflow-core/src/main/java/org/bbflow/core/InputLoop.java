package org.bbflow.core;

/**
 * A node's input loop: how it reads its inputs (its collect policy). One small class per policy,
 * chosen once when the node is wired ({@link #of}); {@link #run} polls the input channels and hands
 * each item to {@link NodeRunner#deliver}, which calls the node, until the inputs end. An item's
 * way through a node is input loop, node, {@link Dispatcher}, channel.
 */
abstract class InputLoop {
    final NodeRunner runner;
    final Link[] inputs;

    InputLoop(NodeRunner runner) {
        this.runner = runner;
        this.inputs = runner.inputs;
    }

    /** Reads and delivers items until every input has ended (or a loop head's loop has drained). */
    abstract void run() throws Exception;

    /**
     * The loop the plan chose for the node ({@link NodePlan#read}); {@code window} is its reorder
     * window, if any. Each loop is made by its own class's {@code create}, so that only the chosen
     * one is loaded (see {@link Dispatcher#of}).
     */
    static InputLoop of(NodeRunner runner, ReorderWindow window) {
        switch (runner.plan.read) {
            case ROUND_ROBIN: return CollectRoundRobin.create(runner);
            case GATHER: return CollectGather.create(runner);
            case ORDERED: return CollectOrdered.create(runner);
            case WINDOWED: return CollectWindowed.create(runner, window);
            case SINGLE: return runner.runInput ? CollectRuns.create(runner) : CollectSingleInput.create(runner);
            default: return CollectFirstCome.create(runner);
        }
    }
}
