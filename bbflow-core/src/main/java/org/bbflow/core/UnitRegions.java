package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of ordered and strict farms, decided once for every farm of the flow, at any depth:
 * which nodes carry the unit protocol ({@link Units}), what may stand between such a farm's emitter
 * and collector, which emitter records in a reorder window.
 *
 * <ul>
 *   <li><b>Ordered units</b> ({@link Collect#ORDERED}): the emitter (needed) dispatches round-robin or on
 *       demand, the workers do not feed back (the collector may); every worker is a node, a comb, or
 *       a pipeline of them (no farm, all-to-all, source or loop inside, whatever its worker count: a
 *       shape is accepted or refused the same on every machine); each of its nodes carries units,
 *       onEos included. With on-demand dispatch, or a window given, the emitter records each item's
 *       worker in a reorder window that the collector reads.</li>
 *   <li><b>Strict collectors</b> ({@link Collect#ROUND_ROBIN}, {@link Collect#GATHER}): the farm's own
 *       emitter dispatches in the collector's rhythm (round-robin; gather also scatter or broadcast),
 *       workers do not feed back (their results per item would vary), and every worker is a node, a
 *       comb or a pipeline of them, whose nodes carry units so that the collector can tell a worker
 *       that sent none or several results for an item (what onEos sends travels as plain items, after
 *       {@link Units#TAIL}). Inside a feedback loop a gathering collector needs broadcast or scatter
 *       dispatch (every item a full round): with round-robin, a round can wait for items that only the
 *       round itself would bring back.</li>
 * </ul>
 * Nodes that carry units see no pending input ({@link NodeContext#hasPendingInput()} is false), so a
 * node that keeps values while input waits ({@code LongNodes.batch()}) sends them within the unit of
 * the item they came from.
 */
final class UnitRegions {
    private static final String ORDERED = "ordered units: ";
    private static final String STRICT = "strict collector: ";

    private final Map<Vertex, NodePlan.UnitRole> roles = new IdentityHashMap<>();
    private final Map<Vertex, Integer> windowOf = new IdentityHashMap<>();
    private final Map<Vertex, Boolean> orderedEmitters = new IdentityHashMap<>();
    private final Map<Vertex, Boolean> inTurnEmitters = new IdentityHashMap<>();
    private final List<Integer> windows = new ArrayList<>();

    private UnitRegions() {
    }

    static UnitRegions resolve(GraphBuilder g, Loops loops) {
        UnitRegions r = new UnitRegions();
        for (FarmShape f : g.farms) {
            if (f.collect == Collect.ORDERED) {
                r.ordered(f);
            } else if (f.collect == Collect.ROUND_ROBIN || f.collect == Collect.GATHER) {
                r.strict(f, loops);
            }
        }
        return r;
    }

    private void ordered(FarmShape f) {
        Dispatch.Kind k = f.dispatch.kind;
        if (k != Dispatch.Kind.ROUND_ROBIN && k != Dispatch.Kind.ON_DEMAND) {
            throw new IllegalStateException(f.where + ": " + ORDERED + "an ordered farm dispatches round-robin or on demand"
                    + " (one worker per item), not " + f.dispatch);
        }
        if (f.emitter == null) {
            throw new IllegalStateException(f.where + ": " + ORDERED + "an ordered farm needs its emitter");
        }
        if (f.workersFeedBack) {
            // the workers' results would go back to the emitter, not through the collector in units;
            // a collector that sends back (feedbackFromCollector(), or the last stage of a loop) is a
            // node like any other once the units are in order
            throw new IllegalStateException(f.where + ": " + ORDERED + "an ordered farm's workers cannot feed back"
                    + " (feedback()); use feedbackFromCollector(), whose collector sends the results back in order");
        }
        for (int i = 0; i < f.workers.size(); i++) {
            requireChain(f, i, ORDERED + "an ordered farm's workers must be nodes or pipelines of nodes (a comb counts as"
                    + " a node; the results travel in per-item units through them)");
            mark(f.workerVertices.get(i), NodePlan.UnitRole.CARRIES_WITH_EOS);
        }
        orderedEmitters.put(f.emitter, Boolean.TRUE);
        if (k == Dispatch.Kind.ON_DEMAND || f.window > 0) {
            int capacity = f.window > 0 ? f.window : Math.max(Farm.DEFAULT_REORDER_WINDOW, 2 * f.workers.size());
            windowOf.put(f.emitter, windows.size());
            windowOf.put(f.collector, windows.size());
            windows.add(capacity);
        }
    }

    private void strict(FarmShape f, Loops loops) {
        // A strict collector waits on one worker at a time; it can only keep up with an emitter that
        // feeds the workers in the same rhythm (otherwise bounded channels stall the farm).
        Dispatch.Kind k = f.dispatch.kind;
        boolean fits = f.collect == Collect.ROUND_ROBIN ? k == Dispatch.Kind.ROUND_ROBIN
                : k == Dispatch.Kind.ROUND_ROBIN || k == Dispatch.Kind.SCATTER || k == Dispatch.Kind.BROADCAST;
        if (!fits || f.emitter == null) {
            throw new IllegalStateException(f.where + ": " + STRICT + "collector policy " + f.collect + " reads the workers"
                    + " in strict turn and needs the farm's own round-robin" + (f.collect == Collect.GATHER ? ", scatter or"
                    + " broadcast" : "") + " emitter, not " + (f.emitter != null ? f.dispatch.toString() : "no emitter")
                    + "; use FIRST_COME or ORDERED");
        }
        if (f.workersFeedBack) {
            throw new IllegalStateException(f.where + ": " + STRICT + "collector policy " + f.collect + " needs one result"
                    + " per item from every worker, and with feedback() a worker sends back or forward as it likes;"
                    + " use FIRST_COME or feedbackFromCollector()");
        }
        if (f.collect == Collect.GATHER && k == Dispatch.Kind.ROUND_ROBIN && loops.of(f.collector) >= 0) {
            // Outside a loop the last round closes when the workers end. Inside one, a round waits
            // for an item of every worker, and when the items in flight do not fill the round the
            // worker it waits for gets nothing more: what would come back is in the round.
            throw new IllegalStateException(f.where + ": " + STRICT + "collector policy GATHER with round-robin dispatch"
                    + " waits for a full round, and inside the feedback loop of " + loops.owner(loops.of(f.collector))
                    + " the items that would complete it are held in it; dispatch with broadcast or scatter (every item"
                    + " makes a full round), or collect FIRST_COME");
        }
        // The emitter's sendTo would feed one worker more than the others (a user's emitter can), and
        // the collector waits on the others while that worker's results fill its channel: refused
        // where it is called, as an ordered farm's emitter refuses it (send() keeps the rhythm, and so
        // does broadcast(): one item for every worker).
        inTurnEmitters.put(f.emitter, Boolean.TRUE);
        // A worker that drops an item (or sends two) would stall the farm for ever without a word:
        // its nodes carry per-item units (free when a worker sends exactly one result: no marker
        // travels), so the collector sees the SKIP or START marker exactly where it would otherwise
        // wait, and fails the flow naming the worker.
        for (int i = 0; i < f.workers.size(); i++) {
            requireChain(f, i, STRICT + "collector policy " + f.collect + " checks that every worker sends one result per"
                    + " item, which it can only do through workers that are nodes or pipelines of nodes (a comb counts as a"
                    + " node); use FIRST_COME or ORDERED");
            mark(f.workerVertices.get(i), NodePlan.UnitRole.CARRIES);
        }
    }

    /** Refuses worker i unless it is a node, a comb or a pipeline of them, judged by its blocks (not its port counts). */
    private static void requireChain(FarmShape f, int i, String rule) {
        Block<?, ?> offending = offending(f.workers.get(i));
        if (offending != null) {
            throw new IllegalStateException(f.where + ": " + rule + " (worker " + i + " at " + f.workerPaths.get(i)
                    + " is or holds " + describe(offending) + ")");
        }
    }

    /** The first block inside b that is not a node, a comb or a pipeline of them without feedback, or null. */
    private static Block<?, ?> offending(Block<?, ?> b) {
        if (b instanceof Pipeline) {
            Pipeline<?, ?> p = (Pipeline<?, ?>) b;
            if (p.hasFeedback()) {
                return p;
            }
            for (Block<?, ?> s : p.stages()) {
                Block<?, ?> o = offending(s);
                if (o != null) {
                    return o;
                }
            }
            return null;
        }
        return b instanceof Node && !(b instanceof Source) ? null : b;
    }

    private static String describe(Block<?, ?> b) {
        if (b instanceof Farm) {
            return "farm '" + ((Farm<?, ?>) b).name() + "'";
        }
        if (b instanceof AllToAll) {
            return "all-to-all '" + ((AllToAll<?, ?>) b).name() + "'";
        }
        if (b instanceof Pipeline) {
            return "pipeline '" + ((Pipeline<?, ?>) b).name() + "' with feedback";
        }
        return "source '" + ((Node<?, ?>) b).name() + "'";
    }

    private void mark(List<Vertex> vs, NodePlan.UnitRole role) {
        for (Vertex v : vs) {
            roles.put(v, role);
        }
    }

    NodePlan.UnitRole role(Vertex v) {
        NodePlan.UnitRole r = roles.get(v);
        return r == null ? NodePlan.UnitRole.NONE : r;
    }

    boolean orderedEmitter(Vertex v) {
        return orderedEmitters.containsKey(v);
    }

    /** The emitter of a farm with a strict collector: it may not {@code sendTo} one worker. */
    boolean inTurnEmitter(Vertex v) {
        return inTurnEmitters.containsKey(v);
    }

    /** The reorder window v writes or reads, or -1. */
    int window(Vertex v) {
        Integer w = windowOf.get(v);
        return w == null ? -1 : w;
    }

    int[] windowCapacities() {
        int[] c = new int[windows.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = windows.get(i);
        }
        return c;
    }
}
