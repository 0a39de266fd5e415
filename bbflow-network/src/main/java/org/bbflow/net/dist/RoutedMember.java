package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * Runs a node in its group as if it were where its stand-in is in the master's flow (an all-to-all
 * member, or any node inside a feedback loop): it sees, per item, the input the item came in on, the
 * counts of its stand-in's inputs and outputs and whether the item was fed back, and its
 * {@code sendTo(j)}, {@code send} and {@code broadcast} travel back tagged so that the stand-in
 * routes them as the node chose (see {@link Routed}). Until its first item the node sees one input
 * and one output (what the counts are in the master is known from the first item on).
 */
final class RoutedMember extends WrappedNode {
    /** The item being handled: its input port and the stand-in's counts. */
    private int port = -1;
    private int inputs = 1;
    private int outputs = 1;
    private boolean fromFeedback;
    private Outbox<Object> out;
    private final Outbox<Object> routedOut = new Outbox<>() {
        @Override
        public void send(Object item) {
            out.send(new Routed(Routed.POLICY, port + 1, 0, false, item));
        }

        @Override
        public void sendTo(int output, Object item) {
            if (output < 0 || output >= outputs) {
                throw new IndexOutOfBoundsException("member " + node.name() + ": output " + output
                        + " does not exist, it has " + outputs + " output(s)");
            }
            out.send(new Routed(output, 0, 0, false, item));
        }

        @Override
        public void broadcast(Object item) {
            out.send(new Routed(Routed.BROADCAST, 0, 0, false, item));
        }

        @Override
        public int outputCount() {
            return outputs;
        }
    };

    RoutedMember(Node<Object, Object> member) {
        super(member);
    }

    @Override
    public void init(NodeContext ctx) throws Exception {
        node.init(new NodeContext() {
            @Override
            public String name() {
                return ctx.name();
            }

            @Override
            public String path() {
                return ctx.path();
            }

            @Override
            public int workerIndex() {
                return ctx.workerIndex();
            }

            @Override
            public int inputIndex() {
                return port;
            }

            @Override
            public int inputCount() {
                return inputs;
            }

            @Override
            public boolean fromFeedback() {
                return fromFeedback;
            }

            @Override
            public boolean isCancelled() {
                return ctx.isCancelled();
            }

            @Override
            public boolean flowFailed() {
                return ctx.flowFailed(); // a cut stream (StreamFailure) cancels nothing: a collector asks this
            }

            @Override
            public Throwable flowFailure() {
                return ctx.flowFailure();
            }

            @Override
            public boolean hasPendingInput() {
                return ctx.hasPendingInput();
            }
        });
    }

    @Override
    public void onItem(Object item, Outbox<Object> o) throws Exception {
        Routed r = (Routed) item;
        port = r.port();
        inputs = r.inputs();
        outputs = r.outputs();
        fromFeedback = r.fromFeedback();
        out = o;
        node.onItem(r.item(), routedOut);
        port = -1;
        fromFeedback = false;
    }

    @Override
    public void onEos(Outbox<Object> o) throws Exception {
        out = o;
        node.onEos(routedOut);
    }
}
