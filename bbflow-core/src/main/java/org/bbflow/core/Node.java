package org.bbflow.core;

/**
 * A sequential node (FastFlow's {@code ff_node}): runs on its own thread and processes one item at a
 * time.
 *
 * <p>Life cycle: {@link #init} once, then {@link #onItem} for every item of every input, then
 * {@link #onEos} once every input has reached end of stream, then {@link #close}, which is also
 * called when the flow fails or is cancelled. After {@code onEos} returns, end of stream is sent on
 * every output. Returning from {@code onItem} without sending is FastFlow's {@code GO_ON}.
 *
 * <p>A node with several inputs (a multi-input node, {@code ff_minode}) learns where the current
 * item came from with {@link NodeContext#inputIndex()}; a node with several outputs
 * ({@code ff_monode}) chooses with {@link Outbox#sendTo}.
 *
 * <p>Exceptions thrown by any method fail the whole flow: see {@link Flow}.
 *
 * @param <I> input item type
 * @param <O> output item type
 */
public non-sealed interface Node<I, O> extends Block<I, O> {

    /**
     * Called once on the node's thread before any item.
     *
     * @param context the node's place in the running flow
     * @throws Exception to fail the flow
     */
    default void init(NodeContext context) throws Exception {
    }

    /**
     * Processes one item.
     *
     * @param item the item, never null
     * @param out where results go; valid only during this call (and during {@link #onEos})
     * @throws Exception to fail the flow
     */
    void onItem(I item, Outbox<O> out) throws Exception;

    /**
     * Called once when every input has delivered end of stream; may still send.
     *
     * @param out where results go; valid only during this call
     * @throws Exception to fail the flow
     */
    default void onEos(Outbox<O> out) throws Exception {
    }

    /**
     * Called last, whether the flow ended normally, failed or was cancelled.
     *
     * @throws Exception recorded; it fails the flow if it had not failed yet
     */
    default void close() throws Exception {
    }

    /**
     * The name used in thread names, paths and statistics.
     *
     * @return the node's name (by default its class's simple name)
     */
    default String name() {
        String n = getClass().getSimpleName();
        int lambda = n.indexOf("$$Lambda");
        if (lambda >= 0) {
            n = n.substring(0, lambda);
        }
        if (n.isEmpty()) {
            return this instanceof Source ? "source" : "node";
        }
        return n;
    }

    /**
     * Fuses this node with {@code next} on one thread (FastFlow's {@code ff_comb}): every item this
     * node sends is handed directly to {@code next}.
     *
     * @param <R> output item type of {@code next}
     * @param next the node that receives this node's output
     * @return the fused node
     */
    default <R> Node<I, R> andThen(Node<? super O, R> next) {
        return Comb.of(this, next);
    }
}
