package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/** {@link RunStats#since}, the table's header and names, and the per-node JFR event. */
@Timeout(60)
class StatsSinceAndEventsTest {

    @Test
    void sinceGivesTheActivityOfAnInterval() throws Exception {
        // the source sends exactly the items the test allows, so snapshots are taken at known counts
        Semaphore permits = new Semaphore(0);
        Runs.Collector<Long> out = new Runs.Collector<>();
        Source<Long> gated = Nodes.source(o -> {
            for (long i = 0; i < 300; i++) {
                permits.acquire();
                o.send(i);
            }
        });
        Flow flow = Flow.start(Pipeline.of(gated, Nodes.<Long>identity(), out.sink()).named("live"));
        try {
            permits.release(100);
            awaitSinkCount(flow, out, 100);
            RunStats first = flow.stats();
            permits.release(50);
            awaitSinkCount(flow, out, 150);
            RunStats second = flow.stats();
            RunStats delta = second.since(first);
            assertEquals(50, delta.node("sink[2]").itemsIn(), delta.table());
            assertEquals(50, delta.node("identity[1]").itemsIn(), delta.table());
            assertEquals(50, delta.node("identity[1]").itemsOut(), delta.table());
            assertEquals(second.elapsed().minus(first.elapsed()), delta.elapsed());
            for (NodeStats n : delta.nodes()) {
                NodeStats a = first.node(n.path());
                NodeStats b = second.node(n.path());
                // a live snapshot counts a wait in progress as busy, so busy time may shrink: clamped at 0
                assertEquals(Math.max(0, b.busyNanos() - a.busyNanos()), n.busyNanos(), n.path());
                assertEquals(Math.max(0, b.idleNanos() - a.idleNanos()), n.idleNanos(), n.path());
                assertEquals(b.emptyWaits() - a.emptyWaits(), n.emptyWaits(), n.path());
                assertEquals(b.fullWaits() - a.fullWaits(), n.fullWaits(), n.path());
            }
            permits.release(150);
            RunStats end = flow.join(Duration.ofSeconds(30));
            assertEquals(150, end.since(second).node("sink[2]").itemsIn());
            assertEquals(300, end.since(second).since(second.since(second)).node("sink[2]").itemsIn() + 150);
            assertThrows(IllegalArgumentException.class, () -> first.since(second)); // later minus earlier only
        } finally {
            flow.close();
        }
        RunStats other = Runs.run(Pipeline.of(Nodes.range(1, 3), Nodes.sink(x -> { })).named("other"));
        assertThrows(IllegalArgumentException.class, () -> other.since(flow.join()));
    }

    private static void awaitSinkCount(Flow flow, Runs.Collector<Long> out, int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (out.get().size() < n || flow.stats().node("sink[2]").itemsIn() < n) {
            assertTrue(System.nanoTime() < deadline, "sink never reached " + n + " items");
            Thread.onSpinWait();
        }
    }

    @Test
    void tableNamesNodesByPathUnderAHeaderWithUnits() {
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 100),
                Farm.of(2, () -> Nodes.<Long>identity()).named("farm"), Nodes.sink(x -> { })).named("job"));
        String table = s.table();
        String[] lines = table.split("\n");
        assertTrue(lines[0].startsWith("flow 'job': " + s.nodes().size() + " nodes, elapsed "), table);
        for (String unit : List.of("node (block path)", "items in", "items out", "busy [ms]", "idle [ms]", "off cpu [ms]", "busy [%]",
                "empty waits", "full waits")) {
            assertTrue(lines[1].contains(unit), table);
        }
        assertTrue(table.contains("\njob/farm[1]/worker-1 "), table);
        assertTrue(table.contains("\njob/farm[1]/emitter "), table);
        assertEquals(2 + s.nodes().size(), lines.length, table);
    }

    @Test
    void everyNodeEndIsAFlightRecorderEventWithItsCounts() throws Exception {
        long seed = TestSeed.current();
        Random rnd = new Random(seed);
        int n = 1 + rnd.nextInt(20_000);
        int workers = 1 + rnd.nextInt(3);
        Path file = Files.createTempFile("bbflow-nodes", ".jfr");
        RunStats stats;
        try (Recording r = new Recording()) {
            r.enable(NodeEndEvent.NAME);
            r.start();
            stats = Runs.run(Pipeline.of(Nodes.range(1, n), Nodes.filter((Long x) -> x % 2 == 0),
                    Farm.of(workers, () -> Nodes.map((Long x) -> x)), Nodes.sink(x -> { })).named("jfr"),
                    FlowOptions.defaults().withChannels(ChannelSpec.bounded(4)));
            r.stop();
            r.dump(file);
        }
        Map<String, RecordedEvent> byPath = new HashMap<>();
        try {
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (e.getEventType().getName().equals(NodeEndEvent.NAME) && "jfr".equals(e.getString("flow"))) {
                    assertEquals(null, byPath.put(e.getString("path"), e), "two events for " + e.getString("path"));
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        String ctx = "seed " + seed + ", n " + n + ", workers " + workers + "\n" + stats.table();
        assertEquals(stats.nodes().size(), byPath.size(), ctx + byPath.keySet());
        for (NodeStats s : stats.nodes()) {
            RecordedEvent e = byPath.get(s.path());
            assertEquals(s.name(), e.getString("node"), ctx);
            assertEquals(s.itemsIn(), e.getLong("itemsIn"), s.path() + " " + ctx);
            assertEquals(s.itemsOut(), e.getLong("itemsOut"), s.path() + " " + ctx);
            assertEquals(s.emptyWaits(), e.getLong("emptyWaits"), s.path() + " " + ctx);
            assertEquals(s.fullWaits(), e.getLong("fullWaits"), s.path() + " " + ctx);
            assertEquals(s.idleNanos(), e.getDuration("idle").toNanos(), s.path() + " " + ctx);
            assertTrue(e.getDuration("busy").toNanos() <= s.busyNanos(), s.path() + " " + ctx);
            assertEquals(s.path(), e.getThread().getJavaName(), ctx);
        }
        assertEquals(n, byPath.get("jfr/range[0]").getLong("itemsOut"), ctx);
        assertEquals(n / 2, byPath.get("jfr/sink[3]").getLong("itemsIn"), ctx);
    }

    @Test
    void noEventWhenTheRecordingDisablesIt() throws Exception {
        Path file = Files.createTempFile("bbflow-nodes", ".jfr");
        try (Recording r = new Recording()) {
            r.disable(NodeEndEvent.NAME);
            r.start();
            Runs.run(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })).named("quiet"));
            r.stop();
            r.dump(file);
            long events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(NodeEndEvent.NAME)).count();
            assertEquals(0, events);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
