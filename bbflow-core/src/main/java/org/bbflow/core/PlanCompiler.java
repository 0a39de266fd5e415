package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a composition into its {@link FlowPlan}, once, before any thread starts. The blocks
 * describe themselves into a {@link GraphBuilder}; then every rule that cuts across blocks is decided
 * here, each in one place, for every node at any depth, or the composition is refused with an
 * {@link IllegalStateException} naming the block and the rule:
 *
 * <ul>
 *   <li>node registration, fused nodes included: {@link Members};</li>
 *   <li>channel ends (one {@code toChannel} and one {@code fromChannel} node per channel):
 *       {@link #checkChannelEnds};</li>
 *   <li>sources and inputs (a source only first, every other node fed): {@link #checkEnds};</li>
 *   <li>feedback loops (nesting, heads, in-flight accounting): {@link Loops};</li>
 *   <li>ordered units and strict collectors (what may stand in such a farm's workers, reorder
 *       windows): {@link UnitRegions};</li>
 *   <li>shared MPSC channels: {@link #checkSharedInputs};</li>
 *   <li>where {@code send} goes (dispatch, way back, units): {@link #route};</li>
 *   <li>how a node reads its inputs (collect policies, loops): {@link #read};</li>
 *   <li>channels (feedback unbounded, the flow's default, MPSC sharing): {@link #links};</li>
 *   <li>wait strategies (per edge, per flow, oversubscription): {@link #strategy};</li>
 *   <li>batch recycling: {@link #recycles};</li>
 *   <li>plain one-to-one edges, the shortest way: {@link #plain}.</li>
 * </ul>
 */
final class PlanCompiler {
    private final GraphBuilder g;
    private final FlowOptions options;
    private final Loops loops;
    private final UnitRegions units;
    private final Map<Vertex, Integer> index = new IdentityHashMap<>();
    private final boolean oversubscribed;

    private PlanCompiler(GraphBuilder g, FlowOptions options, Loops loops, UnitRegions units) {
        this.g = g;
        this.options = options;
        this.loops = loops;
        this.units = units;
        for (int i = 0; i < g.vertices.size(); i++) {
            index.put(g.vertices.get(i), i);
        }
        // More node threads than cores: a spinning thread then spins on a core another node needs
        // (measured: a farm of 2 fine-grained workers with its source as emitter and its sink as
        // collector, 4 threads on 2 cores, gave a speedup of 1.3 with the usual spins and 1.8 with
        // short ones).
        this.oversubscribed = g.vertices.size() > Runtime.getRuntime().availableProcessors();
    }

    /**
     * Compiles a block.
     *
     * @throws IllegalStateException if the composition breaks a rule (naming the block and the rule)
     */
    static FlowPlan compile(Block<?, ?> block, FlowOptions options) {
        GraphBuilder g = new GraphBuilder();
        String rootName = Composite.childName(block);
        Ports root = g.compile(block, rootName, -1);
        Map<Vertex, List<Node<?, ?>>> members = Members.of(g.vertices);
        Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> channelFeeds = Map.of();
        if (Nodes.channelEndsMade) {
            channelFeeds = checkChannelEnds(g, members);
        }
        checkEnds(g, root, rootName);
        Loops loops = Loops.resolve(g);
        UnitRegions units = UnitRegions.resolve(g, loops);
        checkSharedInputs(g);
        return new PlanCompiler(g, options, loops, units).plan(rootName, members, channelFeeds);
    }

    /**
     * Channel ends: a {@link Channel} has one producer and one consumer, so one flow may fill it with
     * one {@link Nodes#toChannel} node and drain it with one {@link Nodes#fromChannel} node. (Two
     * sinks, a farm's workers say, ended it at the first one's end of stream, so its reader could see
     * a clean end with items missing; two sources would read one channel from two threads.)
     *
     * @return for each {@code fromChannel} node, the {@code toChannel} nodes downstream of it: the
     *         channels whose end of stream waits for the end of the one it drains (what
     *         {@link ChannelEnds#checkCycles} follows across running flows)
     */
    private static Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> checkChannelEnds(GraphBuilder g,
            Map<Vertex, List<Node<?, ?>>> members) {
        Map<Channel<?>, String> filled = new IdentityHashMap<>();
        Map<Channel<?>, String> drained = new IdentityHashMap<>();
        Map<Channel<?>, Vertex> fillers = new IdentityHashMap<>();
        Map<Channel<?>, Vertex> drainers = new IdentityHashMap<>();
        Map<Channel<?>, Nodes.ChannelSource<?>> sources = new IdentityHashMap<>();
        for (Vertex v : g.vertices) {
            for (Node<?, ?> m : members.get(v)) {
                boolean sink = m instanceof Nodes.ChannelSink;
                if (!sink && !(m instanceof Nodes.ChannelSource)) {
                    continue;
                }
                Channel<?> c = sink ? ((Nodes.ChannelSink<?>) m).channel : ((Nodes.ChannelSource<?>) m).channel;
                String previous = (sink ? filled : drained).putIfAbsent(c, v.path);
                if (previous != null) {
                    String ends = sink ? "filled by Nodes.toChannel" : "drained by Nodes.fromChannel";
                    String why = sink ? "one producer (the first toChannel to end would end it for all), so gather the"
                            + " items first (a farm's collector) and fill it from one node"
                            : "one consumer, so drain it from one node and dispatch from there (a farm's emitter)";
                    throw new IllegalStateException("channel ends: " + c + " is " + ends + " at " + previous + " and at "
                            + v.path + "; a channel has " + why);
                }
                (sink ? fillers : drainers).put(c, v);
                if (!sink) {
                    sources.put(c, (Nodes.ChannelSource<?>) m);
                }
            }
        }
        // A channel filled downstream of the node that drains it (or by the same comb) is a cycle that
        // cannot end: the reader's stream ends only when the channel closes, which its filler does only
        // at its own end of stream, after the reader's. It hung until cancelled; another branch of the
        // flow may fill it.
        for (Map.Entry<Channel<?>, Vertex> d : drainers.entrySet()) {
            Vertex filler = fillers.get(d.getKey());
            if (filler != null && reaches(d.getValue(), filler)) {
                throw new IllegalStateException("channel ends: " + d.getKey() + " is drained by Nodes.fromChannel at "
                        + d.getValue().path + " and filled downstream of it by Nodes.toChannel at " + filler.path
                        + "; the channel would close only after its reader ended, so the flow could never end"
                        + " (fill it from another branch, or loop with feedback())");
            }
        }
        Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> feeds = new IdentityHashMap<>();
        for (Map.Entry<Channel<?>, Vertex> d : drainers.entrySet()) {
            List<Nodes.ChannelSink<?>> sinks = new ArrayList<>();
            for (Vertex v : downstream(d.getValue())) {
                for (Node<?, ?> m : members.get(v)) {
                    if (m instanceof Nodes.ChannelSink) {
                        sinks.add((Nodes.ChannelSink<?>) m);
                    }
                }
            }
            if (!sinks.isEmpty()) {
                feeds.put(sources.get(d.getKey()), List.copyOf(sinks));
            }
        }
        return feeds;
    }

    /** The vertices downstream of {@code from} (feedback edges included), {@code from} first. */
    private static List<Vertex> downstream(Vertex from) {
        Map<Vertex, Boolean> seen = new IdentityHashMap<>();
        List<Vertex> found = new ArrayList<>();
        found.add(from);
        seen.put(from, Boolean.TRUE);
        for (int i = 0; i < found.size(); i++) {
            for (Edge e : found.get(i).out) {
                if (seen.putIfAbsent(e.to, Boolean.TRUE) == null) {
                    found.add(e.to);
                }
            }
        }
        return found;
    }

    /** Whether {@code to} is {@code from} or lies downstream of it (feedback edges included). */
    private static boolean reaches(Vertex from, Vertex to) {
        Map<Vertex, Boolean> seen = new IdentityHashMap<>();
        List<Vertex> todo = new ArrayList<>();
        todo.add(from);
        seen.put(from, Boolean.TRUE);
        while (!todo.isEmpty()) {
            Vertex v = todo.remove(todo.size() - 1);
            if (v == to) {
                return true;
            }
            for (Edge e : v.out) {
                if (seen.putIfAbsent(e.to, Boolean.TRUE) == null) {
                    todo.add(e.to);
                }
            }
        }
        return false;
    }

    /** Sources and inputs: a source is only a first stage, every other node has an input, the root's inputs are sources. */
    private static void checkEnds(GraphBuilder g, Ports root, String rootName) {
        for (Vertex v : g.vertices) {
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
        }
        for (Vertex v : root.entries) {
            if (!v.isSource()) {
                throw new IllegalStateException("'" + rootName + "' has an unconnected input port; start the flow with a Source");
            }
        }
    }

    /** MPSC channels: one carries all of a node's inputs or none, no feedback, and only into a first-come reader. */
    private static void checkSharedInputs(GraphBuilder g) {
        for (Vertex v : g.vertices) {
            int mpsc = 0;
            boolean anyBack = false;
            for (Edge e : v.in) {
                mpsc += e.mpsc() ? 1 : 0;
                anyBack |= e.back;
            }
            if (mpsc > 0 && (mpsc != v.in.size() || anyBack)) {
                throw new IllegalStateException("node " + v.path + ": MPSC channels: an MPSC channel must carry all of a"
                        + " node's inputs and no feedback");
            }
            if (mpsc > 0 && v.collect != Collect.FIRST_COME) {
                throw new IllegalStateException("node " + v.path + ": MPSC channels: collector policy " + v.collect
                        + " reads each input in turn and cannot use a shared MPSC channel");
            }
        }
    }

    private static boolean sharesMpscInput(Vertex v) {
        return !v.in.isEmpty() && v.in.get(0).mpsc();
    }

    private FlowPlan plan(String rootName, Map<Vertex, List<Node<?, ?>>> members,
            Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> channelFeeds) {
        List<Vertex> vs = g.vertices;
        int n = vs.size();
        Map<Edge, Integer> linkOf = new IdentityHashMap<>();
        List<LinkPlan> links = links(linkOf);
        NodePlan.Route[] routes = new NodePlan.Route[n];
        NodePlan.Read[] reads = new NodePlan.Read[n];
        for (int i = 0; i < n; i++) {
            routes[i] = route(vs.get(i));
            reads[i] = read(vs.get(i));
        }
        Map<Edge, EdgePlan> edges = new IdentityHashMap<>();
        List<EdgePlan> edgeList = new ArrayList<>();
        for (Edge e : g.edges) {
            int from = index.get(e.from);
            int to = index.get(e.to);
            int link = linkOf.get(e);
            EdgePlan p = new EdgePlan(edgeList.size(), from, e.from.out.indexOf(e), to, e.to.in.indexOf(e), link, e.back,
                    loops.counted(e) ? loops.of(e.to) : -1, recycles(e), plain(e, routes[from], reads[to], links.get(link)),
                    e.from.path, e.to.path);
            edges.put(e, p);
            edgeList.add(p);
        }
        List<NodePlan> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Vertex v = vs.get(i);
            EdgePlan[] in = new EdgePlan[v.in.size()];
            for (int k = 0; k < in.length; k++) {
                in[k] = edges.get(v.in.get(k));
            }
            EdgePlan[] out = new EdgePlan[v.out.size()];
            for (int k = 0; k < out.length; k++) {
                out[k] = edges.get(v.out.get(k));
            }
            boolean shared = sharesMpscInput(v);
            int reading = shared ? 1 : in.length;
            int[] inputLinks = new int[reading];
            boolean[] inputBack = new boolean[reading];
            boolean[] inputCounted = new boolean[reading];
            for (int k = 0; k < reading; k++) {
                inputLinks[k] = in[k].link;
                inputBack[k] = in[k].back;
                inputCounted[k] = in[k].counted();
            }
            WaitStrategy s = strategy(v);
            Dispatch d = v.dispatch;
            nodes.add(new NodePlan(i, v.node, members.get(v), v.path, v.workerIndex, in, out, inputLinks, inputBack,
                    inputCounted, shared, reads[i], routes[i], routes[i] == NodePlan.Route.BY_KEY ? d.key : null,
                    units.role(v), units.orderedEmitter(v), units.inTurnEmitter(v), units.window(v), loops.of(v),
                    loops.isHead(v),
                    oversubscribed ? s.whenOversubscribed() : s,
                    oversubscribed ? NodeRunner.QUICK_SPINS_OVERSUBSCRIBED : NodeRunner.QUICK_SPINS, v.collect));
        }
        List<LoopPlan> loopPlans = new ArrayList<>();
        for (int l = 0; l < loops.count(); l++) {
            List<Vertex> heads = loops.heads(l);
            int[] h = new int[heads.size()];
            for (int k = 0; k < h.length; k++) {
                h[k] = index.get(heads.get(k));
            }
            loopPlans.add(new LoopPlan(l, loops.owner(l), h));
        }
        return new FlowPlan(rootName, nodes, edgeList, links, loopPlans, units.windowCapacities(), g.composites,
                channelFeeds);
    }

    /**
     * Channels: one per edge, or one MPSC channel per node whose inputs share it. A feedback channel
     * is unbounded: were it bounded, a head blocked on a full forward channel and a loop member
     * blocked on a full way back would deadlock. Other edges take their block's specification, else
     * the flow's default.
     */
    private List<LinkPlan> links(Map<Edge, Integer> linkOf) {
        List<LinkPlan> links = new ArrayList<>();
        ChannelSpec defaults = options.channels();
        for (Vertex v : g.vertices) {
            int consumer = index.get(v);
            if (sharesMpscInput(v)) {
                int[] producers = new int[v.in.size()];
                for (int k = 0; k < producers.length; k++) {
                    producers[k] = index.get(v.in.get(k).from);
                    linkOf.put(v.in.get(k), links.size());
                }
                ChannelSpec spec = v.in.get(0).spec;
                links.add(new LinkPlan(links.size(), spec.kind(), spec.capacity(), consumer, producers,
                        loops.counted(v.in.get(0)) ? loops.of(v) : -1));
            } else {
                for (Edge e : v.in) {
                    ChannelSpec spec = e.back ? ChannelSpec.unbounded() : e.spec != null ? e.spec : defaults;
                    linkOf.put(e, links.size());
                    links.add(new LinkPlan(links.size(), spec.kind(), spec.capacity(), consumer,
                            new int[] {index.get(e.from)}, loops.counted(e) ? loops.of(v) : -1));
                }
            }
        }
        return links;
    }

    /**
     * Where {@code send} goes: the unit protocol inside an ordered or strict farm's worker; nowhere
     * without outputs; back to the item's origin for a right member of an all-to-all with feedback;
     * the way back for a node closing a loop; otherwise the block's dispatch policy (round-robin by
     * default), which for one output is that output, except scatter: one output gets one chunk, the
     * whole collection as a list (so that a farm's verdict does not depend on its worker count).
     */
    private NodePlan.Route route(Vertex v) {
        Dispatch d = v.dispatch == null ? Dispatch.roundRobin() : v.dispatch;
        int n = v.out.size();
        if (n == 0) {
            return NodePlan.Route.NONE;
        }
        if (units.role(v) != NodePlan.UnitRole.NONE) {
            return NodePlan.Route.UNITS; // a worker's node has one output, the next node of its unit's way
        }
        if (v.send == Vertex.Send.ORIGIN) {
            return NodePlan.Route.ORIGIN;
        }
        if (v.send == Vertex.Send.BACK) {
            return NodePlan.Route.SINGLE;
        }
        if (d.kind == Dispatch.Kind.SCATTER) {
            return NodePlan.Route.SCATTER;
        }
        if (n == 1) {
            return NodePlan.Route.SINGLE;
        }
        switch (d.kind) {
            case ON_DEMAND: return NodePlan.Route.ON_DEMAND;
            case BROADCAST: return NodePlan.Route.BROADCAST;
            case BY_KEY: return NodePlan.Route.BY_KEY;
            default: return NodePlan.Route.ROUND_ROBIN;
        }
    }

    /**
     * How a node reads: a farm collector's strict policy (an ordered collector with a reorder
     * window reads in the order its emitter recorded), else first-come (the plain one-input loop
     * when the node reads one channel and is in no feedback loop).
     */
    private NodePlan.Read read(Vertex v) {
        if (v.in.isEmpty()) {
            return NodePlan.Read.NONE;
        }
        switch (v.collect) {
            case ROUND_ROBIN:
                return NodePlan.Read.ROUND_ROBIN;
            case GATHER:
                return NodePlan.Read.GATHER;
            case ORDERED:
                return units.window(v) >= 0 ? NodePlan.Read.WINDOWED : NodePlan.Read.ORDERED;
            default:
                boolean one = sharesMpscInput(v) || v.in.size() == 1;
                return one && !v.in.get(0).back && loops.of(v) < 0 ? NodePlan.Read.SINGLE : NodePlan.Read.FIRST_COME;
        }
    }

    /** The strategy a node waits with: its edges' if they agree on one, else the flow's. */
    private WaitStrategy strategy(Vertex v) {
        WaitStrategy chosen = agreed(v.in);
        if (chosen == null && v.in.isEmpty()) {
            chosen = agreed(v.out);
        }
        return chosen != null ? chosen : options.waitStrategy();
    }

    private static WaitStrategy agreed(List<Edge> edges) {
        WaitStrategy s = null;
        for (Edge e : edges) {
            WaitStrategy w = e.spec == null ? null : e.spec.waitStrategyOrNull();
            if (w == null || (s != null && s != w)) {
                return null;
            }
            s = w;
        }
        return s;
    }

    /**
     * Batch recycling: the batches sent on e come back to its producer when both ends are stages of
     * {@link LongNodes}/{@link DoubleNodes} (a {@link BatchStage}) and the consumer reads the batch
     * class the producer sends, on an edge that is the producer's only output and the consumer's only
     * input (no batch broadcast or read twice), outside feedback loops, and clear of the unit protocol
     * and of an ordered farm's emitter (markers travel there).
     */
    private boolean recycles(Edge e) {
        if (!(e.from.node instanceof BatchStage) || !(e.to.node instanceof BatchStage)) {
            return false;
        }
        Class<?> sent = ((BatchStage<?, ?>) e.from.node).outBatch();
        boolean matches = sent != null && sent == ((BatchStage<?, ?>) e.to.node).inBatch();
        return matches && e.from.out.size() == 1 && e.to.in.size() == 1 && loops.of(e.from) < 0 && loops.of(e.to) < 0
                && units.role(e.from) == NodePlan.UnitRole.NONE && units.role(e.to) == NodePlan.UnitRole.NONE
                && !units.orderedEmitter(e.from);
    }

    /**
     * A plain one-to-one edge: the producer's only output (its send goes there) and the consumer's
     * only input (read by the plain loop), a channel of its own that is not MPSC, outside loops and
     * units and not from an ordered farm's emitter.
     */
    private boolean plain(Edge e, NodePlan.Route route, NodePlan.Read read, LinkPlan link) {
        return !e.back && route == NodePlan.Route.SINGLE && read == NodePlan.Read.SINGLE
                && e.from.out.size() == 1 && e.to.in.size() == 1 && link.kind != Channel.Kind.MPSC
                && !loops.counted(e) && !units.orderedEmitter(e.from);
    }
}
