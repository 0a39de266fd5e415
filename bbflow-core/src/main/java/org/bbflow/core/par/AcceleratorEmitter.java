package org.bbflow.core.par;

import org.bbflow.core.Channel;
import org.bbflow.core.Outbox;
import org.bbflow.core.Source;

/**
 * The accelerator farm's emitter: takes what the caller offloaded from the input channel and
 * dispatches it. The end of a burst goes to every worker (first-come results: each worker's marker
 * follows its items of the burst) or, in an ordered farm, once (the ordered collector releases it
 * after every earlier item's results).
 */
final class AcceleratorEmitter implements Source<Object> {
    private final Channel<Object> input;
    private final boolean ordered;

    AcceleratorEmitter(Channel<Object> input, boolean ordered) {
        this.input = input;
        this.ordered = ordered;
    }

    @Override
    public void generate(Outbox<Object> out) {
        Object x;
        while ((x = input.take()) != null) {
            if (x == BurstEnd.INSTANCE && !ordered) {
                out.broadcast(x);
            } else {
                out.send(x);
            }
        }
    }

    @Override
    public String name() {
        return "emitter";
    }
}
