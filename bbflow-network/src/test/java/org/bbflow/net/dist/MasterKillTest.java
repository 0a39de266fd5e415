package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Local mode's kill of the master group stops the master's flow, as a killed process's would stop:
 * {@code crash()} cancelled only a worker group's flow, so whether a killed master's nodes went on
 * depended on whether its closed server happened to fail them. Here a node of the master's flow waits
 * (for a latch the test never opens) when the master is killed: it must be interrupted, and the
 * master's part must end, within the bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MasterKillTest {
    @Test
    void killingTheMasterStopsItsFlow() throws Exception {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1").peerTimeout(Duration.ofSeconds(30))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        LocalJob<Long> local = LocalJob.start(spec, job -> {
            var farm = job.farm("tasks", () -> Nodes.map((Long x) -> x + 1), Codec.longs(), Codec.longs(),
                    Placement.spread(1, "w1"), WorkerLoss.FAIL_JOB);
            long[] count = new long[1];
            job.run(Pipeline.of(Nodes.range(1, 1_000_000), Nodes.map((Long x) -> {
                if (x == 100) {
                    reached.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
                return x;
            }), farm, Nodes.sink((Long y) -> count[0]++)));
            return count[0];
        });
        try {
            assertTrue(reached.await(30, TimeUnit.SECONDS), "the master's flow never reached its 100th item");
            local.kill("m");
            assertTrue(interrupted.await(20, TimeUnit.SECONDS),
                    "the killed master's flow kept running: its node waiting on a latch was never interrupted");
            try {
                local.result("m", Duration.ofSeconds(20));
            } catch (RuntimeException e) {
                assertFalse(String.valueOf(e.getMessage()).contains("did not end within"), e::toString);
            }
        } finally {
            never.countDown();
            local.close();
        }
    }
}
