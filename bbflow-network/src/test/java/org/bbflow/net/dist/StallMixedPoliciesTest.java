package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Block;
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
 * The stall watch ({@link JobSpec#stallTimeout()}) with the two loss policies mixed: a re-sending farm
 * "r" ({@link WorkerLoss#RESEND_TASKS}) on w1 and w2, followed by a failing farm "f"
 * ({@link WorkerLoss#FAIL_JOB}) on w1. Group w1 mixes both policies, w2 runs only re-sending workers.
 * The documented rule (JobSpec.stallTimeout, docs/distributed.md): a stuck group is handled as a lost
 * one, and a lost group is survived (fenced, its unfinished tasks re-sent) only if every worker it runs
 * re-sends. So a stall in r's worker on w2 is survived with every result once; a stall in r's worker on
 * w1 fails the job naming w1 (fencing w1 would take f's only worker with it), and so does a stall in
 * f's worker on w1. A farm that re-sends and loses every remote worker to the watch fails the job
 * naming all its groups (each a real one). And slow but progressing tasks in both farms, with the
 * source idle for several stall timeouts, are not taken for stuck ones.
 *
 * <p>A stuck worker takes its first task and waits on a latch the test opens at its end (or, once the
 * group was fenced, when the job's result is in).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StallMixedPoliciesTest {
    private static final Duration STALL = Duration.ofMillis(500);
    private static final long BOUND_MS = 10_000;
    private static final int TASKS = 2_000;

    private static JobSpec spec() {
        return DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(30))
                .livenessTimeout(Duration.ofSeconds(1)).stallTimeout(STALL).build();
    }

    /** A worker of farm {@code farm} that, in group {@code stuckGroup} of farm {@code stuckFarm}, holds its first task until {@code hold}; else an identity. */
    private static Node<Long, Long> worker(DistributedJob job, String farm, String stuckGroup, String stuckFarm,
                                           CountDownLatch hold) {
        return new Node<>() {
            @Override
            public void onItem(Long item, Outbox<Long> out) throws InterruptedException {
                if (farm.equals(stuckFarm) && job.group().equals(stuckGroup)) {
                    hold.await(40, TimeUnit.SECONDS);
                    return;
                }
                out.send(item);
            }
        };
    }

    /** r (re-sending, w1 and w2) then f (failing, w1); the sink marks each result and counts repeats. */
    private static Pipeline<Void, Void> mixed(DistributedJob job, String stuckGroup, String stuckFarm, CountDownLatch hold,
                                        BitSet seen, int[] repeats) {
        Block<Long, Long> r = job.farm("r", () -> worker(job, "r", stuckGroup, stuckFarm, hold), Codec.longs(),
                Codec.longs(), Placement.of("w1", "w2"), WorkerLoss.RESEND_TASKS);
        Block<Long, Long> f = job.farm("f", () -> worker(job, "f", stuckGroup, stuckFarm, hold), Codec.longs(),
                Codec.longs(), Placement.of("w1"), WorkerLoss.FAIL_JOB);
        Block<Void, Long> source = Nodes.source((Outbox<Long> out) -> {
            for (long i = 0; i < TASKS; i++) {
                out.send(i);
            }
        });
        return Pipeline.of(source, r, f, Nodes.sink((Long x) -> {
            if (seen.get(x.intValue())) {
                repeats[0]++;
            }
            seen.set(x.intValue());
        }));
    }

    /**
     * r's worker on w2 (a group that runs only re-sending workers) stuck: w2 is fenced by the watch,
     * its tasks go to w1, and the job completes with every result once, though w1 runs a failing
     * farm's worker too.
     */
    @Test
    void aStallInTheResendingPartOfAResendOnlyGroupIsSurvived() {
        CountDownLatch hold = new CountDownLatch(1);
        BitSet seen = new BitSet();
        int[] repeats = {0};
        try (LocalJob<Set<String>> local = LocalJob.start(spec(), job -> {
            job.run(mixed(job, "w2", "r", hold, seen, repeats));
            return job.lostGroups();
        })) {
            try {
                Set<String> lost = local.result("m", Duration.ofMillis(BOUND_MS));
                assertEquals(Set.of("w2"), lost);
                assertEquals(0, repeats[0], "repeated results");
                assertEquals(TASKS, seen.cardinality(), "results missing");
            } finally {
                hold.countDown(); // before the close, which would wait for the held worker
            }
        }
    }

    /**
     * A stall in w1, the group that mixes both policies, in either farm's worker: the group cannot be
     * fenced without losing f's only worker, so the job fails within the bound naming w1 (a real group,
     * alone).
     */
    @ParameterizedTest(name = "stuck in {0} on w1")
    @CsvSource({"r", "f"})
    void aStallInAGroupThatMixesPoliciesFailsTheJobNamingIt(String stuckFarm) {
        CountDownLatch hold = new CountDownLatch(1);
        long t0 = System.nanoTime();
        java.util.concurrent.atomic.AtomicReference<DistributedJob> master = new java.util.concurrent.atomic.AtomicReference<>();
        try (LocalJob<Object> local = LocalJob.start(spec(), job -> {
            if (job.isMaster()) {
                master.set(job);
            }
            job.run(mixed(job, "w1", stuckFarm, hold, new BitSet(), new int[1]));
            return job.lostGroups();
        })) {
            try {
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("m", Duration.ofMillis(BOUND_MS)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String all = LocalJobTest.messages(e);
                assertTrue(all.contains("group 'w1' failed") && all.contains("no progress for 500 ms"), all);
                assertTrue(ms < BOUND_MS, () -> "the job failed only after " + ms + " ms: " + all);
                GroupFailedException g = DistributedJobTest.groupFailure(e);
                assertNotNull(g, all);
                assertEquals("w1", g.group(), all);
                assertEquals(List.of("w1"), g.groups(), all);
                // the watch fails the job itself: w1 is not fenced as a re-sending-only group would be
                // (which would lose f's only worker, and re-send r's tasks for nothing)
                assertEquals(Set.of(), master.get().lostGroups(), all);
            } finally {
                hold.countDown();
            }
        }
    }

    /**
     * A re-sending farm whose every remote worker (w1 and w2, none in the master) the watch finds
     * stuck: each group is fenced, and then no worker is left, so the job fails naming both groups as
     * real ones, in placement order (it used to name the joined "w1,w2").
     */
    @Test
    void aResendingFarmThatLosesEveryWorkerToTheWatchNamesEachGroup() {
        CountDownLatch hold = new CountDownLatch(1);
        long t0 = System.nanoTime();
        try (LocalJob<Object> local = LocalJob.start(spec(), job -> {
            Block<Long, Long> r = job.farm("r", () -> new Node<Long, Long>() {
                @Override
                public void onItem(Long item, Outbox<Long> out) throws InterruptedException {
                    hold.await(40, TimeUnit.SECONDS);
                }
            }, Codec.longs(), Codec.longs(), Placement.of("w1", "w2"), WorkerLoss.RESEND_TASKS);
            job.run(Pipeline.of(Nodes.source((Outbox<Long> out) -> {
                for (long i = 0; i < 100; i++) {
                    out.send(i);
                }
            }), r, Nodes.sink((Long x) -> { })));
            return null;
        })) {
            try {
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("m", Duration.ofMillis(BOUND_MS)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String all = LocalJobTest.messages(e);
                assertTrue(all.contains("groups 'w1', 'w2' failed") && all.contains("every remote worker of farm 'r'"), all);
                assertTrue(ms < BOUND_MS, () -> "the job failed only after " + ms + " ms: " + all);
                GroupFailedException g = DistributedJobTest.groupFailure(e);
                assertNotNull(g, all);
                assertEquals("w1", g.group(), all);
                assertEquals(List.of("w1", "w2"), g.groups(), all);
            } finally {
                hold.countDown();
            }
        }
    }

    /**
     * No false alarm: every task of both farms takes a quarter of the stall timeout, f keeps only
     * multiples of 3 (its dropped tasks give marks only), and the source is idle for four stall
     * timeouts between two bursts once r's workers finished the first: the job completes with every
     * result and no group lost.
     */
    @Test
    void slowButProgressingWorkInBothPartsIsNotStuck() {
        int burst = 16;
        CountDownLatch firstBurstDone = new CountDownLatch(burst);
        long slowNanos = STALL.toNanos() / 4;
        long[] sum = {0};
        try (LocalJob<Set<String>> local = LocalJob.start(spec(), job -> {
            Block<Long, Long> r = job.farm("r", () -> Nodes.map((Long x) -> {
                LockSupport.parkNanos(slowNanos);
                if (x < burst) {
                    firstBurstDone.countDown(); // the groups run in this JVM: the source sees it
                }
                return x;
            }), Codec.longs(), Codec.longs(), Placement.of("w1", "w2"), WorkerLoss.RESEND_TASKS);
            Block<Long, Long> f = job.farm("f", () -> Nodes.filter((Long x) -> {
                LockSupport.parkNanos(slowNanos);
                return x % 3 == 0;
            }), Codec.longs(), Codec.longs(), Placement.of("w1"), WorkerLoss.FAIL_JOB);
            Block<Void, Long> source = Nodes.source((Outbox<Long> out) -> {
                for (long i = 0; i < burst; i++) {
                    out.send(i);
                }
                if (!firstBurstDone.await(20, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("r's workers did not take the first burst within 20 s");
                }
                // four stall timeouts without an item, r's tasks all finished, f's finishing or held in
                // the master until the next item (this makes the phase; it decides nothing)
                Thread.sleep(STALL.multipliedBy(4).toMillis());
                for (long i = burst; i < 2 * burst; i++) {
                    out.send(i);
                }
            });
            job.run(Pipeline.of(source, r, f, Nodes.sink((Long x) -> sum[0] += x)));
            return job.lostGroups();
        })) {
            assertEquals(Set.of(), local.result("m", Duration.ofSeconds(30)));
            long expected = 0;
            for (long i = 0; i < 2 * burst; i += 3) {
                expected += i;
            }
            assertEquals(expected, sum[0]);
        }
    }
}
