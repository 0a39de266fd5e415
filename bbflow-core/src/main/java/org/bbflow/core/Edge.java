package org.bbflow.core;

/** A directed edge of a composition as its blocks describe it; the plan compiler makes it an {@link EdgePlan}. */
final class Edge {
    final Vertex from;
    final Vertex to;
    /** The channels the block asked for, or null for the flow's default. */
    final ChannelSpec spec;
    /** A way back of a feedback loop. */
    final boolean back;

    Edge(Vertex from, Vertex to, ChannelSpec spec, boolean back) {
        this.from = from;
        this.to = to;
        this.spec = spec;
        this.back = back;
    }

    /** This edge is (a producer's share of) an MPSC channel. */
    boolean mpsc() {
        return spec != null && spec.kind() == Channel.Kind.MPSC;
    }
}
