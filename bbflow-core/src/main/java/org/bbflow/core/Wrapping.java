package org.bbflow.core;

/**
 * A node that runs another node on its thread ({@link Nodes#wrapping}): every call goes to the
 * wrapper, and the flow registers the inner node as one of its own ({@link Members}), so the inner
 * node is held against a second place in the flow and against another running flow exactly as a
 * node placed directly. The delegation is one more call per item, no allocation and no lock.
 */
final class Wrapping<I, O> implements Node<I, O> {
    final Node<I, O> wrapper;
    final Node<?, ?> inner;

    Wrapping(Node<?, ?> inner, Node<I, O> wrapper) {
        this.inner = inner;
        this.wrapper = wrapper;
    }

    @Override
    public void init(NodeContext context) throws Exception {
        wrapper.init(context);
    }

    @Override
    public void onItem(I item, Outbox<O> out) throws Exception {
        wrapper.onItem(item, out);
    }

    @Override
    public void onEos(Outbox<O> out) throws Exception {
        wrapper.onEos(out);
    }

    @Override
    public void close() throws Exception {
        wrapper.close();
    }

    @Override
    public String name() {
        return wrapper.name();
    }
}
