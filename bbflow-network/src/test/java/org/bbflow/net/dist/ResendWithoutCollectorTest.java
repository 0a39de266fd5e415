package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Topology;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A farm without a collector ({@code withoutCollector()}, {@code Collect.NONE}) hands worker i's
 * results on through output port i, which a next farm without emitter takes pairwise (worker i to
 * worker i). A farm that re-sends a lost worker's tasks hands every finished task's results on
 * through whichever of its stand-ins runs next, and after a loss through another worker's port
 * anyway, so the two cannot meet: {@code run} refuses the combination in every process, naming it.
 * (Before, the job ran, and results of the tasks the emitter gave worker 0 came out of port 1.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResendWithoutCollectorTest {
    @Test
    void aResendingFarmWithoutCollectorIsRefusedInEveryGroup() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        // the next farm's worker i records the parity of what reaches it: the emitter sends even tasks
        // to one worker of the re-sending farm and odd ones to the other
        List<Set<Long>> parities = List.of(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
        AtomicLong count = new AtomicLong();
        try (LocalJob<Long> local = LocalJob.start(spec,
                job -> runParityJob(job, Placement.of("w1", "w2"), WorkerLoss.RESEND_TASKS, null, parities, count))) {
            for (String g : spec.groups()) {
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result(g, Duration.ofSeconds(20)),
                        () -> g + " ran; the next farm's workers saw parities " + parities);
                String all = LocalJobTest.messages(e);
                assertTrue(all.contains("WorkerLoss.RESEND_TASKS") && all.contains("without a collector"),
                        () -> g + ": " + all);
            }
            assertEquals(0, count.get());
        }
    }

    /** The same farm failing the job on a lost worker keeps port i for worker i: each next worker sees one parity. */
    @Test
    void aFarmWithoutCollectorThatFailsOnALostWorkerKeepsEachWorkersPort() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        List<Set<Long>> parities = List.of(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
        AtomicLong count = new AtomicLong();
        try (LocalJob<Long> local = LocalJob.start(spec,
                job -> runParityJob(job, Placement.of("w1", "w2"), WorkerLoss.FAIL_JOB, null, parities, count))) {
            assertEquals(20_000, local.result("m", Duration.ofSeconds(20)));
            assertEquals(1, parities.get(0).size(), parities::toString);
            assertEquals(1, parities.get(1).size(), parities::toString);
        }
    }

    /**
     * A re-sending farm whose workers all run in the master has no stand-in and re-sends nothing: it
     * keeps its ports, and no process refuses it (a group that runs a stage of the job, and sees the
     * farm's workers as placed in the master, refused it alone, and failed the job).
     */
    @Test
    void aResendingFarmWithoutCollectorWhoseWorkersRunInTheMasterRunsEverywhere() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1").peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        List<Set<Long>> parities = List.of(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
        AtomicLong count = new AtomicLong();
        try (LocalJob<Long> local = LocalJob.start(spec,
                job -> runParityJob(job, Placement.of("m", "m"), WorkerLoss.RESEND_TASKS, "w1", parities, count))) {
            assertEquals(20_000, local.result("m", Duration.ofSeconds(20)));
            local.result("w1", Duration.ofSeconds(20)); // ran, not refused (its count is this JVM's: shared)
            assertEquals(1, parities.get(0).size(), parities::toString);
            assertEquals(1, parities.get(1).size(), parities::toString);
        }
    }

    /**
     * The job of these tests: 20,000 numbers through a farm without collector whose emitter gives even
     * ones to worker 0 and odd ones to worker 1, then a next farm taken pairwise whose worker i records
     * the parities that reach it ({@code parities.get(i)}), then (if {@code stageGroup} is not null) a
     * stage in that group, then a sink counting into {@code count}.
     */
    private static long runParityJob(DistributedJob job, Placement placement, WorkerLoss loss, String stageGroup,
            List<Set<Long>> parities, AtomicLong count) {
        Farm<Long, Long> farm = job.farm("tasks", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                placement, loss).dispatch(Dispatch.byKey((Long x) -> x % 2)).withoutCollector();
        List<Node<Long, Long>> next = List.of(parity(parities.get(0)), parity(parities.get(1)));
        var pipeline = Pipeline.of(Nodes.range(1, 20_000), farm).then(Farm.<Long, Long>of(next).withoutEmitter(),
                Topology.PAIRWISE);
        if (stageGroup != null) {
            pipeline = pipeline.then(job.stage("s", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                    stageGroup));
        }
        job.run(pipeline.then(Nodes.sink((Long x) -> count.incrementAndGet())));
        return count.get();
    }

    private static Node<Long, Long> parity(Set<Long> seen) {
        return new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Long> out) {
                seen.add(x % 2);
                out.send(x);
            }
        };
    }
}
