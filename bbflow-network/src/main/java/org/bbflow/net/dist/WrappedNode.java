package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * A user's node as a worker group runs it, with something added around its items (see the
 * subclasses); everything else goes straight to the node.
 */
abstract class WrappedNode implements Node<Object, Object> {
    final Node<Object, Object> node;

    WrappedNode(Node<Object, Object> node) {
        this.node = node;
    }

    @Override
    public void init(NodeContext context) throws Exception {
        node.init(context);
    }

    @Override
    public void onEos(Outbox<Object> out) throws Exception {
        node.onEos(out);
    }

    @Override
    public void close() throws Exception {
        node.close();
    }

    @Override
    public String name() {
        return node.name();
    }
}
