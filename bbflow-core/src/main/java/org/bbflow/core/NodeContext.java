package org.bbflow.core;

/**
 * What a node knows about its place in the running flow. Given to {@link Node#init}; valid for the
 * node's whole life, from the node's own thread.
 */
public interface NodeContext {

    /**
     * The node's name (the last element of its path).
     *
     * @return the node's name
     */
    String name();

    /**
     * The block path, e.g. {@code pipeline/farm[1]/worker-3}; also the thread's name.
     *
     * @return the node's path
     */
    String path();

    /**
     * The index of the enclosing farm worker or all-to-all member this node belongs to, or -1.
     *
     * @return the worker or member index, or -1
     */
    int workerIndex();

    /**
     * The input the current item came from (FastFlow's {@code get_channel_id()}), in
     * {@code [0, inputCount())}; -1 outside {@link Node#onItem} or when the inputs share one MPSC
     * channel.
     *
     * @return the index of the current item's input, or -1
     */
    int inputIndex();

    /**
     * The number of inputs (channels or producers feeding this node).
     *
     * @return the number of inputs
     */
    int inputCount();

    /**
     * True while the current item arrived on a feedback channel.
     *
     * @return whether the current item was fed back
     */
    boolean fromFeedback();

    /**
     * True once the flow was cancelled or failed; long computations may check it and return.
     *
     * @return whether the flow is ending early
     */
    boolean isCancelled();

    /**
     * True once the flow has failed or was cancelled, also by a failure that cancels nothing: a source
     * whose stream ended with a {@link StreamFailure} lets every node end its stream normally (so
     * {@link #isCancelled()} stays false), but the stream was cut. A node that presents what it saw as
     * the result of the whole stream checks this before it does, as {@link CollectorSink} does when it
     * closes.
     *
     * <p>A context that wraps another (to show its node other inputs or outputs, as a distributed job
     * does for a member that runs in another process) must delegate this, as it delegates
     * {@link #isCancelled()}. The default, for contexts made outside the runtime (test doubles), is
     * {@link #isCancelled()}.
     *
     * @return whether the flow has failed or was cancelled
     */
    default boolean flowFailed() {
        return isCancelled();
    }

    /**
     * The failure recorded for the flow so far, the one {@link Flow#join()} will report as the
     * {@link FlowException}'s cause: the error a source's stream ended with ({@link StreamFailure}'s
     * cause), or the first failure of a node; null if none is recorded (also when the flow was only
     * cancelled by {@link Flow#cancel()}). A node that passes the flow's outcome on, as a network
     * outlet tells its receiver in another process why the stream it sends was cut, asks this at its
     * {@link Node#onEos} once {@link #flowFailed()} says true.
     *
     * <p>A context that wraps another must delegate this, as it delegates {@link #flowFailed()}. The
     * default, for contexts made outside the runtime (test doubles), is null.
     *
     * @return the flow's failure so far, or null
     */
    default Throwable flowFailure() {
        return null;
    }

    /**
     * True if an item is waiting on one of this node's inputs (an end of stream does not count). An
     * item the runtime already took from a channel but has not yet handed to {@link Node#onItem} may
     * go unseen, so false is only a hint; true is certain.
     *
     * <p>This is what a node inside a feedback loop needs when it keeps items past its
     * {@code onItem} (buffers them, or sends them to another process and hands on the answers later).
     * A loop ends once its heads' inputs from outside have ended and no item is in flight inside it,
     * and an item counts as in flight until the {@code onItem} that received it returns. So such a
     * node may return from {@code onItem} with items kept only while this method says true (the
     * waiting item keeps the loop open), and must otherwise send on what it kept before returning.
     * Outside a loop nothing needs it.
     *
     * <p>In an ordered or strict farm's collector only a waiting result counts, not the marks of
     * dropped items or of the end of several results, which reach no {@code onItem}.
     *
     * <p>The second node of a {@link Comb} inside a feedback loop always sees false: an item waiting
     * on the comb's input reaches the first node, which may drop it, so it keeps nothing open for the
     * second.
     *
     * <p>The default, for contexts made outside the runtime (test doubles), is false.
     *
     * @return whether an item is waiting on an input
     */
    default boolean hasPendingInput() {
        return false;
    }
}
