package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class BadUseTest {

    private static void assertMessage(Throwable e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "message '" + e.getMessage() + "' lacks '" + p + "'");
        }
    }

    @Test
    void nullItemsAreRefused() {
        Channel<Long> c = Channel.spsc(4);
        assertThrows(IllegalArgumentException.class, () -> c.offer(null));
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(Nodes.range(1, 3), Nodes.map((Long x) -> (Long) null), Nodes.sink(x -> { }))));
        assertTrue(e.getCause() instanceof IllegalArgumentException);
        assertTrue(e.nodePath().endsWith("map[1]"));
    }

    @Test
    void zeroWorkersAndBadCapacities() {
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Farm.of(0, Nodes::identity)), "workers must be in [1, 4096]");
        assertThrows(IllegalArgumentException.class, () -> Channel.spsc(0));
        assertThrows(IllegalArgumentException.class, () -> ChannelSpec.bounded(0));
        assertThrows(IllegalArgumentException.class, () -> AllToAll.of(List.of(), List.of(Nodes.identity())));
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of());
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(
                Pipeline.of(Nodes.range(1, 2), Farm.empty(), Nodes.sink(x -> { })))), "has no worker");
    }

    @Test
    void aStartedBlockCannotStartAgain() {
        Pipeline<Void, Void> p = Pipeline.of(Nodes.range(1, 3), Nodes.sink(x -> { })).named("once");
        p.run();
        assertMessage(assertThrows(IllegalStateException.class, p::run), "'once'", "already started");
        assertThrows(IllegalStateException.class, () -> p.then(Nodes.identity()));
    }

    @Test
    void aNodeUsedTwiceIsRefused() {
        Node<Long, Long> n = Nodes.identity();
        assertMessage(assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(Nodes.range(1, 3), n, n, Nodes.sink(x -> { })))), "appears twice");
        Farm<Long, Long> f = Farm.of(2, Nodes::identity);
        assertMessage(assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(Nodes.range(1, 3), f, f, Nodes.sink(x -> { })))), "appears twice");
    }

    @Test
    void unconnectedInputsAndMisplacedSourcesAreRefused() {
        assertMessage(assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(Nodes.map((Long x) -> x), Nodes.sink(x -> { })))), "no input");
        assertMessage(assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(Nodes.range(1, 2), Nodes.range(1, 2)))), "takes no input");
        assertMessage(assertThrows(IllegalStateException.class,
                () -> Flow.start(Farm.of(2, Nodes::identity))), "no input");
    }

    @Test
    void topologyCardinalityMismatchNamesTheBlock() {
        Pipeline<Void, Void> p = Pipeline.of(Nodes.range(1, 2), Farm.of(3, Nodes::identity).withoutCollector())
                .named("shape")
                .then(Farm.<Long, Void>of(2, () -> Nodes.sink(x -> { })).withoutEmitter(), Topology.PAIRWISE);
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(p)), "'shape'", "PAIRWISE", "3", "2");
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(
                Pipeline.of(Nodes.range(1, 2), Farm.of(2, Nodes::identity).withoutCollector())
                        .then(Nodes.sink(x -> { }), Topology.ONE_TO_ONE))), "ONE_TO_ONE");
    }

    @Test
    void invalidFarmConfigurations() {
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 2),
                Farm.of(2, Nodes::identity).ordered().dispatch(Dispatch.broadcast()), Nodes.sink(x -> { })))),
                "ordered farm dispatches round-robin or on demand");
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 2),
                Farm.of(2, Nodes::identity).withoutEmitter().feedback(), Nodes.sink(x -> { })))), "has none");
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 2),
                Farm.of(2, () -> Farm.of(2, Nodes::identity)).ordered(), Nodes.sink(x -> { })))),
                "nodes or pipelines of nodes");
        assertMessage(assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 2),
                Farm.of(2, Nodes::identity).collect(Collect.ROUND_ROBIN).channels(ChannelSpec.mpsc(16)),
                Nodes.sink(x -> { })))), "MPSC");
    }

    @Test
    void orderedEmitterRefusesSendTo() {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.range(1, 2),
                Farm.of(2, Nodes::identity).emitter(Nodes.<Long, Long>flatMap((x, o) -> o.sendTo(1, x))).ordered(),
                Nodes.sink(x -> { }))));
        assertTrue(e.getCause() instanceof UnsupportedOperationException);
    }

    @Test
    void sendingFromASinkIsAnError() {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.range(1, 2),
                Nodes.<Long, Long>flatMap((x, o) -> o.send(x)))));
        assertTrue(e.getCause() instanceof IllegalStateException);
        assertMessage(e.getCause(), "no output");
        FlowException e2 = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(Nodes.range(1, 2),
                Nodes.<Long, Long>flatMap((x, o) -> o.sendTo(3, x)), Nodes.sink(x -> { }))));
        assertTrue(e2.getCause() instanceof IndexOutOfBoundsException);
    }

    @Test
    void blockNamesMustBeUsable() {
        assertThrows(IllegalArgumentException.class, () -> Pipeline.of(Nodes.range(1, 2)).named("a/b"));
        assertThrows(IllegalArgumentException.class, () -> Farm.of(1, Nodes::identity).named(""));
    }
}
