package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** On-demand farms use short worker queues, so a slow worker gets few items. */
@Timeout(60)
class OnDemandTest {

    @Test
    void aBlockedWorkerGetsOnlyWhatItsShortQueueHolds() {
        int items = 4000;
        CountDownLatch emitterDone = new CountDownLatch(1);
        AtomicInteger slowItems = new AtomicInteger();
        LongAdder delivered = new LongAdder();
        AtomicInteger made = new AtomicInteger();
        // worker 0 blocks on its first item until the emitter has dispatched every item
        Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> {
            boolean slow = made.getAndIncrement() == 0;
            return Nodes.map((Long x) -> {
                if (slow) {
                    if (slowItems.getAndIncrement() == 0) {
                        try {
                            assertTrue(emitterDone.await(30, TimeUnit.SECONDS));
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
                return x;
            });
        }).dispatch(Dispatch.onDemand()).emitter(new Node<Long, Long>() {
            @Override
            public void onItem(Long x, Outbox<Long> out) {
                out.send(x);
            }

            @Override
            public void onEos(Outbox<Long> out) {
                emitterDone.countDown();
            }
        });
        Runs.run(Pipeline.of(Nodes.range(1, items), farm, Nodes.sink((Long x) -> delivered.increment())));
        assertEquals(items, delivered.sum());
        int bound = Farm.ON_DEMAND_CAPACITY + 1; // its queue plus the item in hand
        assertTrue(slowItems.get() <= bound, "the blocked worker got " + slowItems.get() + " items, more than " + bound);
    }
}
