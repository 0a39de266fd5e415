package org.bbflow.net.dist;

/**
 * An item on a channel of a block that runs in another group and needs the routing a local block
 * would have had (an all-to-all member, or any block inside a feedback loop).
 *
 * <p>Towards the block: the input the item came in on ({@code port}, -1 when the inputs share one
 * channel), how many inputs and outputs the block's stand-in has, and whether the item was fed back.
 *
 * <p>Back from the block: the output it chose ({@code port}; {@link #POLICY} for {@code send},
 * {@link #BROADCAST} for {@code broadcast}), and in {@code inputs} one more than the input of the item
 * it was handling when it sent this (0 from {@code onEos}): a stand-in whose {@code send} returns to
 * the current item's origin (a right member of an all-to-all with feedback) may hand the answer on
 * while handling another item. {@code outputs} and {@code fromFeedback} are unused that way.
 */
record Routed(int port, int inputs, int outputs, boolean fromFeedback, Object item) {
    /** Sent with {@code send}: the stand-in's own {@code send} picks the output, in the master. */
    static final int POLICY = -1;
    /** Sent with {@code broadcast}. */
    static final int BROADCAST = -2;
}
