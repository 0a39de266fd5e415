package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the {@link PlanCompiler} decides, read from the plan itself: plain one-to-one edges (the
 * shortest way, for the runtime to specialise), loop membership and accounting, the unit protocol and
 * reorder windows of ordered farms, batch recycling, and the registration of nodes inside combs.
 */
class FlowPlanTest {

    private static FlowPlan plan(Block<?, ?> block) {
        return PlanCompiler.compile(block, FlowOptions.defaults());
    }

    private static NodePlan node(FlowPlan p, String pathEnd) {
        for (NodePlan n : p.nodes) {
            if (n.path.endsWith(pathEnd)) {
                return n;
            }
        }
        throw new AssertionError("no node " + pathEnd + " in " + p.nodes);
    }

    private static List<String> edges(FlowPlan p) {
        List<String> l = new ArrayList<>();
        p.edges.forEach(e -> l.add(e.toString()));
        return l;
    }

    @Test
    void aPipelineOfNodesIsPlainOneToOneEdgesRunOnTheShortestLoop() {
        FlowPlan p = plan(Pipeline.of(Nodes.range(1, 3), Nodes.map((Long x) -> x), Nodes.sink(x -> { })).named("p"));
        assertEquals(List.of("p/range[0] -> p/map[1] plain", "p/map[1] -> p/sink[2] plain"), edges(p));
        assertEquals(NodePlan.Route.SINGLE, node(p, "map[1]").route);
        assertEquals(NodePlan.Read.SINGLE, node(p, "map[1]").read);
        assertEquals(NodePlan.Read.NONE, node(p, "range[0]").read);
        assertEquals(NodePlan.Route.NONE, node(p, "sink[2]").route);
    }

    @Test
    void aFarmsEdgesAreNotPlainAndItsPoliciesAreDecidedOnce() {
        FlowPlan p = plan(Pipeline.of(Nodes.range(1, 3), Farm.of(2, () -> Nodes.map((Long x) -> x))
                .dispatch(Dispatch.onDemand()), Nodes.sink(x -> { })).named("p"));
        assertEquals(NodePlan.Route.ON_DEMAND, node(p, "emitter").route);
        assertEquals(NodePlan.Read.FIRST_COME, node(p, "collector").read);
        for (EdgePlan e : p.edges) {
            assertEquals(e.toPath.endsWith("sink[2]") || e.fromPath.endsWith("range[0]"), e.plain, e.toString());
        }
        // on demand: one-slot worker queues unless the farm says otherwise
        for (EdgePlan e : node(p, "emitter").outputs) {
            assertEquals(1, p.links.get(e.link).capacity, e.toString());
        }
    }

    @Test
    void nestedLoopsWithOneHeadAreOneLoopWhoseEdgesAreCounted() {
        Node<Long, Long> back = Nodes.flatMap((Long x, Outbox<Long> o) -> o.sendTo(1, x));
        Node<Long, Long> back2 = Nodes.flatMap((Long x, Outbox<Long> o) -> o.sendTo(1, x));
        FlowPlan p = plan(Pipeline.of(Nodes.range(1, 3), Pipeline.of(Pipeline.of(Nodes.<Long>identity(), back).feedback(),
                back2).feedback(), Nodes.sink(x -> { })).named("p"));
        assertEquals(1, p.loops.size());
        NodePlan head = node(p, "identity[0]");
        assertTrue(head.loopHead && head.loop == 0, head.toString());
        assertEquals(NodePlan.Read.FIRST_COME, head.read);
        int backEdges = 0;
        for (EdgePlan e : p.edges) {
            boolean inside = !e.fromPath.endsWith("range[0]") && !e.toPath.endsWith("sink[2]");
            assertEquals(inside, e.counted(), e.toString());
            assertFalse(e.plain && inside, e.toString());
            backEdges += e.back ? 1 : 0;
        }
        assertEquals(2, backEdges);
        for (EdgePlan e : head.inputs) {
            assertEquals(e.back ? Channel.Kind.SPSC_UNBOUNDED : Channel.Kind.SPSC, p.links.get(e.link).kind, e.toString());
        }
    }

    @Test
    void anOrderedOnDemandFarmsWorkersCarryUnitsAndItsEndsShareAWindow() {
        FlowPlan p = plan(Pipeline.of(Nodes.range(1, 3), Farm.of(2, () -> Pipeline.of(Nodes.map((Long x) -> x),
                Nodes.map((Long x) -> x))).dispatch(Dispatch.onDemand()).ordered(), Nodes.sink(x -> { })).named("p"));
        NodePlan emitter = node(p, "emitter");
        NodePlan collector = node(p, "collector");
        assertTrue(emitter.orderedEmitter && emitter.window == 0, emitter.toString());
        assertEquals(NodePlan.Read.WINDOWED, collector.read);
        assertEquals(0, collector.window);
        assertEquals(Farm.DEFAULT_REORDER_WINDOW, p.windows[0]);
        for (NodePlan n : p.nodes) {
            boolean worker = n.path.contains("/worker-");
            assertEquals(worker ? NodePlan.UnitRole.CARRIES_WITH_EOS : NodePlan.UnitRole.NONE, n.units, n.toString());
            assertEquals(worker ? NodePlan.Route.UNITS : n.route, n.route);
        }
    }

    @Test
    void batchesComeBackOnlyOnOneToOneEdgesClearOfUnits() {
        FlowPlan plain = plan(Pipeline.of(LongNodes.range(1, 3), LongNodes.map(x -> x), LongNodes.sink(x -> { })));
        assertTrue(plain.edges.stream().allMatch(e -> e.recycles), edges(plain).toString());
        FlowPlan ordered = plan(Pipeline.of(LongNodes.range(1, 3), Farm.of(2, () -> Pipeline.of(LongNodes.map(x -> x),
                LongNodes.map(x -> x))).ordered(), LongNodes.sink(x -> { })));
        assertTrue(ordered.edges.stream().noneMatch(e -> e.recycles), edges(ordered).toString());
    }

    @Test
    void theNodesInsideACombAreMembersOfTheFlow() {
        Node<Long, Long> a = Nodes.map((Long x) -> x);
        Node<Long, Long> b = Nodes.map((Long x) -> x);
        Node<Long, Long> c = Nodes.map((Long x) -> x);
        Node<Long, Long> fused = a.andThen(b.andThen(c));
        FlowPlan p = plan(Pipeline.of(Nodes.range(1, 3), fused, Nodes.sink(x -> { })));
        List<Node<?, ?>> members = p.members();
        for (Node<?, ?> n : List.of(fused, a, b, c)) {
            assertTrue(members.stream().anyMatch(m -> m == n), n.name() + " not registered");
        }
    }

    @Test
    void compilingTwiceGivesTheSamePlan() {
        Block<?, ?> block = Pipeline.of(Nodes.range(1, 3), Farm.of(3, () -> Nodes.map((Long x) -> x)).ordered(4),
                Pipeline.of(Nodes.<Long>identity(), Nodes.flatMap((Long x, Outbox<Long> o) -> o.sendTo(1, x))).feedback(),
                Nodes.sink(x -> { }));
        FlowPlan first = plan(block);
        FlowPlan second = plan(block);
        assertEquals(first.nodes.toString(), second.nodes.toString());
        assertEquals(edges(first), edges(second));
    }
}
