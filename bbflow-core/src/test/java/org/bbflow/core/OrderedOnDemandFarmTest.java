package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * An ordered farm whose emitter dispatches on demand (to the least-loaded worker) keeps input order
 * through a bounded reorder window. The oracle is the sequential model: the worker function applied
 * to the input in order.
 */
@Timeout(120)
class OrderedOnDemandFarmTest {
    private static final long[] SEEDS = {1L, 42L, 20261123L};
    private static final List<WaitStrategy> STRATEGIES =
            List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());

    /** Spins for about {@code nanos} (a fast worker's work: no sleep decides anything here). */
    private static void work(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /**
     * A worker: x -> 10x after a delay of its own; worker 0 is about 100 times slower than the others.
     * With {@code othersTook} (else null), worker 0 also holds its first item until the others have
     * counted that latch down, one count an item.
     */
    private static Node<Long, Long> worker(long seed, AtomicLongArray counts, CountDownLatch othersTook) {
        return new Node<>() {
            int index;
            Random random;
            boolean first = true;

            @Override
            public void init(NodeContext c) {
                index = c.workerIndex();
                random = new Random(seed * 31 + index);
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                counts.incrementAndGet(index);
                if (index == 0) {
                    if (othersTook != null && first) {
                        first = false;
                        try {
                            assertTrue(othersTook.await(20, TimeUnit.SECONDS),
                                    "the other workers did not get their items while worker 0 was busy");
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt(); // the flow is being cancelled
                        }
                    }
                    LockSupport.parkNanos(2_000_000); // the slow worker: ~2 ms per item
                } else {
                    work(random.nextInt(20_000)); // the fast ones: 0-20 us, at random
                    if (othersTook != null) {
                        othersTook.countDown();
                    }
                }
                o.send(x * 10);
            }
        };
    }

    @Test
    void resultsLeaveInInputOrderAndTheSlowWorkerGetsFewItems() {
        int items = 400;
        int workers = 4;
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            for (WaitStrategy ws : STRATEGIES) {
                System.out.println("OrderedOnDemandFarmTest seed=" + seed + " strategy=" + ws);
                AtomicLongArray counts = new AtomicLongArray(workers);
                // Worker 0 holds its first item until the others have taken 320 of the 400 between them,
                // which on demand they get (round-robin would wait on worker 0's full channel): so it
                // gets at most 80, whatever the threads' speeds. (It was only slower, and on a loaded
                // host the fast workers, descheduled, could be as slow: once 71 of 400 at load 5.4.)
                CountDownLatch othersTook = new CountDownLatch(320);
                Runs.Collector<Long> out = new Runs.Collector<>();
                Runs.run(Pipeline.of(Nodes.range(0, items - 1),
                        Farm.<Long, Long>of(workers, () -> worker(seed, counts, othersTook)).dispatch(Dispatch.onDemand())
                                .ordered(),
                        out.sink()), FlowOptions.defaults().waitStrategy(ws));
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < items; i++) {
                    expected.add(i * 10);
                }
                assertEquals(expected, out.get(), "seed " + seed);
                long total = 0;
                for (int w = 0; w < workers; w++) {
                    total += counts.get(w);
                }
                assertEquals(items, total);
                // round-robin would give it exactly items / workers = 100; on demand it gets at most 80
                assertTrue(counts.get(0) < items / workers, "seed " + seed + ": the slow worker got "
                        + counts.get(0) + " of " + items + " items: " + counts);
            }
        }
    }

    @Test
    void workersThatDropAndMultiplyItemsKeepInputOrder() {
        int items = 1_500;
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            System.out.println("OrderedOnDemandFarmTest drop/multiply seed=" + seed);
            Random r = new Random(seed);
            long[] delays = {r.nextInt(50_000), r.nextInt(5_000), r.nextInt(500)};
            Runs.Collector<Long> out = new Runs.Collector<>();
            Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> Pipeline.of(
                    Nodes.<Long>filter(x -> x % 3 != 0),
                    new Node<Long, Long>() {
                        long delay;

                        @Override
                        public void init(NodeContext c) {
                            delay = delays[c.workerIndex()];
                        }

                        @Override
                        public void onItem(Long x, Outbox<Long> o) {
                            work(delay);
                            o.send(x);
                            if (x % 5 == 0) {
                                o.send(-x);
                                o.send(x + 1_000_000);
                            }
                        }
                    })).dispatch(Dispatch.onDemand()).ordered(7);
            Runs.run(Pipeline.of(Nodes.range(0, items - 1), farm, out.sink()));
            List<Long> expected = new ArrayList<>();
            for (long x = 0; x < items; x++) {
                if (x % 3 != 0) {
                    expected.add(x);
                    if (x % 5 == 0) {
                        expected.add(-x);
                        expected.add(x + 1_000_000);
                    }
                }
            }
            assertEquals(expected, out.get(), "seed " + seed);
        }
    }

    /**
     * With a window of W, the emitter never has W items out: when a worker gets item x, the collector
     * has already delivered more than x - W items.
     */
    @Test
    void theWindowBoundsTheItemsBetweenEmitterAndCollector() {
        int items = 300;
        int window = 5;
        for (Dispatch dispatch : List.of(Dispatch.onDemand(), Dispatch.roundRobin())) {
            for (long listed : SEEDS) {
                long seed = TestSeed.mix(listed);
                System.out.println("OrderedOnDemandFarmTest window seed=" + seed + " dispatch=" + dispatch);
                AtomicLong collected = new AtomicLong();
                AtomicLong maxAhead = new AtomicLong(Long.MIN_VALUE);
                AtomicLongArray counts = new AtomicLongArray(3);
                Runs.Collector<Long> out = new Runs.Collector<>();
                Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> new Node<Long, Long>() {
                    Node<Long, Long> inner = worker(seed, counts, null);

                    @Override
                    public void init(NodeContext c) throws Exception {
                        inner.init(c);
                    }

                    @Override
                    public void onItem(Long x, Outbox<Long> o) throws Exception {
                        maxAhead.accumulateAndGet(x - collected.get(), Math::max);
                        inner.onItem(x, o);
                    }
                }).dispatch(dispatch).ordered(window).collector(Nodes.<Long, Long>map(x -> {
                    collected.incrementAndGet();
                    return x;
                }));
                Runs.run(Pipeline.of(Nodes.range(0, items - 1), farm, out.sink()));
                List<Long> expected = new ArrayList<>();
                for (long i = 0; i < items; i++) {
                    expected.add(i * 10);
                }
                assertEquals(expected, out.get(), "seed " + seed);
                assertTrue(maxAhead.get() < window, "seed " + seed + ": a worker got item x when only x - "
                        + maxAhead.get() + " items were collected, window " + window);
                assertTrue(maxAhead.get() >= 1, "the window was never used: " + maxAhead.get());
            }
        }
    }

    @Test
    void workersOnEosResultsComeAfterEveryItem() {
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            System.out.println("OrderedOnDemandFarmTest onEos seed=" + seed);
            Random r = new Random(seed);
            int items = 200 + r.nextInt(200);
            Runs.Collector<Long> out = new Runs.Collector<>();
            Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> new Node<Long, Long>() {
                int index;

                @Override
                public void init(NodeContext c) {
                    index = c.workerIndex();
                }

                @Override
                public void onItem(Long x, Outbox<Long> o) {
                    work(index * 3_000L);
                    o.send(x);
                }

                @Override
                public void onEos(Outbox<Long> o) {
                    o.send(-1L - index);
                    o.send(-100L - index);
                }
            }).dispatch(Dispatch.onDemand()).ordered();
            Runs.run(Pipeline.of(Nodes.range(0, items - 1), farm, out.sink()));
            List<Long> got = out.get();
            assertEquals(Runs.range(0, items - 1), got.subList(0, items), "seed " + seed);
            assertEquals(List.of(-1L, -100L, -2L, -101L, -3L, -102L), got.subList(items, got.size()), "seed " + seed);
        }
    }

    @Test
    void aWindowBelowOneIsRefused() {
        Farm<Long, Long> farm = Farm.of(2, Nodes::identity);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> farm.ordered(0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
    }
}
