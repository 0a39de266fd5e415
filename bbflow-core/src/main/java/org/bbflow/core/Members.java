package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rule of node registration within one flow: every node instance runs in one place, and that
 * includes the nodes fused into a {@link Comb} ({@code andThen}), at any depth of fusion, and the
 * node a {@link Nodes#wrapping} node runs (an accelerator's worker, say). (Across
 * flows, {@link Flow} registers the same members while the flow runs.)
 */
final class Members {
    private Members() {
    }

    /**
     * The nodes of each vertex (the vertex's node, and inside a comb the nodes it fuses), refusing a
     * node found in two places.
     */
    static Map<Vertex, List<Node<?, ?>>> of(List<Vertex> vertices) {
        Map<Node<?, ?>, String> seen = new IdentityHashMap<>();
        Map<Vertex, List<Node<?, ?>>> members = new IdentityHashMap<>();
        for (Vertex v : vertices) {
            List<Node<?, ?>> nodes = new ArrayList<>();
            collect(v.node, v.path, nodes, seen);
            members.put(v, nodes);
        }
        return members;
    }

    private static void collect(Node<?, ?> node, String place, List<Node<?, ?>> nodes, Map<Node<?, ?>, String> seen) {
        String previous = seen.putIfAbsent(node, place);
        if (previous != null) {
            throw new IllegalStateException("node '" + node.name() + "' appears twice in the flow, at " + previous
                    + " and at " + place + "; a node instance runs on one thread, create one per place (use a factory)");
        }
        nodes.add(node);
        if (node instanceof Comb) {
            Comb<?, ?> c = (Comb<?, ?>) node;
            String inside = place + " (inside comb '" + c.name() + "')";
            collect(c.first, inside, nodes, seen);
            collect(c.second, inside, nodes, seen);
        } else if (node instanceof Wrapping) {
            Wrapping<?, ?> w = (Wrapping<?, ?>) node;
            String inside = place + " (run by '" + w.name() + "')";
            collect(w.wrapper, inside, nodes, seen);
            collect(w.inner, inside, nodes, seen);
        }
    }
}
