package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * Batches that outlive their flow ({@link BatchPool}): the next flow starts on them; only batches
 * given back after their last read get there, never one a user's node keeps or one still in a
 * channel of a cancelled flow; a way back is taken only once both its ends have closed; the pool
 * stays bounded; and values stay right while flows on two threads share it, fail and cancel. Each
 * test watches a pool of its own ({@link BatchPool#shared} swapped in and out).
 */
@Timeout(120)
class BatchPoolTest {
    private BatchPool saved;

    @BeforeEach
    void ownPool() {
        saved = BatchPool.shared;
        BatchPool.shared = new BatchPool(1024);
    }

    @AfterEach
    void sharedPool() {
        BatchPool.shared = saved;
    }

    /** A last stage of LongNodes' kind: sums, records the batches it saw and gave back, may fail on one. */
    private static final class Probe extends BatchStage<LongBatch, Void> {
        final Set<LongBatch> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        final Set<LongBatch> givenBack = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<LongBatch> order = new ArrayList<>();
        final int failOn;
        /** Called with the number of batches read so far, before each read. */
        java.util.function.IntConsumer before = read -> { };
        long sum;
        volatile boolean closed;

        Probe(int failOn) {
            super("probe", LongBatch.class, null);
            this.failOn = failOn;
        }

        @Override
        public void onItem(LongBatch in, Outbox<Void> out) {
            before.accept(order.size());
            if (order.size() == failOn) {
                throw new IllegalStateException("probe fails on batch " + failOn);
            }
            seen.add(in);
            order.add(in);
            for (int i = 0; i < in.size; i++) {
                sum += in.values[i];
            }
            done(in);
            givenBack.add(in);
        }

        @Override
        public void close() {
            super.close();
            closed = true;
        }
    }

    /** Empties the pool: the batches of longs it held, in no particular order. */
    private static List<LongBatch> drainLongs(BatchPool pool) {
        List<LongBatch> l = new ArrayList<>();
        for (LongBatch b; (b = pool.takeLongs(0)) != null; ) {
            l.add(b);
        }
        return l;
    }

    /**
     * A flow leaves its batches in the pool; the next flow's range takes them before it makes any:
     * every batch it makes before the pool runs dry is one of the last flow's. With no pool it makes
     * new ones only.
     */
    @Test
    void aNewFlowStartsOnTheLastOnesBatches() {
        long n = 200_000;
        FlowOptions options = FlowOptions.defaults().withChannels(ChannelSpec.bounded(16));
        Probe first = new Probe(-1);
        Runs.run(Pipeline.of(LongNodes.range(1, n), first), options);
        int kept = BatchPool.shared.longs();
        assertEquals(first.seen.size(), kept, "every batch of the finished flow is kept");

        Probe second = new Probe(-1);
        Runs.run(Pipeline.of(LongNodes.range(1, n), second), options);
        assertEquals(n * (n + 1) / 2, second.sum);
        assertTrue(first.seen.contains(second.order.get(0)), "the second flow's first batch is a new one");
        long reused = second.seen.stream().filter(first.seen::contains).count();
        assertTrue(reused >= Math.min(kept, second.seen.size()), "the second flow made new batches while "
                + kept + " waited in the pool: " + reused + " of " + second.seen.size() + " were the first's");

        BatchPool.shared = new BatchPool(0);
        Probe third = new Probe(-1);
        Runs.run(Pipeline.of(LongNodes.range(1, n), third), options);
        assertEquals(0, BatchPool.shared.longs());
        assertTrue(third.seen.stream().noneMatch(b -> first.seen.contains(b) || second.seen.contains(b)),
                "with no pool a flow reused an earlier one's batch");
    }

    /**
     * Only what was given back after its last read reaches the pool. A range sends 30 batches to a
     * node of the user's that keeps every one, then to a copying stage, then to a probe. The probe
     * first lets the copier fill their channel of 8, reads 25 batches, then waits until the copier has
     * sent all 30 and fails on the 26th, with four more in the channel: the pool then holds only
     * batches the probe gave back, none the user's node keeps, none left in the channel or the
     * probe's hand.
     */
    @Test
    void onlyBatchesGivenBackAfterTheirLastReadAreKept() {
        for (int rep = 0; rep < 5; rep++) {
            BatchPool.shared = new BatchPool(1024);
            Set<LongBatch> keptByUser = Collections.newSetFromMap(new IdentityHashMap<>());
            Node<LongBatch, LongBatch> keeper = Nodes.map((LongBatch b) -> {
                synchronized (keptByUser) {
                    keptByUser.add(b);
                }
                return b;
            });
            AtomicInteger sent = new AtomicInteger();
            Node<LongBatch, LongBatch> copier = new BatchStage<LongBatch, LongBatch>("copier", LongBatch.class,
                    LongBatch.class) {
                @Override
                public void onItem(LongBatch in, Outbox<LongBatch> out) {
                    LongBatch b = newLongBatch(in.size);
                    System.arraycopy(in.values, 0, b.values, 0, in.size);
                    b.size = in.size;
                    out.send(b);
                    sent.incrementAndGet();
                    done(in);
                }
            };
            Probe probe = new Probe(25);
            probe.before = read -> {
                if (read == 0) {
                    awaitTrue(() -> sent.get() >= 9, "the copier never filled the channel");
                } else if (read == 25) {
                    awaitTrue(() -> sent.get() == 30, "the copier never sent its last batch");
                }
            };
            Pipeline<?, ?> p = Pipeline.of(LongNodes.range(1, 30 * 256), keeper, copier, probe);
            FlowException failed = assertThrows(FlowException.class,
                    () -> Runs.run(p, FlowOptions.defaults().withChannels(ChannelSpec.bounded(8))));
            assertTrue(failed.getCause() instanceof IllegalStateException, failed.toString());
            List<LongBatch> pooled = drainLongs(BatchPool.shared);
            // the copier made D >= 9 batches (8 in the channel, 1 with the probe) and refilled 30 - D;
            // 25 were given back, so 25 - (30 - D) = D - 5 >= 4 wait on the way back at the end
            assertTrue(pooled.size() >= 4, "rep " + rep + ": " + pooled.size() + " kept");
            for (LongBatch b : pooled) {
                assertTrue(probe.givenBack.contains(b), "rep " + rep + ": a batch never given back is in the pool");
                synchronized (keptByUser) {
                    assertFalse(keptByUser.contains(b), "rep " + rep + ": a batch the user's node keeps is in the pool");
                }
            }
        }
    }

    /** Spins (a bounded time) until {@code condition} holds; an interrupt (the flow's cancel) does not stop it. */
    private static void awaitTrue(java.util.function.BooleanSupplier condition, String otherwise) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(otherwise);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The probe fails and closes while the range still runs: the pool must not take their way back
     * yet (the range may still take from it). The range waits until the probe has closed, looks at
     * the pool, and only then ends; after that the probe's batches are there.
     */
    @Test
    void aWayBackIsKeptOnlyOnceBothEndsHaveClosed() {
        Probe probe = new Probe(3);
        AtomicInteger sent = new AtomicInteger();
        // the range makes its 5 batches before the probe gives any back, so that it reuses none
        probe.before = read -> awaitTrue(() -> sent.get() == 5, "the range never sent its 5 batches");
        AtomicReference<String> seenByRange = new AtomicReference<>("range never looked");
        Source<LongBatch> range = new BatchSource<>("slowRange", LongBatch.class) {
            @Override
            public void generate(Outbox<LongBatch> out) {
                for (int i = 0; i < 5; i++) {
                    LongBatch b = newLongBatch(4);
                    b.values[0] = i;
                    b.size = 1;
                    out.send(b);
                    sent.incrementAndGet();
                }
                // not a wait an interrupt ends: the probe's failure cancels the flow
                awaitTrue(() -> probe.closed, "the probe never closed");
                seenByRange.set("pool " + BatchPool.shared.longs());
            }
        };
        assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(range, probe), FlowOptions.defaults().withChannels(ChannelSpec.bounded(8))));
        assertEquals("pool 0", seenByRange.get(), "the pool took a way back whose producer still ran");
        List<LongBatch> pooled = drainLongs(BatchPool.shared);
        assertEquals(3, pooled.size(), "the batches given back were not kept once both ends closed");
        assertTrue(probe.givenBack.containsAll(pooled));
    }

    /**
     * A stage that found the pool empty does not look there again in the same flow (a poll of a shared
     * queue per batch for nothing), and looks again in its next one.
     */
    @Test
    void aStageThatFoundThePoolEmptyStopsLookingUntilItsNextFlow() {
        BatchStage<?, ?> map = (BatchStage<?, ?>) LongNodes.map(x -> x);
        map.takeFrom = new BatchReturns(4, BatchPool.shared);
        LongBatch made = map.newLongBatch(8);
        assertEquals(256, made.values.length, "a new batch has room for the stage's batch size");
        LongBatch pooled = new LongBatch(256);
        BatchReturns finished = new BatchReturns(4, BatchPool.shared);
        finished.give(pooled);
        finished.close();
        finished.close();
        assertEquals(1, BatchPool.shared.longs());
        assertFalse(map.newLongBatch(8) == pooled, "the stage looked in the pool again after finding it empty");
        assertEquals(1, BatchPool.shared.longs());

        BatchStage.forget(List.of(map)); // what the next start does first
        map.takeFrom = new BatchReturns(4, BatchPool.shared); // as recycle() wires it for the next flow
        assertSame(pooled, map.newLongBatch(8), "the next flow did not look in the pool");
        assertEquals(0, BatchPool.shared.longs());
    }

    /** The system property's values: a whole number of batches from 0 to 65,536, else a clear error. */
    @Test
    void theCapacityComesFromTheSystemProperty() {
        assertEquals(BatchPool.DEFAULT_CAPACITY, BatchPool.capacityFrom(null));
        assertEquals(0, BatchPool.capacityFrom("0"));
        assertEquals(100, BatchPool.capacityFrom(" 100 "));
        assertEquals(65_536, BatchPool.capacityFrom("65536"));
        for (String bad : List.of("-1", "65537", "lots", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchPool.capacityFrom(bad));
            assertTrue(e.getMessage().contains(BatchPool.PROPERTY) && e.getMessage().contains("'" + bad + "'"),
                    e.getMessage());
        }
    }

    /**
     * A bad {@code -Dbbflow.batchPool} stops the first flow that recycles at its start, in the
     * caller's thread, with the property's name and value, and every start after it: in a child JVM,
     * since the property is read once.
     */
    @Test
    void aBadPoolSizeStopsTheStartWithThePropertysName() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-Xmx64m", "-Dbbflow.batchPool=lots", "-cp",
                System.getProperty("java.class.path"), BadPoolChild.class.getName()).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child did not end");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("first start refused") && out.contains("bbflow.batchPool") && out.contains("'lots'"), out);
        assertTrue(out.contains("second start refused"), out);
    }

    /** The child of {@link #aBadPoolSizeStopsTheStartWithThePropertysName}: two starts, each must be refused. */
    static final class BadPoolChild {
        public static void main(String[] args) {
            for (String which : List.of("first", "second")) {
                Flow flow;
                try {
                    flow = Flow.start(Pipeline.of(LongNodes.range(1, 1000), LongNodes.sink(x -> { })));
                } catch (Throwable t) {
                    System.out.println(which + " start refused:" + causes(t));
                    continue;
                }
                try {
                    flow.join();
                    System.out.println(which + " flow ran");
                } catch (Throwable t) {
                    System.out.println(which + " flow failed (not its start):" + causes(t));
                }
            }
        }

        private static String causes(Throwable t) {
            StringBuilder sb = new StringBuilder();
            for (Throwable c = t; c != null; c = c.getCause()) {
                sb.append(' ').append(c);
            }
            return sb.toString();
        }
    }

    /**
     * At most its capacity of each kind (rounded up to a power of two), no batch over
     * {@link BatchPool#MAX_VALUES} values, none too small for what is asked; none at all at 0.
     */
    @Test
    void thePoolStaysBounded() {
        BatchPool pool = new BatchPool(6);
        assertEquals(8, pool.capacity());
        BatchReturns back = new BatchReturns(64, pool);
        LongBatch big = new LongBatch(BatchPool.MAX_VALUES + 1);
        back.give(big);
        DoubleBatch bigDoubles = new DoubleBatch(BatchPool.MAX_VALUES + 1);
        back.give(bigDoubles);
        for (int i = 0; i < 20; i++) {
            back.give(new LongBatch(BatchPool.MAX_VALUES));
            back.give(new DoubleBatch(16));
        }
        back.close();
        assertEquals(0, pool.longs(), "taken with one end still open");
        back.close();
        assertEquals(8, pool.longs());
        assertEquals(8, pool.doubles());
        List<LongBatch> longs = drainLongs(pool);
        assertFalse(longs.contains(big), "a batch over the bound was kept");
        for (int i = 0; i < 8; i++) {
            DoubleBatch d = pool.takeDoubles(i < 4 ? 16 : 17);
            if (i < 4) {
                assertTrue(d != null && d.values.length == 16);
            } else {
                assertNull(d, "a batch too small for 17 values was handed out");
            }
        }
        assertEquals(0, pool.doubles(), "a batch too small is dropped, not put back");

        BatchPool none = new BatchPool(0);
        BatchReturns more = new BatchReturns(4, none);
        more.give(new LongBatch(8));
        more.close();
        more.close();
        assertEquals(0, none.capacity());
        assertNull(none.takeLongs(1));
        assertNull(none.takeDoubles(1));
    }

    /**
     * Two threads run flows side by side on one small pool, so batches go from one flow to another
     * and the pool overflows; a quarter of the flows fail part-way. Every flow that ends must give its
     * model's sum: a batch kept or handed out twice would be refilled under a reader.
     */
    @Test
    void valuesStayRightWhileFlowsOnTwoThreadsShareThePool() throws Exception {
        long seed = TestSeed.current();
        System.out.println("BatchPoolTest.valuesStayRightWhileFlowsOnTwoThreadsShareThePool seed " + seed);
        BatchPool.shared = new BatchPool(16);
        AtomicReference<Throwable> wrong = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Random r = new Random(seed + t);
            int me = t;
            threads.add(new Thread(() -> {
                try {
                    for (int rep = 0; rep < 30 && wrong.get() == null; rep++) {
                        runOne(r, "seed " + seed + " thread " + me + " rep " + rep);
                    }
                } catch (Throwable e) {
                    wrong.compareAndSet(null, e);
                }
            }, "pool-user-" + t));
        }
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join(100_000);
            assertFalse(th.isAlive(), th.getName() + " still runs");
        }
        if (wrong.get() != null) {
            throw new AssertionError(wrong.get());
        }
    }

    private static void runOne(Random r, String where) {
        long n = 1 + r.nextInt(100_000);
        int batch = 1 + r.nextInt(600);
        long mod = 2 + r.nextInt(5);
        long failAt = r.nextInt(4) == 0 ? 1 + r.nextInt((int) n) : -1;
        FlowOptions options = FlowOptions.defaults().withChannels(ChannelSpec.bounded(1 + r.nextInt(8)));
        long[] sum = {0};
        Node<LongBatch, Void> sink = LongNodes.sink(x -> {
            if (x == failAt) {
                throw new IllegalStateException("fails at " + x);
            }
            sum[0] += x;
        });
        long expected;
        Pipeline<?, ?> p;
        if (r.nextBoolean()) {
            p = Pipeline.of(LongNodes.range(1, n, batch), LongNodes.map(x -> 3 * x), LongNodes.filter(x -> x % mod != 0),
                    LongNodes.flatMap((out, x) -> {
                        out.sendLong(x);
                        out.sendLong(x + 1);
                    }), sink);
            expected = LongStream.rangeClosed(1, n).map(x -> 3 * x).filter(x -> x % mod != 0).map(x -> 2 * x + 1).sum();
        } else {
            p = Pipeline.of(LongNodes.range(1, n, batch), DoubleNodes.fromLongs(x -> x), DoubleNodes.map(x -> 2 * x),
                    DoubleNodes.toLongs(x -> (long) x), LongNodes.map(x -> x / 2), sink);
            expected = n * (n + 1) / 2;
        }
        try {
            Runs.run(p, options);
        } catch (FlowException e) {
            assertTrue(failAt > 0 && e.getCause() instanceof IllegalStateException, where + ": " + e);
            return;
        }
        // it ended: no value was failAt, so the sum is the model's
        assertEquals(expected, sum[0], where + ": n " + n + ", batch " + batch + ", mod " + mod);
    }
}
