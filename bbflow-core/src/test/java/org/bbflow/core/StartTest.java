package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting a flow is all or nothing: a refused or failed start leaves no node registered and runs no node code. */
@Timeout(60)
class StartTest {

    @AfterEach
    void clearHook() {
        Flow.threadStartHook = null;
    }

    @Test
    void aStartRefusedWhileBuildingLeavesItsNodesFree() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Node<Long, Void> sink = out.sink();
        // refused by the plan compiler after the whole graph was built: a farm inside an ordered farm's worker
        Pipeline<Void, Void> refused = Pipeline.of(Nodes.range(1, 3),
                Farm.of(2, () -> Farm.of(1, Nodes::<Long>identity)).ordered(), sink);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(refused));
        assertTrue(e.getMessage().contains("ordered units"), e.getMessage());

        Runs.run(Pipeline.of(Nodes.range(1, 3), sink)); // the same sink, now in a valid flow
        assertEquals(Runs.range(1, 3), out.get());
    }

    @Test
    void aThreadThatFailsToStartUndoesTheWholeStart() {
        AtomicInteger inits = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        Runs.Collector<Long> out = new Runs.Collector<>();
        Node<Long, Long> counted = new Node<>() {
            @Override
            public void init(NodeContext context) {
                inits.incrementAndGet();
            }

            @Override
            public void onItem(Long item, Outbox<Long> o) {
                o.send(item);
            }

            @Override
            public void close() {
                closes.incrementAndGet();
            }
        };
        Pipeline<?, ?> p = Pipeline.of(Nodes.range(1, 100), counted, Nodes.map((Long x) -> x), out.sink())
                .named("startFails");
        RuntimeException boom = new RuntimeException("no more threads");
        for (int k = 0; k < 4; k++) {
            int failAt = k;
            Flow.threadStartHook = started -> {
                if (started == failAt) {
                    throw boom;
                }
            };
            assertSame(boom, assertThrows(RuntimeException.class, () -> Flow.start(p)), "failing at thread " + k);
            assertEquals(0, inits.get(), "no node code may run in an abandoned start (failing at thread " + k + ")");
            assertEquals(0, closes.get());
            assertEquals(java.util.List.of(), Runs.liveThreads("startFails"));
        }
        Flow.threadStartHook = null;
        Runs.run(p); // the same block and nodes start normally now
        assertEquals(Runs.range(1, 100), out.get());
        assertEquals(1, inits.get());
        assertEquals(1, closes.get());
    }
}
