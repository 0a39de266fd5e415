package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class CollectorPendingInputTest {

    private static Node<Long, Long> master(AtomicLong fedBack, Runs.Collector<Long> finished) {
        return new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                if (c.fromFeedback()) {
                    fedBack.incrementAndGet();
                    if (x > 0) {
                        o.send(x);
                    } else {
                        finished.items.add(x);
                    }
                } else {
                    o.send(x);
                }
            }
        };
    }

    /** Worker: item 1 (and what comes back) passes, 2 is dropped, 3 opens the latch and is dropped. */
    @Test
    void orderedCollectorThatKeepsWhileADroppedItemsMarkerWaits() {
        CountDownLatch ready = new CountDownLatch(1);
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(1, () -> Nodes.<Long, Long>flatMap((x, o) -> {
            if (x == 3) {
                ready.countDown();
            }
            if (x <= 1) {
                o.send(x);
            }
        })).ordered().emitter(master(fedBack, finished)).collector(PendingInputKeeper.keeper(ready)).feedbackFromCollector();
        Runs.run(Pipeline.of(Nodes.range(1, 3), farm, Nodes.sink(x -> { })));
        assertEquals(1, fedBack.get());
        assertEquals(List.of(0L), finished.get());
    }

    /** Worker: item 1 becomes two results (a unit of several), 2 opens the latch and is dropped. */
    @Test
    void orderedCollectorThatKeepsWhileAUnitsEndMarkerWaits() {
        CountDownLatch ready = new CountDownLatch(1);
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(1, () -> Nodes.<Long, Long>flatMap((x, o) -> {
            if (x == 2) {
                ready.countDown();
            } else if (x == 1) {
                o.send(x);
                o.send(x);
            } else {
                o.send(x);
            }
        })).ordered().emitter(master(fedBack, finished)).collector(PendingInputKeeper.keeper(ready)).feedbackFromCollector();
        Runs.run(Pipeline.of(Nodes.range(1, 2), farm, Nodes.sink(x -> { })));
        assertEquals(2, fedBack.get());
        assertEquals(List.of(0L, 0L), finished.get());
    }
}
