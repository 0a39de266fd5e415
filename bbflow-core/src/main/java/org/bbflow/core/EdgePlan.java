package org.bbflow.core;

/**
 * One edge of a compiled flow: which output of which node feeds which input of which node, over
 * which runtime channel ({@link LinkPlan}), and what the plan compiler decided about it. Immutable.
 */
final class EdgePlan {
    final int index;
    /** The producing node and the output (its index among that node's outputs). */
    final int from;
    final int fromPort;
    /** The consuming node and the input (its index among that node's inputs, as {@link NodeContext#inputIndex()}). */
    final int to;
    final int toPort;
    /** The runtime channel this edge is (a producer's share of, for an MPSC one). */
    final int link;
    /** A way back of a feedback loop. */
    final boolean back;
    /** The feedback loop with both ends of this edge, whose in-flight count what travels on it is part of, or -1. */
    final int loop;
    /** The paths of the producer and the consumer, for error messages. */
    final String fromPath;
    final String toPath;
    /** Batches sent on it come back to the producer once the consumer has read them ({@link BatchReturns}). */
    final boolean recycles;
    /**
     * A plain one-to-one edge, the shortest way an item can take: the producer's only output and the
     * consumer's only input, its own SPSC channel, no loop, no unit protocol, no reorder window, so an
     * item sent on it is the next item the consumer sees, and nothing else travels on it. What a
     * runtime may specialise (the generic object path's shortest loop); today's runtime reaches the
     * same edges through {@link NodePlan.Route#SINGLE} and {@link NodePlan.Read#SINGLE}.
     */
    final boolean plain;

    EdgePlan(int index, int from, int fromPort, int to, int toPort, int link, boolean back, int loop,
             boolean recycles, boolean plain, String fromPath, String toPath) {
        this.index = index;
        this.from = from;
        this.fromPort = fromPort;
        this.to = to;
        this.toPort = toPort;
        this.link = link;
        this.back = back;
        this.loop = loop;
        this.recycles = recycles;
        this.plain = plain;
        this.fromPath = fromPath;
        this.toPath = toPath;
    }

    /** Both ends in the same feedback loop: what travels on it is counted in flight. */
    boolean counted() {
        return loop >= 0;
    }

    /** The edge in one line: its ends and what the plan decided about it. */
    @Override
    public String toString() {
        return fromPath + " -> " + toPath + (back ? " back" : "") + (counted() ? " counted" : "")
                + (recycles ? " recycles" : "") + (plain ? " plain" : "");
    }
}
