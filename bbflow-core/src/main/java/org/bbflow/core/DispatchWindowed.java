package org.bbflow.core;

/**
 * The emitter of an ordered farm with a {@link ReorderWindow}: waits for a free slot, dispatches
 * the item by its policy (on demand, round-robin, or the one output), and records in the window
 * which worker got it, so the collector can put the results back in input order.
 */
final class DispatchWindowed extends Dispatcher {
    private final ReorderWindow window;
    /** The on-demand policy whose pick this records, or null. */
    private final DispatchOnDemand onDemand;
    /** Round-robin over the outputs; otherwise (no on-demand either) always output 0. */
    private final boolean roundRobin;
    private final WaitCondition room;
    private int next;

    /** This policy around {@code policy} (made here, not in {@link OutboxImpl}: see {@link Dispatcher#of}). */
    static Dispatcher create(OutboxImpl out, ReorderWindow window, Dispatcher policy, CancelFlag cancel) {
        return new DispatchWindowed(out, window, policy, cancel);
    }

    DispatchWindowed(OutboxImpl out, ReorderWindow window, Dispatcher policy, CancelFlag cancel) {
        super(out);
        this.window = window;
        this.onDemand = policy instanceof DispatchOnDemand ? (DispatchOnDemand) policy : null;
        this.roundRobin = policy instanceof DispatchRoundRobin;
        this.room = () -> window.hasRoom() || cancel.raised;
    }

    @Override
    void send(Object item) {
        if (!window.hasRoom()) {
            out.awaitOutput(room);
        }
        int i;
        if (onDemand != null) {
            i = onDemand.sendPicked(item);
        } else {
            i = roundRobin ? next : 0;
            next = i + 1 == n ? 0 : i + 1;
            out.put(i, item);
        }
        window.record(i);
    }
}
