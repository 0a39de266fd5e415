package org.bbflow.core;

import java.util.List;
import java.util.function.Function;

/**
 * One node of a compiled flow, with everything the runtime needs to run it and nothing it must
 * decide: its inputs and outputs, how it reads its inputs ({@link Read}), where {@code send} goes
 * ({@link Route}), its part in the unit protocol of ordered and strict farms ({@link UnitRole}), its
 * feedback loop, its reorder window and its wait strategy. Made by the {@link PlanCompiler};
 * immutable (its arrays are never written after compilation).
 */
final class NodePlan {
    /** How the node reads its inputs: its {@link InputLoop}. */
    enum Read {
        /** No input: a source. */
        NONE,
        /** One input channel, no feedback loop: the plain loop. */
        SINGLE,
        /** Several inputs, or a feedback loop: whatever comes first. */
        FIRST_COME,
        /** A strict collector: one result from each worker in turn. */
        ROUND_ROBIN,
        /** A strict collector: one result from each worker in turn, as one list. */
        GATHER,
        /** An ordered collector reading one unit from each worker in turn. */
        ORDERED,
        /** An ordered collector reading units in the order its emitter recorded in a reorder window. */
        WINDOWED
    }

    /** Where {@link Outbox#send} goes: the node's {@link Dispatcher}. */
    enum Route {
        /** No output: a sink. */
        NONE,
        /** Output 0: the only output, or the way back of a node closing a loop. */
        SINGLE,
        /** Back to the left member of an all-to-all the current item came from. */
        ORIGIN,
        ROUND_ROBIN,
        ON_DEMAND,
        BROADCAST,
        SCATTER,
        BY_KEY,
        /** Inside an ordered or strict farm's worker: one unit per input item ({@link Units}). */
        UNITS
    }

    /** The node's part in the unit protocol of ordered and strict farms ({@link Units}). */
    enum UnitRole {
        NONE,
        /** Inside a strict collector's worker: each input item's results are one unit; onEos sends plain items. */
        CARRIES,
        /** Inside an ordered farm's worker: each input item's results are one unit, and so are onEos's. */
        CARRIES_WITH_EOS
    }

    final int index;
    final Node<Object, Object> node;
    /** The node and every node fused into it ({@link Comb}): each is registered to the flow. */
    final List<Node<?, ?>> members;
    final String path;
    final int workerIndex;
    final boolean source;
    /** The edges into the node, in input order ({@link NodeContext#inputIndex()}). */
    final EdgePlan[] inputs;
    /** The edges out of the node, in output order ({@link Outbox#sendTo}). */
    final EdgePlan[] outputs;
    /** The runtime channels the node reads (one when its inputs share an MPSC channel) and, per channel, feedback or counted. */
    final int[] inputLinks;
    final boolean[] inputBack;
    final boolean[] inputCounted;
    /** The inputs share one MPSC channel: {@link NodeContext#inputIndex()} is -1. */
    final boolean sharedInput;
    final Read read;
    final Route route;
    /** The key of a {@link Route#BY_KEY} route, else null. */
    final Function<Object, ?> key;
    final UnitRole units;
    /** The emitter of an ordered farm: it sends with {@code send} only (its farm's dispatch). */
    final boolean orderedEmitter;
    /** The emitter of a farm with a strict collector: no {@code sendTo} one worker (they are read in turn). */
    final boolean inTurnEmitter;
    /** The reorder window this node writes (the emitter) or reads (the collector) of an ordered farm, or -1. */
    final int window;
    /** The feedback loop the node belongs to, or -1; whether it is one of that loop's heads. */
    final int loop;
    final boolean loopHead;
    /** The strategy the node waits with (already the oversubscribed form when the flow has more nodes than cores). */
    final WaitStrategy strategy;
    /** Spins before a wait is timed and counted. */
    final int quickSpins;
    /**
     * Yields before the usual wait when the node's plain input is empty or its plain output full
     * ({@link WaitStrategy#yieldsFirstOnPlainEdges()}): the quick spins' count, or 0.
     */
    final int plainEdgeYields;
    /** A farm collector's policy (for its error messages), else {@link Collect#FIRST_COME}. */
    final Collect collect;

    NodePlan(int index, Node<Object, Object> node, List<Node<?, ?>> members, String path, int workerIndex,
             EdgePlan[] inputs, EdgePlan[] outputs, int[] inputLinks, boolean[] inputBack, boolean[] inputCounted,
             boolean sharedInput, Read read, Route route, Function<Object, ?> key, UnitRole units,
             boolean orderedEmitter, boolean inTurnEmitter, int window, int loop, boolean loopHead,
             WaitStrategy strategy, int quickSpins, Collect collect) {
        this.index = index;
        this.node = node;
        this.members = List.copyOf(members);
        this.path = path;
        this.workerIndex = workerIndex;
        this.source = node instanceof Source;
        this.inputs = inputs.clone();
        this.outputs = outputs.clone();
        this.inputLinks = inputLinks.clone();
        this.inputBack = inputBack.clone();
        this.inputCounted = inputCounted.clone();
        this.sharedInput = sharedInput;
        this.read = read;
        this.route = route;
        this.key = key;
        this.units = units;
        this.orderedEmitter = orderedEmitter;
        this.inTurnEmitter = inTurnEmitter;
        this.window = window;
        this.loop = loop;
        this.loopHead = loopHead;
        this.strategy = strategy;
        this.quickSpins = quickSpins;
        this.plainEdgeYields = strategy.yieldsFirstOnPlainEdges() ? quickSpins : 0;
        this.collect = collect;
    }

    /** Whether items reach the node in units (it is inside an ordered or strict farm's worker). */
    boolean carriesUnits() {
        return units != UnitRole.NONE;
    }

    /** The node's plan in one line: its path, how it reads, where it sends, its part in units and loops. */
    @Override
    public String toString() {
        return path + " read " + read + " route " + route + (units != UnitRole.NONE ? " units " + units : "")
                + (orderedEmitter ? " ordered-emitter" : "") + (inTurnEmitter ? " in-turn-emitter" : "")
                + (window >= 0 ? " window " + window : "")
                + (loop >= 0 ? " loop " + loop + (loopHead ? " head" : "") : "");
    }
}
