package org.bbflow.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A composition compiled once, before any thread starts, into what the runtime runs: one
 * {@link NodePlan} per node, one {@link EdgePlan} per edge, the runtime channels ({@link LinkPlan}),
 * the feedback loops ({@link LoopPlan}) and the reorder windows of ordered farms. Made by the
 * {@link PlanCompiler}, in which every rule that cuts across blocks is decided; the runtime
 * ({@link Flow}, {@link NodeRunner} and what they make) reads it and never writes it. Immutable.
 */
final class FlowPlan {
    /** The flow's name: its root block's. */
    final String name;
    final List<NodePlan> nodes;
    final List<EdgePlan> edges;
    final List<LinkPlan> links;
    final List<LoopPlan> loops;
    /** The capacity of each reorder window, by the index {@link NodePlan#window} gives. */
    final int[] windows;
    /** The composite blocks of the flow (each is started once). */
    final List<Composite<?, ?>> composites;
    /**
     * For each {@link Nodes#fromChannel} node with {@link Nodes#toChannel} nodes downstream of it,
     * those nodes: each of their channels closes only after the drained channel has (see
     * {@link ChannelEnds#checkCycles}). Empty in a flow without both.
     */
    final Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> channelFeeds;

    FlowPlan(String name, List<NodePlan> nodes, List<EdgePlan> edges, List<LinkPlan> links, List<LoopPlan> loops,
             int[] windows, List<Composite<?, ?>> composites,
             Map<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> channelFeeds) {
        this.name = name;
        this.nodes = List.copyOf(nodes);
        this.edges = List.copyOf(edges);
        this.links = List.copyOf(links);
        this.loops = List.copyOf(loops);
        this.windows = windows.clone();
        this.composites = List.copyOf(composites);
        this.channelFeeds = channelFeeds; // an identity map: not copied (Map.copyOf would compare channels by equals)
    }

    /** Every node instance of the flow, fused ones included. */
    List<Node<?, ?>> members() {
        List<Node<?, ?>> all = new ArrayList<>();
        for (NodePlan n : nodes) {
            all.addAll(n.members);
        }
        return all;
    }
}
