package org.bbflow.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.bbflow.core.ChannelSpec;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.NodeStats;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class FlowMetricsTest {

    /** source -> farm of 3 -> sink over 2-slot channels, so that nodes wait on empty and full channels. */
    private static Pipeline<?, ?> job(String name, long items, LongAdder sum) {
        return Pipeline.of(Nodes.range(1, items),
                Farm.of(3, () -> Nodes.map((Long x) -> x * 2)),
                Nodes.sink((Long x) -> sum.add(x))).named(name);
    }

    private static FlowOptions smallChannels() {
        return FlowOptions.defaults().withChannels(ChannelSpec.bounded(2));
    }

    private static double counter(MeterRegistry registry, String meter, String flow, String path) {
        return registry.get(meter).tags("flow", flow, "path", path).functionCounter().count();
    }

    /** Every meter of every node equals the flow's final statistics (the independent oracle). */
    private static void assertMetersEqual(MeterRegistry registry, RunStats stats) {
        assertMetersEqual(registry, stats, true);
    }

    /**
     * As above; with {@code exactBusy} false, busy time may be higher than the final statistics (a
     * reading while the flow ran counted a wait in progress as busy, and counters never go down).
     */
    private static void assertMetersEqual(MeterRegistry registry, RunStats stats, boolean exactBusy) {
        String flow = stats.flowName();
        for (NodeStats n : stats.nodes()) {
            String p = n.path();
            FunctionCounter in = registry.get(FlowMetrics.ITEMS_IN).tags("flow", flow, "path", p, "node", n.name())
                    .functionCounter();
            assertEquals(n.itemsIn(), in.count(), p + " items in");
            assertEquals(n.itemsOut(), counter(registry, FlowMetrics.ITEMS_OUT, flow, p), p + " items out");
            double busy = counter(registry, FlowMetrics.BUSY, flow, p);
            if (exactBusy) {
                assertEquals(n.busyNanos() / 1e9, busy, p + " busy");
            } else {
                assertTrue(busy >= n.busyNanos() / 1e9, p + " busy " + busy + " below the final " + n.busyNanos());
            }
            assertEquals(n.idleNanos() / 1e9, counter(registry, FlowMetrics.IDLE, flow, p), p + " idle");
            assertEquals(n.emptyWaits(), counter(registry, FlowMetrics.EMPTY_WAITS, flow, p), p + " empty waits");
            assertEquals(n.fullWaits(), counter(registry, FlowMetrics.FULL_WAITS, flow, p), p + " full waits");
        }
    }

    @Test
    @Timeout(60)
    void metersEqualTheFlowsStatisticsAfterARun() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LongAdder sum = new LongAdder();
        long items = 20_000;
        Flow flow = Flow.start(job("metered", items, sum), smallChannels());
        new FlowMetrics(flow).bindTo(registry);
        RunStats stats = flow.join();

        assertEquals(items * (items + 1), sum.sum());
        assertEquals(7, stats.nodes().size(), stats.table());   // source, emitter, 3 workers, collector, sink
        assertMetersEqual(registry, stats);
        assertEquals(7 * 6 + 1, registry.getMeters().size(), "6 counters per node and the running gauge");
        assertEquals(items, counter(registry, FlowMetrics.ITEMS_OUT, "metered", "metered/range[0]"));
        assertEquals(items, registry.get(FlowMetrics.ITEMS_IN).tag("node", "sink").functionCounter().count());
        assertTrue(registry.get(FlowMetrics.EMPTY_WAITS).functionCounters().stream().mapToDouble(FunctionCounter::count)
                .sum() + registry.get(FlowMetrics.FULL_WAITS).functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum() > 0, "2-slot channels made some node wait:\n" + stats);
        assertEquals(0, registry.get(FlowMetrics.RUNNING).tags("flow", "metered").gauge().value());
        // the base unit of the times is the second
        assertEquals("seconds", registry.get(FlowMetrics.BUSY).meters().iterator().next().getId().getBaseUnit());
    }

    @Test
    @Timeout(60)
    void liveValuesOnlyGrowAndEndAtTheFinalStatistics() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch gate = new CountDownLatch(1);
        long items = 200_000;
        LongAdder seen = new LongAdder();
        Pipeline<?, ?> p = Pipeline.of(Nodes.range(1, items),
                Nodes.map((Long x) -> x + 1),
                Nodes.sink((Long x) -> {
                    if (seen.sum() == 0) {
                        gate.await();   // held until the test has seen the flow running
                    }
                    seen.increment();
                })).named("live");
        Flow flow = Flow.start(p, smallChannels());
        try {
            new FlowMetrics(flow, Tags.of("run", "1"), 0).bindTo(registry);   // a fresh snapshot per reading
            Meter.Id sinkIn = registry.get(FlowMetrics.ITEMS_IN).tags("node", "sink").functionCounter().getId();
            assertEquals(1, registry.get(FlowMetrics.RUNNING).tags("flow", "live", "run", "1").gauge().value());
            gate.countDown();

            List<Meter> meters = registry.getMeters();
            double[] last = new double[meters.size()];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int readings = 0;
            while (!flow.isDone() && readings < 100_000 && System.nanoTime() < deadline) {
                for (int i = 0; i < meters.size(); i++) {
                    if (meters.get(i) instanceof FunctionCounter c) {
                        double v = c.count();
                        assertTrue(v >= last[i], meters.get(i).getId() + " went down from " + last[i] + " to " + v);
                        last[i] = v;
                    }
                }
                readings++;
            }
            RunStats stats = flow.join(Duration.ofSeconds(30));
            assertNotNull(sinkIn);
            for (NodeStats n : stats.nodes()) {
                assertEquals(n.itemsIn(), counter(registry, FlowMetrics.ITEMS_IN, "live", n.path()));
                assertEquals(n.itemsOut(), counter(registry, FlowMetrics.ITEMS_OUT, "live", n.path()));
                assertEquals(n.idleNanos() / 1e9, counter(registry, FlowMetrics.IDLE, "live", n.path()));
                assertEquals(n.emptyWaits(), counter(registry, FlowMetrics.EMPTY_WAITS, "live", n.path()));
                assertEquals(n.fullWaits(), counter(registry, FlowMetrics.FULL_WAITS, "live", n.path()));
                // busy time may keep a live reading that counted a wait in progress: never lower than final
                assertTrue(counter(registry, FlowMetrics.BUSY, "live", n.path()) >= n.busyNanos() / 1e9, n.path());
            }
            assertEquals(items, counter(registry, FlowMetrics.ITEMS_IN, "live", "live/sink[2]"));
            assertEquals(0, registry.get(FlowMetrics.RUNNING).tags("flow", "live").gauge().value());
        } finally {
            gate.countDown();
            flow.close();
        }
    }

    @Test
    @Timeout(60)
    void closeRemovesTheMetersAndARerunReplacesThem() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SimpleMeterRegistry other = new SimpleMeterRegistry();
        Flow first = Flow.start(job("job", 1_000, new LongAdder()), smallChannels());
        FlowMetrics firstMetrics = new FlowMetrics(first);
        firstMetrics.bindTo(registry);
        firstMetrics.bindTo(other);
        RunStats firstStats = first.join();
        assertMetersEqual(registry, firstStats);
        assertMetersEqual(other, firstStats);

        // the same job run again: its meters replace the first run's, which are no longer read
        Flow second = Flow.start(job("job", 3_000, new LongAdder()), smallChannels());
        FlowMetrics secondMetrics = new FlowMetrics(second);
        secondMetrics.bindTo(registry);
        RunStats secondStats = second.join();
        assertEquals(7 * 6 + 1, registry.getMeters().size());
        assertMetersEqual(registry, secondStats);
        assertEquals(3_000, counter(registry, FlowMetrics.ITEMS_OUT, "job", "job/range[0]"));

        firstMetrics.close();   // only its own meters go: the second run's stay in registry
        assertMetersEqual(registry, secondStats);
        assertTrue(other.getMeters().isEmpty(), "close removed the first run's meters: " + other.getMeters());
        firstMetrics.close();   // idempotent
        secondMetrics.close();
        assertTrue(registry.getMeters().isEmpty(), registry.getMeters().toString());
        assertFalse(secondMetrics.toString().isEmpty());
    }

    /**
     * A close on one thread while another bound the binder to a registry left that binding's meters
     * registered for good: close took the list of bindings after the meters were in but before the
     * binding was recorded. The binding is held there (by the package-private hook) while close runs:
     * it is refused and its meters are gone; a binding after close is refused too.
     */
    @Test
    @Timeout(60)
    void aBindRacingCloseLeavesNoMeters() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Flow flow = Flow.start(job("raced", 100, new LongAdder()), smallChannels());
        flow.join();
        FlowMetrics metrics = new FlowMetrics(flow);
        CountDownLatch registered = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        metrics.beforeRecord = () -> {
            registered.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        java.util.concurrent.CompletableFuture<Void> bind = java.util.concurrent.CompletableFuture.runAsync(
                () -> metrics.bindTo(registry));
        assertTrue(registered.await(30, TimeUnit.SECONDS), "the binding never registered its meters");
        assertFalse(registry.getMeters().isEmpty(), "the binding is held after registering its meters");
        metrics.close();
        closed.countDown();
        java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> bind.get(30, TimeUnit.SECONDS),
                "a binding racing close was accepted");
        assertTrue(e.getCause() instanceof IllegalStateException && e.getCause().getMessage().contains("closed"),
                e.getCause()::toString);
        assertTrue(registry.getMeters().isEmpty(), "meters outlived close: " + registry.getMeters());

        metrics.beforeRecord = () -> { };
        SimpleMeterRegistry later = new SimpleMeterRegistry();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> metrics.bindTo(later));
        assertTrue(later.getMeters().isEmpty(), later.getMeters().toString());
    }

    @Test
    @Timeout(60)
    void theFinalStatisticsAreReadOnceTheFlowEndsEvenWithinTheSnapshotAge() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch gate = new CountDownLatch(1);
        Pipeline<?, ?> p = Pipeline.of(Nodes.range(1, 5_000), Nodes.map((Long x) -> x),
                Nodes.sink((Long x) -> gate.await())).named("cached");
        Flow flow = Flow.start(p, smallChannels());
        try {
            // one snapshot serves the meters for an hour while the flow runs
            new FlowMetrics(flow, Tags.empty(), TimeUnit.HOURS.toNanos(1)).bindTo(registry);
            assertEquals(1, registry.get(FlowMetrics.RUNNING).gauge().value());
            assertTrue(counter(registry, FlowMetrics.ITEMS_IN, "cached", "cached/sink[2]") <= 1);
            gate.countDown();
            RunStats stats = flow.join(Duration.ofSeconds(30));
            assertEquals(5_000, stats.node("sink[2]").itemsIn());
            assertMetersEqual(registry, stats, false);
            assertEquals(0, registry.get(FlowMetrics.RUNNING).gauge().value());
        } finally {
            gate.countDown();
            flow.close();
        }
    }

    @Test
    @Timeout(60)
    void theFinalStatisticsAreTakenWhenTheFlowEndsWithoutAnyReading() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Flow flow = Flow.start(job("unread", 2_000, new LongAdder()), smallChannels());
        FlowMetrics metrics = new FlowMetrics(flow, Tags.empty(), TimeUnit.HOURS.toNanos(1));
        metrics.bindTo(registry);
        RunStats stats = flow.join();
        flow.completion().get(30, TimeUnit.SECONDS);
        // the flow's future completes the binder's dependent and the test's in no set order: wait (bounded)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (metrics.readings().holdsFlow() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertFalse(metrics.readings().holdsFlow(), "the binder still holds the ended flow");
        assertMetersEqual(registry, stats);
        assertEquals(0, registry.get(FlowMetrics.RUNNING).gauge().value());
        metrics.close();
    }

    @Test
    @Timeout(60)
    void aFailedFlowKeepsItsLastStatistics() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Pipeline<?, ?> p = Pipeline.of(Nodes.range(1, 1_000), Nodes.map((Long x) -> {
            if (x == 500) {
                throw new IllegalStateException("boom");
            }
            return x;
        }), Nodes.sink((Long x) -> { })).named("failing");
        Flow flow = Flow.start(p, smallChannels());
        new FlowMetrics(flow).bindTo(registry);
        org.junit.jupiter.api.Assertions.assertThrows(org.bbflow.core.FlowException.class, flow::join);
        RunStats stats = flow.stats();
        assertMetersEqual(registry, stats);
        assertEquals(499, counter(registry, FlowMetrics.ITEMS_OUT, "failing", "failing/map[1]"));
        assertEquals(0, registry.get(FlowMetrics.RUNNING).gauge().value());
    }

    /**
     * A registry that denies the running gauge (a common filter) and a binder the caller does not keep:
     * the counters must still report the run's totals after a full collection, not NaN (function
     * counters hold their object weakly; the gauge was the only strong holder).
     */
    @Test
    @Timeout(60)
    void countersKeepTheirValuesWhenTheGaugeIsDeniedAndTheBinderDropped() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("bbflow.flow"));
        Flow flow = Flow.start(job("unkept", 1_000, new LongAdder()), smallChannels());
        new FlowMetrics(flow).bindTo(registry);   // the binder itself is not kept
        RunStats stats = flow.join();
        flow = null;
        assertTrue(registry.find(FlowMetrics.RUNNING).meters().isEmpty(), "the filter denied the gauge");
        collectGarbage();
        assertMetersEqual(registry, stats);
    }

    /**
     * The same job run again with fewer nodes (a farm of 3, then of 2): binding the second run replaces
     * every meter of the first, including those of the node the second run lacks (which would otherwise
     * stay forever with the first run's totals, or NaN once nothing holds the first run's readings).
     */
    @Test
    @Timeout(60)
    void aRerunWithFewerNodesReplacesEveryMeterOfTheEarlierRun() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Flow first = Flow.start(job("resized", 1_000, new LongAdder()), smallChannels());
        new FlowMetrics(first, Tags.of("app", "a")).bindTo(registry);
        first.join();
        // an unrelated flow's meters with other tags stay
        Flow other = Flow.start(job("resized", 100, new LongAdder()), smallChannels());
        new FlowMetrics(other, Tags.of("app", "b")).bindTo(registry);
        RunStats otherStats = other.join();

        Pipeline<?, ?> narrower = Pipeline.of(Nodes.range(1, 500),
                Farm.of(2, () -> Nodes.map((Long x) -> x * 2)),
                Nodes.sink((Long x) -> { })).named("resized");
        Flow second = Flow.start(narrower, smallChannels());
        FlowMetrics secondMetrics = new FlowMetrics(second, Tags.of("app", "a"));
        secondMetrics.bindTo(registry);
        RunStats secondStats = second.join();
        first = null;
        collectGarbage();

        List<Meter> runA = registry.getMeters().stream().filter(m -> "a".equals(m.getId().getTag("app"))).toList();
        assertEquals(6 * 6 + 1, runA.size(), "only the second run's 6 nodes and its gauge: " + runA);
        assertTrue(registry.find(FlowMetrics.ITEMS_IN).tags("app", "a", "node", "map")
                .functionCounters().stream().noneMatch(c -> c.getId().getTag("path").endsWith("worker-2")),
                "the first run's third worker was left registered");
        for (Meter m : registry.getMeters()) {
            if (m instanceof FunctionCounter c) {
                assertFalse(Double.isNaN(c.count()), m.getId() + " is NaN");
            }
        }
        for (NodeStats n : secondStats.nodes()) {
            assertEquals(n.itemsOut(), registry.get(FlowMetrics.ITEMS_OUT).tags("app", "a", "path", n.path())
                    .functionCounter().count(), n.path());
        }
        assertEquals(7 * 6 + 1, registry.getMeters().size() - runA.size(), "the other flow's meters stay");
        assertEquals(100, registry.get(FlowMetrics.ITEMS_OUT).tags("app", "b", "path", "resized/range[0]")
                .functionCounter().count());
        secondMetrics.close();
        assertEquals(otherStats.nodes().size() * 6 + 1, registry.getMeters().size(), "the other flow's meters");
    }

    /**
     * A tag of the caller named like one of the binder's own (say {@code node=host-1}, a machine's name)
     * was silently overwritten on every node meter, and kept on the gauge only: refused instead.
     */
    @Test
    @Timeout(60)
    void tagsNamedLikeTheBindersOwnAreRefused() {
        Flow flow = Flow.start(job("tagged", 10, new LongAdder()), smallChannels());
        try {
            for (String key : List.of("flow", "path", "node")) {
                IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class, () -> new FlowMetrics(flow, Tags.of("app", "x", key, "host-1")));
                assertTrue(e.getMessage().contains("'" + key + "'"), e.getMessage());
            }
            new FlowMetrics(flow, Tags.of("host", "host-1")).close();   // any other key is fine
        } finally {
            flow.close();
        }
    }

    /** Full collections until a fresh weakly held object is cleared (so are all other weakly held ones). */
    private static void collectGarbage() throws InterruptedException {
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sentinel.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(1);
        }
        assertTrue(sentinel.get() == null, "no collection cleared a weak reference within 20 s");
    }
}
