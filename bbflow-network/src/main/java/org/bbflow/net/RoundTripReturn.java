package org.bbflow.net;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * The receiving half of a remote round trip ({@link RemoteBlocks#roundTrip}): for each ticket from
 * {@link OutletNode#ticketed} it takes one item from the return inlet (waiting for it) and sends it on,
 * so the answer is counted in the loop before its ticket stops being counted. At end of stream it
 * waits for the return stream's clean end: an extra item there means the remote path answered more
 * often than it was asked, an abort fails this node with the remote side's reason. A failed end of the
 * return stream ({@link RemoteStreamFailedException}) after this flow cut its own stream is that cut
 * coming back, not a failure of its own.
 *
 * @param <R> the type coming back
 */
final class RoundTripReturn<R> implements Node<Object, R> {
    private final RemoteInlet<R> inlet;
    private final String name;
    private long answered;
    private NodeContext context;

    RoundTripReturn(RemoteInlet<R> inlet, String name) {
        this.inlet = inlet;
        this.name = name;
    }

    @Override
    public void onItem(Object ticket, Outbox<R> o) {
        R answer = inlet.take();
        if (answer == null) {
            throw new IllegalStateException(name + ": the return stream ended after " + answered
                    + " item(s) while an item was still out; the remote path must send back one item per item it receives");
        }
        answered++;
        o.send(answer);
    }

    @Override
    public void init(NodeContext ctx) {
        context = ctx;
    }

    @Override
    public void onEos(Outbox<R> o) {
        R extra;
        try {
            extra = inlet.take(); // waits for the remote side to end cleanly (or throws its abort)
        } catch (RemoteStreamFailedException echo) {
            // the remote path's flow ended failed because this flow cut the forward stream (its source's
            // StreamFailure, sent on by OutletNode): this flow's own failure, which join() reports
            if (context != null && context.flowFailed()) return;
            throw echo;
        }
        if (extra != null) {
            throw new IllegalStateException(name + ": the remote path sent back more items than it received ("
                    + answered + " expected); it must send back exactly one item per item");
        }
    }

    @Override
    public void close() {
        inlet.close();
    }

    @Override
    public String name() {
        return name;
    }
}
