package org.bbflow.core;

/** {@link Collect#ROUND_ROBIN}: strictly one result from each worker in turn. */
final class CollectRoundRobin extends CollectInTurn {
    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectRoundRobin(runner);
    }

    CollectRoundRobin(NodeRunner runner) {
        super(runner);
    }

    @Override
    Object read(int w) {
        return Units.takeResult(runner, w);
    }

    @Override
    void collect(int w, Object x) throws Exception {
        runner.deliver(w, Units.oneResult(runner.plan, w, x));
    }
}
