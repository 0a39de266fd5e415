package org.bbflow.core;

/**
 * {@link Collect#ORDERED} with a {@link ReorderWindow} (an ordered farm whose emitter does not
 * dispatch in strict turn): one unit from the worker the emitter recorded for each item, in input
 * order; then each worker's last unit (its onEos) and end of stream.
 */
final class CollectWindowed extends InputLoop {
    private final ReorderWindow window;
    private final WaitCondition recorded;

    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner, ReorderWindow window) {
        return new CollectWindowed(runner, window);
    }

    CollectWindowed(NodeRunner runner, ReorderWindow window) {
        super(runner);
        this.window = window;
        this.recorded = () -> window.readable() || runner.isCancelled();
    }

    @Override
    void run() throws Exception {
        final NodeRunner r = runner;
        final int n = inputs.length;
        while (true) {
            if (!window.readable()) {
                r.awaitInput(recorded);
            }
            int w = window.next();
            if (w < 0) {
                break;
            }
            if (!deliverOneUnit(w)) {
                throw new IllegalStateException("worker " + r.plan.inputs[w].fromPath + " ended before sending"
                        + " the results of an item it was given");
            }
            window.release();
        }
        for (int w = 0; w < n; w++) {
            while (deliverOneUnit(w)) {
                // the worker's onEos unit, if any
            }
        }
    }

    /** Reads one unit from input w and delivers its items; false at w's end of stream. */
    private boolean deliverOneUnit(int w) throws Exception {
        Object x = runner.take(w);
        if (x == Units.EOS) {
            return false;
        }
        Units.collect(runner, w, x);
        return true;
    }
}
