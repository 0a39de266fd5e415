package org.bbflow.core;

/**
 * One input channel, outside loops and units ({@link NodeRunner#runInput}): the shortest loop. Once
 * an item is there it hands the node every item the channel holds, up to {@link NodeRunner#RUN_BOUND},
 * in one run ({@link NodeRunner#deliverRun}) that does per item only what must be per item (the poll,
 * the producer's wake-up check, the cancellation check, the node's call); statistics and context are
 * written once per run.
 */
final class CollectRuns extends InputLoop {
    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectRuns(runner);
    }

    CollectRuns(NodeRunner runner) {
        super(runner);
    }

    @Override
    void run() throws Exception {
        final NodeRunner r = runner;
        final Link c = inputs[0];
        while (true) {
            Object x = c.pollRaw();
            if (x == null) {
                if (c.isClosed()) {
                    x = c.pollRaw();
                    if (x == null) {
                        return;
                    }
                } else {
                    r.awaitRunInput(c);
                    continue;
                }
            }
            r.deliverRun(c, x);
        }
    }
}
