package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.BitSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Block;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker group whose process keeps beating but whose worker never reads its tasks (hung user code)
 * is noticed by neither the liveness timeout (1 s here) nor the peer timeout (30 s): only by the
 * job's stall timeout ({@link JobSpec#stallTimeout()}, 1 s here, off by default). With it, a farm
 * that fails on a lost worker fails the job naming the group, and one that re-sends a lost worker's
 * tasks fences the stuck group and gives every task's results once; without it, the job waits.
 * Every bound here is far below the peer timeout; the hung worker waits on a latch the test opens
 * at its end (or, in the re-sending farm, once its group was lost).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StallTimeoutTest {
    private static final int ITEM = 16 << 10;
    private static final int ITEMS = 4_000;
    private static final Duration STALL = Duration.ofSeconds(1);
    private static final long BOUND_MS = 10_000;

    private static JobSpec.Builder spec(String... groups) {
        return DistributedJobTest.onSlicePorts(groups).peerTimeout(Duration.ofSeconds(30))
                .livenessTimeout(Duration.ofSeconds(1));
    }

    /** Task i: ITEM bytes starting with i, enough of them to fill a task channel's window. */
    private static Block<Void, byte[]> source() {
        return Nodes.source((Outbox<byte[]> out) -> {
            for (int i = 0; i < ITEMS; i++) {
                out.send(ByteBuffer.allocate(ITEM).putInt(0, i).array());
            }
        });
    }

    /** A worker that, in group {@code stuck}, holds its first task until {@code hold} (at most 40 s); elsewhere an identity. */
    private static Node<byte[], byte[]> worker(DistributedJob job, String stuck, CountDownLatch hold) {
        return new Node<>() {
            @Override
            public void onItem(byte[] item, Outbox<byte[]> out) throws InterruptedException {
                if (job.group().equals(stuck)) {
                    hold.await(40, TimeUnit.SECONDS);
                }
                out.send(item);
            }
        };
    }

    private static LocalJob<Object> failJobFarm(JobSpec spec, CountDownLatch hold) {
        return LocalJob.start(spec, job -> {
            var farm = job.farm("tasks", () -> worker(job, "w1", hold), Codec.bytes(), Codec.bytes(), Placement.of("w1"));
            job.run(Pipeline.of(source(), farm, Nodes.sink((byte[] b) -> { })));
            return null;
        });
    }

    @Test
    void aGroupThatBeatsButNeverReadsFailsTheJobWithTheStallTimeout() {
        CountDownLatch hold = new CountDownLatch(1);
        long t0 = System.nanoTime();
        try (LocalJob<Object> local = failJobFarm(spec("m", "w1").stallTimeout(STALL).build(), hold)) {
            try {
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("m", Duration.ofMillis(BOUND_MS)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String all = LocalJobTest.messages(e);
                assertTrue(all.contains("group 'w1'") && all.contains("no progress for 1000 ms"), all);
                assertTrue(ms < BOUND_MS, () -> "the job failed only after " + ms + " ms: " + all);
            } finally {
                hold.countDown(); // before the close, which would wait for the held worker
            }
        }
    }

    /** The stall watch is off by default: the same job still waits three stall timeouts later. */
    @Test
    void withoutTheStallTimeoutTheJobWaits() {
        CountDownLatch hold = new CountDownLatch(1);
        try (LocalJob<Object> local = failJobFarm(spec("m", "w1").build(), hold)) {
            try {
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> local.result("m", STALL.multipliedBy(3)));
                assertTrue(e.getMessage().contains("did not end within"), e::toString);
            } finally {
                hold.countDown(); // before the close, which would wait for the held worker
            }
        }
    }

    /**
     * Two worker groups, w1 stuck on its first task: the re-sending farm loses w1 by its stall,
     * fences it, and re-sends its tasks to w2. The sink, halfway, waits until w1 is lost and then lets
     * its worker go on, so that whatever w1 still sends meets the fence: every task's result once.
     */
    @Test
    void aResendingFarmFencesAStuckGroupAndGivesEveryResultOnce() {
        CountDownLatch hold = new CountDownLatch(1);
        BitSet seen = new BitSet();
        int[] dup = {0, 0};
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1", "w2").stallTimeout(STALL).build(), job -> {
            var farm = job.farm("tasks", () -> worker(job, "w1", hold), Codec.bytes(), Codec.bytes(),
                    Placement.of("w1", "w2"), WorkerLoss.RESEND_TASKS);
            job.run(Pipeline.of(source(), farm, Nodes.sink((byte[] b) -> {
                int i = ByteBuffer.wrap(b).getInt(0);
                if (seen.get(i)) {
                    dup[0]++;
                }
                seen.set(i);
                if (++dup[1] == ITEMS / 2) {
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (job.lostGroups().isEmpty() && System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                    hold.countDown(); // w1's worker goes on: what it sends now must not count
                }
            })));
            return job.lostGroups();
        })) {
            try {
                Object lost = local.result("m", Duration.ofSeconds(20));
                assertEquals(Set.of("w1"), lost);
                assertEquals(0, dup[0], "duplicate results");
                assertEquals(ITEMS, seen.cardinality(), "results missing");
                // fenced and cut off as a group lost by its silence: its part fails (its reconnects are
                // refused as fenced, and its link to the master is closed), it does not end as if it had
                // done its share
                RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("w1", Duration.ofSeconds(20)));
                String all = LocalJobTest.messages(e);
                assertTrue(all.contains("fenced") || all.contains("lost the master"), all);
            } finally {
                hold.countDown();
            }
        }
    }
}
