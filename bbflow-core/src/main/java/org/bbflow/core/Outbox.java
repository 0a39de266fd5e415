package org.bbflow.core;

/**
 * Where a node sends its results: FastFlow's {@code ff_send_out}, {@code ff_send_out_to} and
 * broadcast. A send waits (with the edge's {@link WaitStrategy}) while the target channel is full,
 * so a slow consumer slows its producers and memory stays bounded.
 *
 * <p>{@link #send} picks the output with the node's dispatch policy: round-robin unless the
 * enclosing block says otherwise (a {@link Farm}'s emitter policy, an {@link AllToAll}'s routing).
 * A node that closes a feedback loop sends back with {@link #send} (output 0) and forward with
 * {@code sendTo(1, x)}.
 *
 * <p>An outbox belongs to its node's thread and is used from the node's {@code generate},
 * {@code onItem}, {@code onFeedback} and {@code onEos}: once {@code onEos} has returned, the node's
 * outputs have ended, and an item sent later (from {@code close()}, or from another thread that kept
 * the outbox) may be lost without a word.
 *
 * @param <O> output item type
 */
public interface Outbox<O> {

    /**
     * Sends an item on the output chosen by the node's dispatch policy.
     *
     * @param item the item to send
     * @throws IllegalArgumentException if item is null
     * @throws IllegalStateException if the node has no output
     */
    void send(O item);

    /**
     * Sends an item on the given output.
     *
     * @param output the output index
     * @param item the item to send
     * @throws IndexOutOfBoundsException if output is not in {@code [0, outputCount())}
     */
    void sendTo(int output, O item);

    /**
     * Sends the same item (the same reference) on every output.
     *
     * @param item the item to send
     */
    void broadcast(O item);

    /**
     * The number of outputs.
     *
     * @return the number of outputs of this node
     */
    int outputCount();
}
