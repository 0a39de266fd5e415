package org.bbflow.core;

/**
 * Several inputs (or a feedback loop): whatever arrives first, scanning the inputs fairly from
 * where the last item came. Feedback inputs never end by themselves: the loop's heads end when all
 * their outside inputs have ended and nothing is in flight in the loop.
 */
final class CollectFirstCome extends InputLoop implements WaitCondition {
    private final boolean[] back;
    private final Loop loop;
    private final boolean loopHead;
    private final boolean[] ended;
    /** Outside (not feedback) inputs not yet at end of stream. */
    private int liveExternal;

    /** This loop for {@code runner}'s node (made here, not in {@link InputLoop#of}: see there). */
    static InputLoop create(NodeRunner runner) {
        return new CollectFirstCome(runner);
    }

    CollectFirstCome(NodeRunner runner) {
        super(runner);
        this.back = runner.inBack;
        this.loop = runner.loop;
        this.loopHead = runner.plan.loopHead;
        this.ended = new boolean[inputs.length];
    }

    @Override
    void run() throws Exception {
        final NodeRunner r = runner;
        final Link[] in = inputs;
        final int n = in.length;
        liveExternal = 0;
        for (int i = 0; i < n; i++) {
            if (!back[i]) {
                liveExternal++;
            }
        }
        if (loopHead && liveExternal == 0) {
            loop.heads.inputEnded();
        }
        int i = 0;
        while (true) {
            boolean progressed = false;
            for (int k = 0; k < n; k++) {
                if (!ended[i]) {
                    Link c = in[i];
                    Object x = c.pollRaw();
                    if (x == null && !back[i] && c.isClosed()) {
                        x = c.pollRaw();
                        if (x == null) {
                            ended[i] = true;
                            if (--liveExternal == 0 && loopHead) {
                                loop.heads.inputEnded();
                            }
                        }
                    }
                    if (x != null) {
                        c.wakeProducer();
                        r.deliver(i, x);
                        progressed = true;
                    }
                }
                if (++i == n) {
                    i = 0;
                }
            }
            if (progressed) {
                continue;
            }
            if (liveExternal == 0 && (!loopHead || loopDrained())) {
                return;
            }
            r.awaitInput(this);
        }
    }

    /** The head may end its loop: nothing in flight and nothing waiting on a feedback channel. */
    private boolean loopDrained() {
        if (!loop.heads.allInputsEnded() || loop.inFlight.get() != 0) {
            return false;
        }
        for (int i = 0; i < inputs.length; i++) {
            if (back[i] && !inputs[i].queue.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Whether any input has an item or has ended (or the loop has drained, or the flow is cancelled). */
    @Override
    public boolean ready() {
        if (runner.isCancelled()) {
            return true;
        }
        for (int i = 0; i < inputs.length; i++) {
            if (!ended[i] && (inputs[i].hasItem() || (!back[i] && inputs[i].isClosed()))) {
                return true;
            }
        }
        return loopHead && liveExternal == 0 && loop.heads.allInputsEnded() && loop.inFlight.get() == 0;
    }
}
