package org.bbflow.net;

import java.util.function.Supplier;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.net.internal.StreamCuts;

/**
 * A node that sends each item it receives into a {@link RemoteOutlet} opened when the node starts,
 * completes the stream at end of stream and, closed without that (the flow failed or was
 * cancelled), aborts it, so the receiver never mistakes a failure for a clean end.
 *
 * <p>As the sending half of a remote round trip ({@link RemoteBlocks#roundTrip}) it also passes one
 * {@link #TICKET} per item to {@link RoundTripReturn} on the local edge between them. That edge lies
 * inside the enclosing feedback loop, so the core's in-flight count keeps the ticket (hence the
 * item in the other JVM) counted until its answer has been sent back into the loop.
 *
 * @param <T> the type sent
 * @param <O> what the node passes on: nothing ({@code Void}) or tickets ({@code Object})
 */
final class OutletNode<T, O> implements Node<T, O> {
    /** One ticket per item sent into a round trip; the same reference every time (no allocation). */
    static final Object TICKET = new Object() {
        @Override
        public String toString() {
            return "round-trip ticket";
        }
    };

    private final Supplier<RemoteOutlet<T>> opener;
    private final String name;
    private final O ticket;
    private RemoteOutlet<T> out;
    private NodeContext context;
    private boolean finished;

    private OutletNode(Supplier<RemoteOutlet<T>> opener, String name, O ticket) {
        this.opener = opener;
        this.name = name;
        this.ticket = ticket;
    }

    /** The last stage of a remote edge: passes nothing on. */
    static <T> OutletNode<T, Void> sink(Supplier<RemoteOutlet<T>> opener, String name) {
        return new OutletNode<>(opener, name, null);
    }

    /** The sending half of a round trip: passes one {@link #TICKET} on per item sent. */
    static <T> OutletNode<T, Object> ticketed(Supplier<RemoteOutlet<T>> opener, String name) {
        return new OutletNode<>(opener, name, TICKET);
    }

    @Override
    public void init(NodeContext ctx) {
        if (out != null) throw new IllegalStateException(name + " can run only once");
        context = ctx;
        out = opener.get();
    }

    @Override
    public void onItem(T item, Outbox<O> o) {
        out.send(item);
        if (ticket != null) {
            o.send(ticket); // counted in flight before this item stops being counted: the count never dips to 0
        }
    }

    /**
     * Ends the remote stream as this flow's stream ended: cleanly, or, if the flow's stream was cut
     * without cancelling anything (a source's {@link org.bbflow.core.StreamFailure}), with that failure
     * ({@link RemoteOutlet#completeWithFailure}), so the receiver does not take a cut stream for a
     * whole one. A flow cancelled meanwhile ends nothing here: {@link #close()} aborts.
     */
    @Override
    public void onEos(Outbox<O> o) {
        if (context.isCancelled()) return;
        if (context.flowFailed()) {
            out.completeWithFailure(StreamCuts.description(context));
        } else {
            out.complete(); // in a round trip the loop has ended: nothing is in the remote path any more
        }
        finished = true;
    }

    @Override
    public void close() {
        if (out != null && !finished) out.close(); // without complete(): aborts, the remote side fails
    }

    @Override
    public String name() {
        return name;
    }
}
