package org.bbflow.core;

/** {@link Collect#ORDERED}: one unit from each worker in turn, which is input order (see {@link Units}). */
final class CollectOrdered extends CollectInTurn {
    CollectOrdered(NodeRunner runner) {
        super(runner);
    }

    @Override
    void collect(int w, Object x) throws Exception {
        Units.collect(runner, w, x);
    }
}
