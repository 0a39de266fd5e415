package org.bbflow.core;

/** A directed edge: becomes one channel (or a share of an MPSC channel) at start. */
final class Edge {
    final Vertex from;
    final Vertex to;
    final ChannelSpec spec;
    final boolean back;
    Channel<Object> channel;

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

    /** Both ends in the same feedback loop: items on it are counted as in flight. */
    boolean counted() {
        return from.loop != null && from.loop == to.loop;
    }
}
