package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Compiles a block tree into vertices and edges, validating as it goes. */
final class GraphBuilder {
    final List<Vertex> vertices = new ArrayList<>();
    final List<Edge> edges = new ArrayList<>();
    final List<Loop> loops = new ArrayList<>();
    final List<Composite<?, ?>> composites = new ArrayList<>();
    private final Map<Node<?, ?>, Vertex> seenNodes = new IdentityHashMap<>();
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
        Node<?, ?> node = (Node<?, ?>) block;
        Vertex v = vertex(node, path, workerIndex, path);
        List<Vertex> self = List.of(v);
        return new Ports(v.isSource() ? List.of() : self, self);
    }

    Vertex vertex(Node<?, ?> node, String path, int workerIndex, String owner) {
        Vertex previous = seenNodes.get(node);
        if (previous != null) {
            throw new IllegalStateException("node '" + node.name() + "' appears twice in the flow, at " + previous.path
                    + " and at " + path + "; a node instance runs on one thread, create one per place (use a factory)");
        }
        Vertex v = new Vertex(node, path, workerIndex, owner);
        seenNodes.put(node, v);
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

    /**
     * Marks the vertices created since {@code firstIndex} (and {@code extra}) as one feedback loop.
     * A loop around a loop with the same head (FastFlow's nested wrap_around: several back edges
     * into one first stage) becomes one loop with one in-flight count; nested loops with different
     * heads are refused.
     */
    Loop loop(String owner, Vertex head, int firstIndex, Vertex... extra) {
        List<Vertex> members = new ArrayList<>(vertices.subList(firstIndex, vertices.size()));
        for (Vertex v : extra) {
            if (!members.contains(v)) {
                members.add(v);
            }
        }
        if (!members.contains(head)) {
            members.add(head);
        }
        Loop loop = null;
        for (Vertex v : members) {
            if (v.loop != null) {
                if (v.loop.head != head || v.loop.heads.contains(v) && v != head) {
                    throw new IllegalStateException(owner + ": nested feedback loops must share their first stage"
                            + " (node " + v.path + " is already in the loop of " + v.loop.owner + ", headed by "
                            + v.loop.head.path + ", not " + head.path + ")");
                }
                loop = v.loop;
            }
        }
        if (loop == null) {
            loop = new Loop(owner, head);
            loops.add(loop);
        }
        for (Vertex v : members) {
            v.loop = loop;
        }
        return loop;
    }

    /** Checks the whole graph once composition is complete. */
    void validateRoot(Ports root, String rootName) {
        for (Vertex v : vertices) {
            if (v.isSource()) {
                for (Edge e : v.in) {
                    if (!e.back) {
                        throw new IllegalStateException("source " + v.path + " has an input; a source can only be a first stage");
                    }
                }
            } else if (v.in.isEmpty()) {
                throw new IllegalStateException("node " + v.path + " has no input: in '" + rootName
                        + "' every first stage must be a Source (it would never receive an item)");
            }
            // plain loops, not streams, on the way to a flow's start: the first stream in a process
            // loads and links its pipeline classes (a few ms of every cold start)
            boolean anyExternal = false;
            boolean anyBack = false;
            for (Edge e : v.in) {
                anyExternal |= !e.back;
                anyBack |= e.back;
            }
            if (v.loop != null && v.loop.heads.contains(v) && !anyExternal && !v.isSource()) {
                throw new IllegalStateException("feedback loop of " + v.loop.owner + ": its head " + v.path
                        + " has no input from outside the loop and is not a source, so the loop could never start");
            }
            int mpsc = 0;
            for (Edge e : v.in) {
                if (e.mpsc()) {
                    mpsc++;
                }
            }
            if (mpsc > 0 && (mpsc != v.in.size() || anyBack)) {
                throw new IllegalStateException("node " + v.path + ": an MPSC channel must carry all of a node's inputs"
                        + " and no feedback");
            }
            if (mpsc > 0 && v.collect != Collect.FIRST_COME) {
                throw new IllegalStateException("node " + v.path + ": collector policy " + v.collect
                        + " reads each input in turn and cannot use a shared MPSC channel");
            }
        }
        for (Vertex v : root.entries) {
            if (!v.isSource()) {
                throw new IllegalStateException("'" + rootName + "' has an unconnected input port; start the flow with a Source");
            }
        }
    }
}
