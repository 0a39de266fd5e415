package org.bbflow.core;

import java.util.ArrayList;
import java.util.List;

/** {@link Collect#GATHER}: one result from each live worker in turn, handed over as one list. */
final class CollectGather extends InputLoop {
    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectGather(runner);
    }

    CollectGather(NodeRunner runner) {
        super(runner);
    }

    @Override
    void run() throws Exception {
        final NodeRunner r = runner;
        final int n = inputs.length;
        final boolean[] ended = new boolean[n];
        final int[] from = new int[n];
        int live = n;
        while (live > 0) {
            List<Object> round = new ArrayList<>(live);
            for (int w = 0; w < n; w++) {
                if (ended[w]) {
                    continue;
                }
                Object x = Units.takeResult(r, w);
                if (x == Units.EOS) {
                    ended[w] = true;
                    live--;
                } else {
                    from[round.size()] = w;
                    round.add(Units.oneResult(r.plan, w, x));
                }
            }
            if (!round.isEmpty()) {
                r.deliverRound(round, from);
            }
        }
    }
}
