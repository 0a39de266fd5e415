package org.bbflow.core;

/** {@link Collect#ORDERED}: one unit from each worker in turn, which is input order (see {@link Units}). */
final class CollectOrdered extends CollectInTurn {
    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectOrdered(runner);
    }

    CollectOrdered(NodeRunner runner) {
        super(runner);
    }

    @Override
    void collect(int w, Object x) throws Exception {
        Units.collect(runner, w, x);
    }
}
