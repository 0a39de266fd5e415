package org.bbflow.core;

/**
 * A node's input loop: how it reads its inputs (its collect policy). One small class per policy,
 * chosen once when the node is wired ({@link #of}); {@link #run} polls the input channels and hands
 * each item to {@link NodeRunner#deliver}, which calls the node, until the inputs end. An item's
 * way through a node is input loop, node, {@link Dispatcher}, channel.
 */
abstract class InputLoop {
    final NodeRunner runner;
    final Channel<Object>[] inputs;

    InputLoop(NodeRunner runner) {
        this.runner = runner;
        this.inputs = runner.inputs;
    }

    /** Reads and delivers items until every input has ended (or a loop head's loop has drained). */
    abstract void run() throws Exception;

    /**
     * The loop of a node: a farm collector's strict policy (an ordered collector with a reorder
     * window reads in the order its emitter recorded), else first-come (the plain one-input
     * loop when the node has one input and is in no feedback loop).
     */
    static InputLoop of(NodeRunner runner, Vertex v) {
        switch (v.collect) {
            case ROUND_ROBIN:
                return new CollectRoundRobin(runner);
            case GATHER:
                return new CollectGather(runner);
            case ORDERED:
                return v.reorder != null ? new CollectWindowed(runner, v.reorder) : new CollectOrdered(runner);
            default:
                return runner.inputs.length == 1 && !runner.inBack[0] && v.loop == null
                        ? new CollectSingleInput(runner) : new CollectFirstCome(runner);
        }
    }
}
