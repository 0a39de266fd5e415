package org.bbflow.core.par;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/** The user's worker node inside an accelerator: passes the end-of-burst marker on, delegates the rest. */
final class AcceleratorWorker<I, O> implements Node<Object, Object> {
    private final Node<? super I, ? extends O> worker;

    AcceleratorWorker(Node<? super I, ? extends O> worker) {
        this.worker = worker;
    }

    @Override
    public void init(NodeContext context) throws Exception {
        worker.init(context);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onItem(Object item, Outbox<Object> out) throws Exception {
        if (item == BurstEnd.INSTANCE) {
            out.send(item);
        } else {
            ((Node<I, O>) worker).onItem((I) item, (Outbox<O>) (Outbox<?>) out);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onEos(Outbox<Object> out) throws Exception {
        ((Node<I, O>) worker).onEos((Outbox<O>) (Outbox<?>) out);
    }

    @Override
    public void close() throws Exception {
        worker.close();
    }

    @Override
    public String name() {
        return worker.name();
    }
}
