package org.bbflow.core;

import java.util.Objects;

/**
 * Two nodes fused on one thread (FastFlow's {@code ff_comb}): what the first sends is handed
 * directly to the second, with no channel in between. {@code init}, {@code onEos} and
 * {@code close} of both are honoured: both are initialised (first, then second); at end of stream
 * the first's {@code onEos} runs (its sends still reach the second), then the second's; both are
 * closed even if one close fails.
 *
 * <p>The combination takes the first node's inputs and the second node's outputs; if the first is
 * a {@link Source}, the combination is a source, and at the head of a feedback loop the items fed
 * back reach the first node's {@link Source#onFeedback} (its sends go through the second node).
 *
 * @param <I> input type of the first node
 * @param <O> output type of the second node
 */
public class Comb<I, O> implements Node<I, O> {
    final Node<I, Object> first;
    final Node<Object, O> second;
    private final Inner inner = new Inner();
    Outbox<O> out;
    /**
     * The {@link StreamFailure} the second node last threw, if it threw one: from a source's
     * {@code generate} it passes through the first node's, but it is the second node's failure, not
     * the end of the source's stream ({@link #thrownAfterSource}).
     */
    private Throwable secondThrew;

    @SuppressWarnings("unchecked")
    Comb(Node<I, ?> first, Node<?, O> second) {
        this.first = (Node<I, Object>) Objects.requireNonNull(first, "first");
        this.second = (Node<Object, O>) Objects.requireNonNull(second, "second");
        if (first == second) {
            throw new IllegalArgumentException("cannot combine node '" + first.name() + "' with itself");
        }
        if (second instanceof Source) {
            throw new IllegalArgumentException("the second node of a combination cannot be a source: " + second.name());
        }
    }

    /**
     * Fuses two nodes on one thread.
     *
     * @param <I> input item type of {@code first}
     * @param <M> the type passed from {@code first} to {@code second}
     * @param <O> output item type of {@code second}
     * @param first the node that runs first
     * @param second the node that receives its output
     * @return a {@link Source} if {@code first} is one, otherwise a node
     */
    @SuppressWarnings("unchecked")
    public static <I, M, O> Node<I, O> of(Node<I, ? extends M> first, Node<? super M, O> second) {
        if (first instanceof Source) {
            return (Node<I, O>) new CombSource<>((Source<M>) first, second);
        }
        return new Comb<>(first, second);
    }

    /**
     * The node that runs first.
     *
     * @return the first node
     */
    public Node<I, ?> first() {
        return first;
    }

    /**
     * The node that runs second.
     *
     * @return the second node
     */
    public Node<?, O> second() {
        return second;
    }

    /**
     * Initialises both nodes; inside a feedback loop the second sees {@link FusedContext}, where no
     * input is pending.
     */
    @Override
    public void init(NodeContext context) throws Exception {
        secondThrew = null;
        first.init(context);
        second.init(FusedContext.inLoop(context) ? new FusedContext(context) : context);
    }

    @Override
    public void onItem(I item, Outbox<O> out) throws Exception {
        this.out = out;
        first.onItem(item, inner);
    }

    @Override
    public void onEos(Outbox<O> out) throws Exception {
        this.out = out;
        first.onEos(inner);
        second.onEos(out);
    }

    @Override
    public void close() throws Exception {
        Exception failure = null;
        try {
            first.close();
        } catch (Exception e) {
            failure = e;
        }
        try {
            second.close();
        } catch (Exception e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String name() {
        return first.name() + "+" + second.name();
    }

    Outbox<Object> inner() {
        return inner;
    }

    /**
     * Whether f, a {@link StreamFailure} that left {@code node}'s {@code generate}, was thrown by a
     * node fused after the source (at any depth of fusion): that is an ordinary failure of that node,
     * which cancels the flow, and not the source ending its stream with an error.
     */
    static boolean thrownAfterSource(Node<?, ?> node, Throwable f) {
        for (Node<?, ?> n = node; n instanceof Comb; n = ((Comb<?, ?>) n).first) {
            if (((Comb<?, ?>) n).secondThrew == f) {
                return true;
            }
        }
        return false;
    }

    /** The first node's outbox: a direct call into the second node. */
    private final class Inner implements Outbox<Object> {
        @Override
        public void send(Object item) {
            if (item == null) {
                throw new IllegalArgumentException("node '" + first.name() + "' sent null; null is not a valid item");
            }
            try {
                second.onItem(item, out);
            } catch (Exception e) {
                if (e instanceof StreamFailure) {
                    secondThrew = e;
                }
                throw Sneaky.<RuntimeException>rethrow(e);
            }
        }

        @Override
        public void sendTo(int output, Object item) {
            if (output != 0) {
                throw new IndexOutOfBoundsException("output " + output + " of combined node '" + first.name()
                        + "': it has 1 output (the next node)");
            }
            send(item);
        }

        @Override
        public void broadcast(Object item) {
            send(item);
        }

        @Override
        public int outputCount() {
            return 1;
        }
    }

    /** A combination whose first node is a source. */
    static final class CombSource<M, O> extends Comb<Void, O> implements Source<O> {
        CombSource(Source<M> first, Node<? super M, O> second) {
            super(first, second);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void generate(Outbox<O> out) throws Exception {
            this.out = out;
            ((Source<Object>) first).generate(inner());
        }

        /**
         * An item fed back to the combination (it heads a feedback loop) goes to the first node's
         * {@link Source#onFeedback}, and what that sends goes through the second node, as in
         * {@link #generate}.
         */
        @Override
        @SuppressWarnings("unchecked")
        public void onFeedback(O item, Outbox<O> out) throws Exception {
            this.out = out;
            ((Source<Object>) first).onFeedback(item, inner());
        }

        @Override
        public void onItem(Void item, Outbox<O> out) throws Exception {
            super.onItem(item, out);
        }
    }
}
