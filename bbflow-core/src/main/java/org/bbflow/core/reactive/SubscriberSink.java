package org.bbflow.core.reactive;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/** The last stage of a {@link FlowPublisher}'s flow: hands each item to the subscriber against its demand. */
final class SubscriberSink<T> implements Node<T, Void> {
    private final FlowSubscription<T> subscription;
    private NodeContext context;

    SubscriberSink(FlowSubscription<T> subscription) {
        this.subscription = subscription;
    }

    @Override
    public void init(NodeContext context) {
        this.context = context;
    }

    @Override
    public void onItem(T item, Outbox<Void> out) {
        if (subscription.awaitDemand(context)) {
            subscription.deliver(item);
        }
    }

    @Override
    public void close() {
        context = null;
    }

    @Override
    public String name() {
        return "subscriber";
    }
}
