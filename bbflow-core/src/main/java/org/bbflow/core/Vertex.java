package org.bbflow.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** One node of a compiled flow graph, with its wiring and policies. Built before threads start. */
final class Vertex {
    final Node<Object, Object> node;
    final String path;
    final int workerIndex;
    final List<Edge> in = new ArrayList<>();
    final List<Edge> out = new ArrayList<>();

    /** How {@link Outbox#send} picks an output; null means round-robin. */
    Dispatch dispatch;
    /** How inputs are read; first-come unless a farm collector says otherwise. */
    Collect collect = Collect.FIRST_COME;
    /** The node closes a feedback loop: {@code send} goes to output 0 (the way back). */
    boolean closesLoop;
    /** A right member of an all-to-all with feedback: {@code send} returns the item to the left member it came from. */
    boolean returnsToOrigin;
    /** The emitter of an ordered farm: strict round-robin, no sendTo/broadcast. */
    boolean orderedEmitter;
    /** Inside an ordered farm's worker: items travel in units (see {@link Units}). */
    boolean unitIn;
    boolean unitOut;
    /** What onEos sends is one more unit (ordered farms); behind a strict collector it travels plain. */
    boolean unitEos;
    /** An ordered farm's reorder window, shared by its emitter and collector, or null (strict turn). */
    ReorderWindow reorder;
    /** The feedback loop this vertex belongs to, or null. */
    Loop loop;
    /** Who added this vertex (for error messages). */
    final String owner;

    @SuppressWarnings("unchecked")
    Vertex(Node<?, ?> node, String path, int workerIndex, String owner) {
        this.node = (Node<Object, Object>) node;
        this.path = path;
        this.workerIndex = workerIndex;
        this.owner = owner;
    }

    boolean isSource() {
        return node instanceof Source;
    }

    @Override
    public String toString() {
        return path;
    }
}

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

    /** Both ends in the same feedback loop: items on it are counted as in flight. */
    boolean counted() {
        return from.loop != null && from.loop == to.loop;
    }
}

/** A feedback loop: its members, its head(s) and the count of items inside it. */
final class Loop {
    final String owner;
    final Vertex head;
    /** Every head (the first is {@link #head}): the members with input from outside, who end it together. */
    final LoopHeads heads = new LoopHeads();
    final AtomicLong inFlight = new AtomicLong();
    /** Set by the head once it has decided to end; a send back after that is a bug in the user's node. */
    volatile boolean headDone;

    Loop(String owner, Vertex head) {
        this.owner = owner;
        this.head = head;
        heads.add(head);
    }
}

/** The entry and exit ports of a compiled block. */
final class Ports {
    final List<Vertex> entries;
    final List<Vertex> exits;

    Ports(List<Vertex> entries, List<Vertex> exits) {
        this.entries = entries;
        this.exits = exits;
    }
}

/** Item markers of ordered farms. A unit is the output of one input item: 0, 1 or many items. */
final class Units {
    private Units() {
    }

    /** A unit with no item. */
    static final Object SKIP = new Marker("SKIP");
    /** Starts a unit of several items. */
    static final Object START = new Marker("START");
    /** Ends a unit of several items. */
    static final Object END = new Marker("END");
    /** Returned by a strict read when the channel reached end of stream. */
    static final Object EOS = new Marker("EOS");

    private static final class Marker {
        private final String name;

        Marker(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
