package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.bbflow.testing.TestTier;

@Timeout(120)
class ChannelTest {

    static List<WaitStrategy> strategies() {
        return List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin(),
                WaitStrategy.backoff(0, 0, java.time.Duration.ofNanos(1000), java.time.Duration.ofMillis(5)));
    }

    @Test
    void eosIsAStateNotAnItem() {
        Channel<String> c = Channel.spsc(4);
        assertTrue(c.offer("a"));
        c.close();
        assertTrue(c.isClosed());
        assertFalse(c.isEos());
        assertThrows(IllegalStateException.class, () -> c.offer("b"));
        assertEquals("a", c.take());
        assertTrue(c.isEos());
        assertNull(c.take());
        assertNull(c.poll());
        c.close(); // idempotent
    }

    @Test
    void boundedChannelRefusesWhenFullAndRoundsCapacity() {
        Channel<Integer> c = Channel.spsc(5);
        assertEquals(8, c.capacity());
        for (int i = 0; i < 8; i++) {
            assertTrue(c.offer(i));
        }
        assertFalse(c.offer(99));
        assertEquals(8, c.size());
        assertEquals(Integer.MAX_VALUE, Channel.spscUnbounded().capacity());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void putAndTakeAcrossThreadsKeepFifoOrder(WaitStrategy ws) throws Exception {
        for (Channel<Long> c : List.of(Channel.<Long>spsc(8), Channel.<Long>spscUnbounded(), Channel.<Long>mpsc(8),
                Channel.<Long>spsc(1), Channel.<Long>mpsc(1))) {
            c.waitStrategy(ws);
            // a strategy that parks hands over one item per wake-up on the one-slot channels: the default
            // tier hands over fewer (the wake-up protocol itself is jcstress's WakeupStress)
            long n = ws == WaitStrategy.busySpin() || ws == WaitStrategy.backoff() ? 200_000 : TestTier.pick(25_000, 200_000);
            AtomicReference<Throwable> error = new AtomicReference<>();
            Thread producer = new Thread(() -> {
                try {
                    for (long i = 0; i < n; i++) {
                        c.put(i);
                    }
                    c.close();
                } catch (Throwable t) {
                    error.set(t);
                }
            });
            producer.start();
            long expected = 0;
            for (Long x; (x = c.take()) != null; ) {
                assertEquals(expected++, x);
            }
            producer.join();
            assertNull(error.get());
            assertEquals(n, expected);
        }
    }

    @Test
    void mpscChannelTakesManyProducers() throws Exception {
        Channel<Long> c = Channel.<Long>mpsc(64).waitStrategy(WaitStrategy.blocking());
        int producers = 4;
        long perProducer = 50_000;
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            final long base = p * 1_000_000L;
            ts[p] = new Thread(() -> {
                for (long i = 0; i < perProducer; i++) {
                    c.put(base + i);
                }
            });
            ts[p].start();
        }
        long[] last = new long[producers];
        java.util.Arrays.fill(last, -1);
        AtomicLong count = new AtomicLong();
        Thread closer = new Thread(() -> {
            for (Thread t : ts) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
            c.close();
        });
        closer.start();
        for (Long x; (x = c.take()) != null; ) {
            int p = (int) (x / 1_000_000L);
            long i = x % 1_000_000L;
            assertEquals(last[p] + 1, i, "per-producer order");
            last[p] = i;
            count.incrementAndGet();
        }
        assertEquals(producers * perProducer, count.get());
    }

    @Test
    void interruptedWaitStops() throws Exception {
        Channel<Long> c = Channel.<Long>spsc(4).waitStrategy(WaitStrategy.blocking());
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                c.take();
            } catch (Throwable e) {
                error.set(e);
            }
        });
        t.start();
        t.interrupt();
        t.join(30_000);
        assertFalse(t.isAlive());
        assertTrue(error.get() instanceof IllegalStateException, String.valueOf(error.get()));
    }

    @Test
    void mpscEdgeInAFlowMergesProducers() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 10_000),
                Farm.of(3, () -> Nodes.map((Long x) -> x)).channels(ChannelSpec.mpsc(16)), out.sink()));
        assertEquals(10_000, out.get().size());
        assertEquals(10_000, s.node("collector").itemsIn());
    }

    /** An Agrona idle strategy that counts its calls, to see who waits with it. */
    static final class CountingIdle implements org.agrona.concurrent.IdleStrategy {
        final AtomicLong calls;

        CountingIdle(AtomicLong calls) {
            this.calls = calls;
        }

        @Override
        public void idle(int workCount) {
            if (workCount <= 0) {
                idle();
            }
        }

        @Override
        public void idle() {
            calls.incrementAndGet();
            java.util.concurrent.locks.LockSupport.parkNanos(50_000);
        }

        @Override
        public void reset() {
        }
    }

    @Test
    void waitStrategyIsSettablePerFlowAndPerEdge() {
        AtomicLong flowWide = new AtomicLong();
        AtomicLong edge = new AtomicLong();
        // the sink waits (its producer is slow); only the edge into the sink carries the edge strategy
        Source<Long> slow = Nodes.source(o -> {
            for (long i = 0; i < 20; i++) {
                Thread.sleep(2);
                o.send(i);
            }
        });
        Runs.run(Pipeline.of(slow, Nodes.map((Long x) -> x))
                        .then(Nodes.sink(x -> { }), ChannelSpec.bounded(8).withWaitStrategy(WaitStrategy.of(() -> new CountingIdle(edge)))),
                FlowOptions.defaults().withWaitStrategy(WaitStrategy.of(() -> new CountingIdle(flowWide))));
        assertTrue(edge.get() > 0, "the sink never waited with its edge's strategy");
        assertTrue(flowWide.get() > 0, "the map never waited with the flow's strategy");
    }

    @Test
    void oneSlotChannelsHoldExactlyOneItem() {
        for (Channel<String> c : List.of(Channel.<String>spsc(1), Channel.<String>mpsc(1))) {
            assertEquals(1, c.capacity());
            assertTrue(c.offer("a"));
            assertFalse(c.offer("b"), c.toString());
            assertEquals(1, c.size());
            assertEquals("a", c.poll());
            assertTrue(c.offer("b"));
            assertFalse(c.offer("c"));
            assertEquals("b", c.take());
            assertNull(c.poll());
        }
        assertEquals(1, ChannelSpec.bounded(1).capacity());
        assertEquals(1, ChannelSpec.mpsc(1).capacity());
    }

    @Test
    void oneSlotMpscChannelNeverHoldsTwoItemsUnderManyProducers() throws Exception {
        Channel<Long> c = Channel.<Long>mpsc(1).waitStrategy(WaitStrategy.blocking());
        int producers = 3;
        int puts = 5_000;
        c.expectProducers(producers);
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            threads[p] = new Thread(() -> {
                for (int i = 0; i < puts; i++) {
                    c.put((long) i);
                }
                c.close();
            });
            threads[p].setDaemon(true);
            threads[p].start();
        }
        long count = 0;
        int maxSize = 0;
        for (Long x; (x = c.take()) != null; ) {
            count++;
            maxSize = Math.max(maxSize, c.size());
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals((long) producers * puts, count);
        assertTrue(maxSize <= 1, "a one-slot channel held " + maxSize + " items");
    }

    @Test
    void flowOverOneSlotChannelsDeliversEverythingInOrder() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 20_000), Nodes.map((Long x) -> x), out.sink()),
                FlowOptions.defaults().withChannels(ChannelSpec.bounded(1)));
        assertEquals(Runs.range(1, 20_000), out.get());
    }
}
