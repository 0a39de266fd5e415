package org.bbflow.core;

/**
 * A farm collector that reads its workers strictly in turn, one result ({@link CollectRoundRobin})
 * or one unit ({@link CollectOrdered}) from each live worker; a finished worker is skipped.
 */
abstract class CollectInTurn extends InputLoop {
    CollectInTurn(NodeRunner runner) {
        super(runner);
    }

    /** Delivers what worker w sent for one item, starting with x (already read). */
    abstract void collect(int w, Object x) throws Exception;

    /** Reads what worker w sent next (an item, a unit's first marker, or {@link Units#EOS}). */
    Object read(int w) {
        return runner.take(w);
    }

    @Override
    final void run() throws Exception {
        final NodeRunner r = runner;
        final int n = inputs.length;
        final boolean[] ended = new boolean[n];
        int live = n;
        int w = 0;
        while (live > 0) {
            if (ended[w]) {
                w = w + 1 == n ? 0 : w + 1;
                continue;
            }
            Object x = read(w);
            if (x == Units.EOS) {
                ended[w] = true;
                live--;
            } else {
                collect(w, x);
            }
            w = w + 1 == n ? 0 : w + 1;
        }
    }
}
