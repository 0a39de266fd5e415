package org.bbflow.core;

/** One input, no feedback loop: the hot path of a pipeline stage. */
final class CollectSingleInput extends InputLoop {
    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectSingleInput(runner);
    }

    CollectSingleInput(NodeRunner runner) {
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
                    r.awaitItem(0);
                    continue;
                }
            }
            c.wakeProducer();
            r.deliver(0, x);
        }
    }
}
