package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.net.RemoteOutlet;
import org.bbflow.net.internal.StreamCuts;

/**
 * The last stage of a worker running in a non-master group: sends the worker's results to the
 * master and completes the stream at end of stream. It does not abort on failure: the group first
 * reports why it failed, then aborts (so the master learns the cause before it sees the abort), as it
 * closes its {@link GroupInlet}s; its node's end only stops the sending. A group flow whose
 * stream was cut (the stream it received ended with a failure: the master's source threw a
 * {@code StreamFailure}) ends the stream with that failure, so the next group or the master does not
 * take it for a whole one.
 */
final class GroupOutlet implements Node<Object, Void> {
    private final RemoteOutlet<Object> outlet;
    private final String name;
    private volatile boolean completed;
    private NodeContext context;

    GroupOutlet(RemoteOutlet<Object> outlet, String name) {
        this.outlet = outlet;
        this.name = name;
    }

    @Override
    public void onItem(Object item, Outbox<Void> out) {
        outlet.send(item);
    }

    @Override
    public void init(NodeContext ctx) {
        context = ctx;
    }

    @Override
    public void onEos(Outbox<Void> out) {
        if (context != null && context.isCancelled()) {
            return; // the group aborts the stream after its report
        }
        if (context != null && context.flowFailed()) {
            outlet.completeWithFailure(StreamCuts.description(context));
        } else {
            outlet.complete();
        }
        completed = true;
    }

    /**
     * At its node's end, on its thread (whether the node completed, failed or was cancelled): sends
     * what it sent and gives up its buffer ({@link RemoteOutlet#stopSending()}), but leaves the
     * stream open for the group to abort after its report. Without it, a node cancelled between two
     * items (a group killed in local mode, which aborts nothing) held its buffer for ever.
     */
    @Override
    public void close() {
        outlet.stopSending();
    }

    /** Aborts the stream unless it was completed; called by the group after its report. */
    void abortUnlessCompleted() {
        if (!completed) {
            outlet.close();
        }
    }

    @Override
    public String name() {
        return name;
    }
}
