package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rule of feedback loops, decided once for the whole flow after every block has compiled (so
 * that no other rule sees a loop half assigned): which vertices each loop runs through, which are its
 * heads, how loops nest, and what is counted in flight.
 *
 * <ul>
 *   <li>A loop around a loop with the same head (FastFlow's nested {@code wrap_around}: several back
 *       edges into one first stage, a generator heading them included) becomes one loop with one
 *       in-flight count; nested loops with different heads are refused.</li>
 *   <li>Every head takes items from outside the loop, or is a source (it generates, then takes what
 *       comes back); otherwise the loop could never start. A source inside a loop heads it: one that
 *       does not (a farm's worker, an all-to-all's left member) is refused.</li>
 *   <li>An edge with both ends in one loop is counted: what is sent on it is in flight until the
 *       receiving node has handled it, markers of the unit protocol included.</li>
 * </ul>
 */
final class Loops {
    private static final String RULE = "feedback loops: ";

    private final Map<Vertex, Integer> loopOf = new IdentityHashMap<>();
    private final List<String> owners = new ArrayList<>();
    private final List<List<Vertex>> heads = new ArrayList<>();

    private Loops() {
    }

    /** Resolves the loops the blocks declared, innermost first (the order blocks finished compiling). */
    static Loops resolve(GraphBuilder g) {
        Loops loops = new Loops();
        for (LoopShape s : g.loops) {
            loops.add(s);
        }
        loops.checkHeads(g);
        return loops;
    }

    private void add(LoopShape s) {
        Vertex head = s.heads.get(0);
        int id = -1;
        for (Vertex v : s.members) {
            Integer l = loopOf.get(v);
            if (l == null) {
                continue;
            }
            List<Vertex> h = heads.get(l);
            if (h.get(0) != head || (h.contains(v) && v != head) || (id >= 0 && id != l)) {
                throw new IllegalStateException(s.owner + ": " + RULE + "nested feedback loops must share their first stage"
                        + " (node " + v.path + " is already in the loop of " + owners.get(l) + ", headed by "
                        + h.get(0).path + ", not " + head.path + ")");
            }
            id = l;
        }
        if (id < 0) {
            id = owners.size();
            owners.add(s.owner);
            heads.add(new ArrayList<>());
        } else {
            owners.set(id, s.owner); // the outermost block names the loop
        }
        for (Vertex h : s.heads) {
            if (!heads.get(id).contains(h)) {
                heads.get(id).add(h);
            }
        }
        for (Vertex v : s.members) {
            loopOf.put(v, id);
        }
        for (Vertex h : s.heads) {
            loopOf.put(h, id);
        }
    }

    private void checkHeads(GraphBuilder g) {
        // A source inside a loop that does not head it (a farm's worker, an all-to-all's left member)
        // generates whenever it likes, and the heads cannot know: the loop could end before it sends,
        // and what it sent would come back to no one.
        for (Vertex v : g.vertices) {
            Integer l = loopOf.get(v);
            if (l != null && v.isSource() && !heads.get(l).contains(v)) {
                throw new IllegalStateException(owners.get(l) + ": " + RULE + "source " + v.path + " is inside the loop but"
                        + " does not head it, so the loop could end before it generates; a source in a loop must be its"
                        + " first stage (it then takes what comes back in onFeedback)");
            }
        }
        for (int l = 0; l < heads.size(); l++) {
            for (Vertex v : heads.get(l)) {
                boolean external = false;
                boolean fedBack = false;
                for (Edge e : v.in) {
                    external |= !e.back;
                    fedBack |= e.back;
                }
                if (!external && !v.isSource()) {
                    throw new IllegalStateException(owners.get(l) + ": " + RULE + "its head " + v.path
                            + " has no input from outside the loop and is not a source, so the loop could never start");
                }
                if (v.isSource() && fedBack && takesFeedback(v.node) == null) {
                    // Source.onFeedback's default refuses the item: the first one fed back failed the
                    // flow at run time, a shape no run of which can work once an item comes back
                    throw new IllegalStateException(owners.get(l) + ": " + RULE + "its head " + v.path + " is source '"
                            + v.node.name() + "', which does not override Source.onFeedback, so the first item fed"
                            + " back would fail the flow; override onFeedback, or head the loop with a stage after the"
                            + " source");
                }
            }
        }
    }

    /**
     * The class that implements what a source heading a loop does with a fed-back item, or null if
     * that is {@link Source#onFeedback}'s default (a refusal). A comb headed by a source hands the
     * item to its first node, so that node is asked.
     */
    static Class<?> takesFeedback(Node<?, ?> source) {
        Node<?, ?> n = source;
        while (n instanceof Comb.CombSource) {
            n = ((Comb<?, ?>) n).first;
        }
        try {
            Class<?> c = n.getClass().getMethod("onFeedback", Object.class, Outbox.class).getDeclaringClass();
            return c == Source.class ? null : c;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** The loop of v, or -1. */
    int of(Vertex v) {
        Integer l = loopOf.get(v);
        return l == null ? -1 : l;
    }

    boolean isHead(Vertex v) {
        int l = of(v);
        return l >= 0 && heads.get(l).contains(v);
    }

    /** Both ends of e in one loop: what travels on it is counted in flight. */
    boolean counted(Edge e) {
        int l = of(e.from);
        return l >= 0 && l == of(e.to);
    }

    int count() {
        return owners.size();
    }

    String owner(int loop) {
        return owners.get(loop);
    }

    List<Vertex> heads(int loop) {
        return heads.get(loop);
    }
}
