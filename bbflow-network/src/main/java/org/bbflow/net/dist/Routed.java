package org.bbflow.net.dist;

/**
 * An item on a channel of an all-to-all member that runs in another group, with the routing a local
 * member would have had. Towards the member: the left member it came from ({@code port}, -1 when
 * the member's inputs share one channel), how many inputs and outputs the member's stand-in has.
 * Back from the member: the output it chose ({@code port}; {@link #POLICY} for {@code send},
 * {@link #BROADCAST} for {@code broadcast}), the counts unused.
 */
record Routed(int port, int inputs, int outputs, Object item) {
    /** Sent with {@code send}: the all-to-all's dispatch policy picks the output, in the master. */
    static final int POLICY = -1;
    /** Sent with {@code broadcast}. */
    static final int BROADCAST = -2;
}
