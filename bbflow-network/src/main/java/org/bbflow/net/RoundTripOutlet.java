package org.bbflow.net;

import java.util.function.Supplier;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * The sending half of a remote round trip ({@link RemoteBlocks#roundTrip}): sends each item to the
 * remote path, then passes one ticket to {@link RoundTripReturn} on the local edge between them.
 * That edge lies inside the enclosing feedback loop, so the core's in-flight count keeps the ticket
 * (hence the item in the other JVM) counted until its answer has been sent back into the loop.
 * At end of stream it completes the forward stream; closed without that, it aborts it.
 *
 * @param <T> the type sent
 */
final class RoundTripOutlet<T> implements Node<T, Object> {
    /** One ticket per item sent into the remote path; the same reference every time (no allocation). */
    static final Object TICKET = new Object() {
        @Override
        public String toString() {
            return "round-trip ticket";
        }
    };

    private final Supplier<RemoteOutlet<T>> opener;
    private final String name;
    private RemoteOutlet<T> out;
    private boolean finished;

    RoundTripOutlet(Supplier<RemoteOutlet<T>> opener, String name) {
        this.opener = opener;
        this.name = name;
    }

    @Override
    public void init(NodeContext ctx) {
        if (out != null) throw new IllegalStateException(name + " can run only once");
        out = opener.get();
    }

    @Override
    public void onItem(T item, Outbox<Object> o) {
        out.send(item);
        o.send(TICKET); // counted in flight before this item stops being counted: the count never dips to 0
    }

    @Override
    public void onEos(Outbox<Object> o) {
        out.complete(); // the loop has ended: nothing is in the remote path any more
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
