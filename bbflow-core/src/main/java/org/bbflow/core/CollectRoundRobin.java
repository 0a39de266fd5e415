package org.bbflow.core;

/** {@link Collect#ROUND_ROBIN}: strictly one result from each worker in turn. */
final class CollectRoundRobin extends CollectInTurn {
    CollectRoundRobin(NodeRunner runner) {
        super(runner);
    }

    @Override
    void collect(int w, Object x) throws Exception {
        runner.deliver(w, Units.oneResult(runner.plan, w, x));
    }
}
