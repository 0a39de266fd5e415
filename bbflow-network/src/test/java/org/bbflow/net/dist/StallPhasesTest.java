package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stall watch ({@link JobSpec#stallTimeout()}) in each phase in which the master has tasks
 * outstanding on a remote worker that took them and never answers (its node waits on a latch the
 * test opens at its end): the master's stand-in is blocked in a send (the window full: FLOOD), is
 * between two items with tasks in the group's window (the source paused: PAUSED), or waits for the
 * end of the results (the source ended: ENDED); for a farm's worker, an ordered farm's worker (one
 * task in flight, awaited per item), a pipeline stage, and a linked run of two stages (the second
 * one hung). Before the end-of-task marks for the watch, PAUSED escaped for the farm's worker and
 * the stage (no marks: the master could not tell tasks outstanding from tasks done between items),
 * and every linked case escaped (linked stand-ins were not watched). A stuck linked run's failure
 * names real groups: {@code group()} is the run's first group and {@code groups()} lists the run's
 * groups in order (it used to be the joined name {@code w1+w2}, which no group has).
 *
 * <p>And no false alarm: a worker that is slow but finishes a task well within the timeout, whose
 * tasks give no result at all, and a linked run, with the source idle for several timeouts between
 * two bursts, complete with every result.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StallPhasesTest {
    private static final Duration STALL = Duration.ofMillis(500);
    private static final long BOUND_MS = 10_000;
    private static final int ITEM = 16 << 10;
    /** Enough ITEM-sized tasks to fill every window on the way. */
    private static final int FLOOD = 4_000;

    private static JobSpec spec(String... groups) {
        return DistributedJobTest.onSlicePorts(groups).peerTimeout(Duration.ofSeconds(30))
                .livenessTimeout(Duration.ofSeconds(1)).stallTimeout(STALL).build();
    }

    /** A node that, in group {@code stuck}, takes its first task and never answers (until {@code hold}); elsewhere an identity. */
    private static Node<byte[], byte[]> hangingIn(DistributedJob job, String stuck, CountDownLatch hold) {
        return new Node<>() {
            @Override
            public void onItem(byte[] item, Outbox<byte[]> out) throws InterruptedException {
                if (job.group().equals(stuck)) {
                    hold.await(40, TimeUnit.SECONDS);
                    return;
                }
                out.send(item);
            }
        };
    }

    /** FLOOD: enough tasks to fill the windows; PAUSED: two, then it waits for {@code hold}; ENDED: two. */
    private static Block<Void, byte[]> source(String mode, CountDownLatch hold) {
        return Nodes.source((Outbox<byte[]> out) -> {
            int n = mode.equals("FLOOD") ? FLOOD : 2;
            for (int i = 0; i < n; i++) {
                out.send(ByteBuffer.allocate(mode.equals("FLOOD") ? ITEM : 64).putInt(0, i).array());
            }
            if (mode.equals("PAUSED")) {
                hold.await(40, TimeUnit.SECONDS);
            }
        });
    }

    private static Block<byte[], byte[]> shape(DistributedJob job, String shape, CountDownLatch hold) {
        return switch (shape) {
            case "FARM" -> job.farm("tasks", () -> hangingIn(job, "w1", hold), Codec.bytes(), Codec.bytes(),
                    Placement.of("w1"));
            case "ORDERED_FARM" -> job.farm("tasks", () -> hangingIn(job, "w1", hold), Codec.bytes(), Codec.bytes(),
                    Placement.of("w1")).ordered();
            case "STAGE" -> job.stage("s", () -> hangingIn(job, "w1", hold), Codec.bytes(), Codec.bytes(), "w1");
            case "LINKED" -> Pipeline.of(
                    job.stage("a", () -> hangingIn(job, "none", hold), Codec.bytes(), Codec.bytes(), "w1"),
                    job.stage("b", () -> hangingIn(job, "w2", hold), Codec.bytes(), Codec.bytes(), "w2"));
            default -> throw new IllegalArgumentException(shape);
        };
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "FARM, FLOOD, w1", "FARM, PAUSED, w1", "FARM, ENDED, w1",
        "ORDERED_FARM, FLOOD, w1", "ORDERED_FARM, PAUSED, w1", "ORDERED_FARM, ENDED, w1",
        "STAGE, FLOOD, w1", "STAGE, PAUSED, w1", "STAGE, ENDED, w1",
        "LINKED, FLOOD, w1 w2", "LINKED, PAUSED, w1 w2", "LINKED, ENDED, w1 w2",
    })
    void aWorkerThatTookTasksAndNeverAnswersFailsTheJob(String shape, String mode, String blamed) {
        List<String> groups = List.of(blamed.split(" "));
        CountDownLatch hold = new CountDownLatch(1);
        long t0 = System.nanoTime();
        try (LocalJob<Object> local = LocalJob.start(shape.equals("LINKED") ? spec("m", "w1", "w2") : spec("m", "w1"), job -> {
            job.run(Pipeline.of(source(mode, hold), shape(job, shape, hold), Nodes.sink((byte[] b) -> { })));
            return null;
        })) {
            try {
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("m", Duration.ofMillis(BOUND_MS)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String all = LocalJobTest.messages(e);
                String named = (groups.size() == 1 ? "group " : "groups ")
                        + String.join(", ", groups.stream().map(g -> "'" + g + "'").toList()) + " failed";
                assertTrue(all.contains(named) && all.contains("no progress for 500 ms"), all);
                // every name is a real group: the run's first (the one the master sent to), then all in run order
                GroupFailedException g = DistributedJobTest.groupFailure(e);
                assertNotNull(g, all);
                assertEquals(groups.get(0), g.group(), all);
                assertEquals(groups, g.groups(), all);
                assertTrue(ms < BOUND_MS, () -> "the job failed only after " + ms + " ms: " + all);
            } finally {
                hold.countDown(); // before the close, which would wait for the held worker
            }
        }
    }

    /**
     * Slow but progressing, results-free tasks, a linked run, and the source idle for four stall
     * timeouts between two bursts (every task of the first burst finished: nothing outstanding):
     * the job completes with every result. The farm's worker keeps only multiples of 6 (a result
     * every 1.5 stall timeouts, a task finished every quarter), the linked run's first stage only
     * multiples of 4 of those (its dropped items come back as marks only, passed on by the second
     * stage's group). A watch that took "tasks sent, results not all back" for outstanding would fail
     * during the pause (the farm's stand-in sent 24 tasks and got 4 results); one that did not count
     * end-of-task marks as progress would fail while the farm's worker works through the tasks that
     * give no result.
     */
    @Test
    void slowFilteringAndIdleWorkersAreNotStuck() {
        int burst = 24;
        CountDownLatch firstBurstDone = new CountDownLatch(burst);
        long[] sum = {0};
        long slowNanos = STALL.toNanos() / 4;
        try (LocalJob<Long> local = LocalJob.start(spec("m", "w1", "w2"), job -> {
            Farm<Long, Long> evens = job.farm("evens", () -> Nodes.filter((Long x) -> {
                LockSupport.parkNanos(slowNanos); // slow: a task takes a quarter of the stall timeout
                firstBurstDone.countDown();
                return x % 6 == 0;
            }), Codec.longs(), Codec.longs(), Placement.of("w1"));
            Block<Long, Long> a = job.stage("a", () -> Nodes.filter((Long x) -> x % 4 == 0), Codec.longs(),
                    Codec.longs(), "w1");
            Block<Long, Long> b = job.stage("b", () -> Nodes.map((Long x) -> {
                LockSupport.parkNanos(slowNanos);
                return x;
            }), Codec.longs(), Codec.longs(), "w2");
            Block<Void, Long> source = Nodes.source((Outbox<Long> out) -> {
                for (long i = 0; i < burst; i++) {
                    out.send(i);
                }
                if (!firstBurstDone.await(20, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the farm's worker did not take the first burst within 20 s");
                }
                // four stall timeouts without an item, every task sent finished (this makes the phase;
                // it decides nothing). A stand-in hands results on only when it runs (at its next item
                // or at the end), so the linked run gets the first burst's results with the second.
                Thread.sleep(STALL.multipliedBy(4).toMillis());
                for (long i = burst; i < 2 * burst; i++) {
                    out.send(i);
                }
            });
            job.run(Pipeline.of(source, evens, a, b, Nodes.sink((Long x) -> sum[0] += x)));
            return sum[0];
        })) {
            long expected = 0;
            for (long i = 0; i < 2 * burst; i += 12) {
                expected += i;
            }
            assertEquals(expected, local.result("m", Duration.ofSeconds(30)));
        }
    }

    /**
     * The marks the watch adds leave what a job computes alone: with the watch on, linked stages
     * (StageApp), blocks of other groups in feedback loops (LoopApp, whose items are marked already),
     * and all-to-all members in other groups (AllToAllApp, routed) give their exact results.
     */
    @Test
    void withTheWatchOnLinkedStagesLoopsAndAllToAllsStayExact() {
        long n = 20_000;
        try (LocalJob<StageApp.Outcome> local = LocalJob.start(spec("m", "w1", "w2"), job -> StageApp.run(job, n, -1))) {
            StageApp.Outcome o = local.result("m", Duration.ofSeconds(60));
            assertTrue(o.exact(n), o::toString);
        }
        for (LoopApp.Shape shape : LoopApp.Shape.values()) {
            long items = 2_000;
            try (LocalJob<LoopApp.Outcome> local = LocalJob.start(spec("m", "w1", "w2"), job -> LoopApp.run(job, items, shape))) {
                LoopApp.Outcome o = local.result("m", Duration.ofSeconds(60));
                assertTrue(o.exact(items, shape), () -> shape + ": " + o);
            }
        }
        for (AllToAllApp.Remote remote : AllToAllApp.Remote.values()) {
            try (LocalJob<AllToAllApp.Outcome> local = LocalJob.start(spec("m", "w1", "w2"), job -> AllToAllApp.run(job, n, remote))) {
                AllToAllApp.Outcome o = local.result("m", Duration.ofSeconds(60));
                assertTrue(o.exact(n), () -> remote + ": " + o);
            }
        }
    }

    /**
     * With the watch on, every block of another group must be a node (the end of its onItem marks
     * where a task's results end): the group that runs a composite worker refuses it by name.
     */
    @Test
    void aCompositeWorkerOfAnotherGroupIsRefusedWithTheWatchOn() {
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1"), job -> {
            var farm = job.farm("tasks", () -> Pipeline.of(Nodes.map((Long x) -> x), Nodes.map((Long x) -> x)),
                    Codec.longs(), Codec.longs(), Placement.of("w1"));
            job.run(Pipeline.of(Nodes.source((Outbox<Long> out) -> out.send(1L)), farm, Nodes.sink((Long x) -> { })));
            return null;
        })) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("w1", Duration.ofSeconds(20)));
            String all = LocalJobTest.messages(e);
            assertTrue(all.contains("tasks/worker-0") && all.contains("with a stall timeout")
                    && all.contains("must be a node"), all);
        }
    }
}
