package org.bbflow.core;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * All inputs share one MPSC channel. The graph check ({@link GraphBuilder}) makes sure an MPSC
     * edge carries all of a node's inputs or none, so the first input tells.
     */
    boolean sharesMpscInput() {
        return !in.isEmpty() && in.get(0).mpsc();
    }

    boolean isSource() {
        return node instanceof Source;
    }

    @Override
    public String toString() {
        return path;
    }
}
