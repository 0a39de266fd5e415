package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class StatsAndNamesTest {

    @Test
    void threadsAreNamedAfterTheBlockPath() {
        Set<String> names = ConcurrentHashMap.newKeySet();
        Set<String> paths = ConcurrentHashMap.newKeySet();
        Node<Long, Long> probe = new Node<>() {
            @Override
            public void init(NodeContext c) {
                names.add(Thread.currentThread().getName());
                paths.add(c.path());
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.send(x);
            }
        };
        Runs.run(Pipeline.of(Nodes.range(1, 10), Farm.of(2, () -> new Node<Long, Long>() {
            @Override
            public void init(NodeContext c) {
                names.add(Thread.currentThread().getName());
                assertEquals(c.path(), Thread.currentThread().getName());
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                o.send(x);
            }
        }).named("work"), probe, Nodes.sink(x -> { })).named("job"));
        assertEquals(Set.of("job/work[1]/worker-0", "job/work[1]/worker-1", "job/node[2]"), names);
        assertEquals(Set.of("job/node[2]"), paths);
    }

    @Test
    void statisticsCountItemsAndWaits() {
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 5_000), Nodes.filter((Long x) -> x % 2 == 0),
                Farm.of(2, () -> Nodes.map((Long x) -> x)).dispatch(Dispatch.broadcast()), Nodes.sink(x -> { })),
                FlowOptions.defaults().withChannels(ChannelSpec.bounded(4)));
        assertEquals(5_000, s.node("filter[1]").itemsIn());
        assertEquals(2_500, s.node("filter[1]").itemsOut());
        assertEquals(5_000, s.node("emitter").itemsOut()); // broadcast: once per output
        assertEquals(5_000, s.node("sink[3]").itemsIn());
        List<NodeStats> nodes = s.nodes();
        assertEquals(7, nodes.size());
        long waits = nodes.stream().mapToLong(n -> n.emptyWaits() + n.fullWaits()).sum();
        assertTrue(waits > 0, "4-slot channels between 7 threads on 2 cores never waited?\n" + s.table());
        for (NodeStats n : nodes) {
            assertTrue(n.busyNanos() >= 0 && n.idleNanos() >= 0, n.toString());
            assertTrue(n.busyShare() >= 0 && n.busyShare() <= 1, n.toString());
        }
        String table = s.table();
        assertTrue(table.contains("pipeline/filter[1]"), table);
        assertTrue(table.contains("items in"), table);
        assertTrue(s.elapsed().toNanos() > 0);
    }
}
