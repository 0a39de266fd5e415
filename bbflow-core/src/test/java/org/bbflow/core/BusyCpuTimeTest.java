package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Busy time is CPU time where the JVM can tell: a node that is alive and not waiting on its channels
 * but off the CPU (its thread ready with no core free, or blocked in its own code) is not busy. A
 * node that sleeps stands in for one starved of CPU: both are on no core while the wall clock runs,
 * and a sleep makes that off-CPU time certain instead of depending on the scheduler.
 */
@Timeout(60)
class BusyCpuTimeTest {
    /** Far longer than the CPU a node thread spends around one item, even cold. */
    private static final long OFF_CPU_MS = 400;

    private static void assumeThreadCpuTime() {
        ThreadMXBean b = ManagementFactory.getThreadMXBean();
        assumeTrue(b.isThreadCpuTimeSupported() && b.isCurrentThreadCpuTimeSupported() && b.isThreadCpuTimeEnabled(),
                "this JVM cannot measure thread CPU time: busy time stays wall time");
    }

    private static Node<Long, Long> sleeper(CountDownLatch asleep) {
        return Nodes.map((Long x) -> {
            asleep.countDown();
            Thread.sleep(OFF_CPU_MS);
            return x;
        });
    }

    @Test
    void aNodeOffTheCpuIsNotBusy() {
        assumeThreadCpuTime();
        RunStats stats = Pipeline.of(Nodes.range(1, 1), sleeper(new CountDownLatch(1)),
                Nodes.sink((Long x) -> { })).run();
        NodeStats s = stats.node("map[1]");
        String ctx = stats.table();
        assertTrue(s.busyNanos() < TimeUnit.MILLISECONDS.toNanos(OFF_CPU_MS) / 2,
                "the sleeping node counted its sleep as busy:\n" + ctx);
        assertTrue(s.busyShare() < 0.5, ctx);
        assertTrue(s.busyNanos() + s.offCpuNanos() >= TimeUnit.MILLISECONDS.toNanos(OFF_CPU_MS),
                "alive and not waiting is busy or off CPU, and the node slept that long:\n" + ctx);
    }

    @Test
    void aLiveSnapshotCountsCpuTimeToo() throws Exception {
        assumeThreadCpuTime();
        CountDownLatch asleep = new CountDownLatch(1);
        try (Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 1), sleeper(asleep),
                Nodes.sink((Long x) -> { })))) {
            assertTrue(asleep.await(30, TimeUnit.SECONDS));
            // wait until the snapshot shows most of the sleep as time alive and not waiting
            NodeStats s;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            do {
                s = flow.stats().node("map[1]");
                Thread.onSpinWait();
            } while (s.busyNanos() + s.offCpuNanos() < TimeUnit.MILLISECONDS.toNanos(OFF_CPU_MS / 2)
                    && System.nanoTime() < deadline);
            assertTrue(s.busyNanos() + s.offCpuNanos() >= TimeUnit.MILLISECONDS.toNanos(OFF_CPU_MS / 2), s.toString());
            assertTrue(s.busyNanos() < TimeUnit.MILLISECONDS.toNanos(OFF_CPU_MS) / 4,
                    "a live snapshot counted the sleep as busy: " + s);
            flow.join(Duration.ofSeconds(30));
        }
    }

    @Test
    void busyShareAndIntervalsCountOffCpuTime() {
        NodeStats s = new NodeStats("f/w", "w", 1, 1, 25, 25, 0, 0, 50);
        assertEquals(0.25, s.busyShare());
        assertEquals(0.5, new NodeStats("f/w", "w", 1, 1, 25, 25, 0, 0).busyShare());
        assertEquals(0, new NodeStats("f/w", "w", 0, 0, 0, 0, 0, 0).offCpuNanos());
        RunStats before = new RunStats("f", List.of(new NodeStats("f/w", "w", 1, 1, 10, 20, 0, 0, 30)), Duration.ofMillis(1));
        RunStats after = new RunStats("f", List.of(s), Duration.ofMillis(2));
        assertEquals(20, after.since(before).node("f/w").offCpuNanos());
        assertTrue(after.table().contains("off cpu [ms]"), after.table());
    }
}
