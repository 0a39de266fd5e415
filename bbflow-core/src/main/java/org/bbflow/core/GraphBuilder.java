package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the blocks of a composition say about themselves: each {@link Composite} compiles itself into
 * it (vertices, edges, and what it is: a farm's shape, a loop it closes), checking only what concerns
 * the block alone (a topology that does not fit, a farm without worker). Every rule that cuts across
 * blocks is the {@link PlanCompiler}'s, which reads this once composition is complete.
 */
final class GraphBuilder {
    final List<Vertex> vertices = new ArrayList<>();
    final List<Edge> edges = new ArrayList<>();
    final List<Composite<?, ?>> composites = new ArrayList<>();
    /** In the order blocks finished compiling: an inner block's before the block around it. */
    final List<FarmShape> farms = new ArrayList<>();
    final List<LoopShape> loops = new ArrayList<>();
    private final Map<Composite<?, ?>, String> seenComposites = new IdentityHashMap<>();

    /** Compiles any block at the given path. */
    Ports compile(Block<?, ?> block, String path, int workerIndex) {
        if (block == null) {
            throw new IllegalStateException("null block at " + path);
        }
        if (block instanceof Composite) {
            Composite<?, ?> c = (Composite<?, ?>) block;
            String previous = seenComposites.put(c, path);
            if (previous != null) {
                throw new IllegalStateException("block '" + c.name() + "' appears twice in the flow, at " + previous
                        + " and at " + path + "; build a new block for each place");
            }
            composites.add(c);
            return c.compile(this, path, workerIndex);
        }
        Vertex v = vertex((Node<?, ?>) block, path, workerIndex);
        List<Vertex> self = List.of(v);
        return new Ports(v.isSource() ? List.of() : self, self, self);
    }

    Vertex vertex(Node<?, ?> node, String path, int workerIndex) {
        Vertex v = new Vertex(node, path, workerIndex);
        vertices.add(v);
        return v;
    }

    Edge connect(Vertex from, Vertex to, ChannelSpec spec, boolean back) {
        Edge e = new Edge(from, to, spec, back);
        from.out.add(e);
        to.in.add(e);
        edges.add(e);
        return e;
    }

    /** The vertices added since {@code firstIndex} (a block's own, when it began compiling there). */
    List<Vertex> since(int firstIndex) {
        return new ArrayList<>(vertices.subList(firstIndex, vertices.size()));
    }

    /**
     * Wires exits to entries by a topology.
     *
     * @param where the block and position, for error messages
     */
    void wire(List<Vertex> exits, List<Vertex> entries, Topology topology, ChannelSpec spec, String where) {
        int n = exits.size();
        int m = entries.size();
        if (m == 0) {
            throw new IllegalStateException(where + ": the next stage takes no input (is it a source?)");
        }
        if (n == 0) {
            throw new IllegalStateException(where + ": the previous stage has no output");
        }
        Topology t = topology;
        if (t == Topology.AUTO) {
            t = (n == 1 || m == 1) ? Topology.ALL_TO_ALL : (n == m ? Topology.PAIRWISE : Topology.ALL_TO_ALL);
        }
        switch (t) {
            case ONE_TO_ONE:
                require(n == 1 && m == 1, where, t, n, m);
                break;
            case ONE_TO_MANY:
                require(n == 1, where, t, n, m);
                break;
            case MANY_TO_ONE:
                require(m == 1, where, t, n, m);
                break;
            case PAIRWISE:
                require(n == m, where, t, n, m);
                for (int i = 0; i < n; i++) {
                    connect(exits.get(i), entries.get(i), spec, false);
                }
                return;
            default:
                break;
        }
        for (Vertex a : exits) {
            for (Vertex b : entries) {
                connect(a, b, spec, false);
            }
        }
    }

    private static void require(boolean ok, String where, Topology t, int n, int m) {
        if (!ok) {
            throw new IllegalStateException(where + ": topology " + t + " does not fit " + n + " output port(s) to "
                    + m + " input port(s)");
        }
    }
}
