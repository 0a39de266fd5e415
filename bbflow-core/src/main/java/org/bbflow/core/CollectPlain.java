package org.bbflow.core;

/**
 * One input over a plain one-to-one edge ({@link EdgePlan#plain}): the shortest loop. Once an item
 * is there it hands the node every item the channel holds, up to {@link NodeRunner#RUN_BOUND}, in
 * one run ({@link NodeRunner#deliverRun}) that does per item only what must be per item (the poll,
 * the producer's wake-up check, the cancellation check, the node's call); statistics and context
 * are written once per run.
 */
final class CollectPlain extends InputLoop {
    CollectPlain(NodeRunner runner) {
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
                    r.awaitPlainItem(c);
                    continue;
                }
            }
            r.deliverRun(c, x);
        }
    }
}
