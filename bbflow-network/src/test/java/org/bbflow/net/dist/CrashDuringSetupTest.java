package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalJob#kill} of a group still connecting to the groups it links to. The group's thread
 * adds a client for each linked group to its table while the kill ({@code DistributedJob.crash})
 * closes the clients in that table: iterating the plain map while it grew threw a
 * {@link java.util.ConcurrentModificationException} out of {@code kill} (the group's server then
 * not closed and its flow not cancelled: the killed group ran on), and a client added after the kill
 * had looked was later closed gracefully, aborting its streams as a killed process does not. The
 * hooks put the group's new client between the kill's first look and its end, so the race is certain.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrashDuringSetupTest {
    @AfterEach
    void noHooks() {
        DistributedJob.crashClientHook = null;
        DistributedJob.beforeLinkedClientHook = null;
        DistributedJob.afterBindHook = null;
    }

    @Test
    void aKillWhileTheGroupConnectsToALinkedGroupStopsIt() throws Exception {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(20))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        CountDownLatch killing = new CountDownLatch(1);  // the kill is closing w1's clients
        CountDownLatch added = new CountDownLatch(1);    // w1 has added its client to w2
        CountDownLatch hookRan = new CountDownLatch(1);
        DistributedJob.beforeLinkedClientHook = g -> {
            if (Thread.currentThread().getName().equals("bbflow-local-w1") && hookRan.getCount() > 0) {
                hookRan.countDown();
                await(killing);
            }
        };
        DistributedJob.crashClientHook = () -> {
            if (killing.getCount() > 0) {
                killing.countDown();
                await(added);
            }
        };
        try (LocalJob<StageApp.Outcome> local = LocalJob.start(spec, job -> {
            StageApp.Outcome o = StageApp.run(job, 1_000_000, -1);
            return o;
        })) {
            AtomicReference<Throwable> killFailed = new AtomicReference<>();
            Thread killer = new Thread(() -> {
                try {
                    assertTrue(hookRan.await(20, TimeUnit.SECONDS), "w1 never connected to w2");
                    local.kill("w1");
                } catch (Throwable t) {
                    killFailed.set(t);
                }
            }, "killer");
            killer.start();
            // w1's thread: once the kill is in its clients, it adds the client to w2 (the hook returns), then ...
            assertTrue(killing.await(30, TimeUnit.SECONDS), "the kill did not start closing w1's clients");
            // ... let the kill go on once w1 had time to add it: the client is added right after the hook returns
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!w1HasClientTo(local) && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            added.countDown();
            killer.join(30_000);
            assertNull(killFailed.get(), () -> "kill(\"w1\") failed: " + killFailed.get());
            // the killed group ends (its server closed, its flow cancelled) instead of running on
            RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("w1", Duration.ofSeconds(20)));
            assertTrue(!String.valueOf(e.getMessage()).contains("did not end within"), () -> "w1 ran on after the kill: " + e);
        } finally {
            added.countDown();
            killing.countDown();
        }
    }

    /**
     * A kill that comes while the group binds its server: {@code crash()} found no server to close
     * (nor clients, nor a flow), and the group went on: admitted by the master, it ran its whole part
     * and kept its port bound, the kill lost. The hook holds the group between its bind and the moment
     * a crash could see its server until the crash has run.
     */
    @Test
    void aKillWhileTheGroupBindsStopsIt() throws Exception {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(20))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        CountDownLatch bound = new CountDownLatch(1);
        CountDownLatch killed = new CountDownLatch(1);
        DistributedJob.afterBindHook = g -> {
            if (g.equals("w1")) {
                bound.countDown();
                await(killed);
            }
        };
        try (LocalJob<DistApp.Outcome> local = LocalJob.start(spec, job -> DistApp.run(job, 10_000, -1))) {
            try {
                assertTrue(bound.await(20, TimeUnit.SECONDS), "w1 did not bind");
                local.part("w1").crash(); // what kill("w1") does once the group runs
            } finally {
                killed.countDown();
            }
            RuntimeException e = assertThrows(RuntimeException.class, () -> local.result("w1", Duration.ofSeconds(30)),
                    "the group killed while it bound ran its part as if alive");
            assertTrue(String.valueOf(e.getMessage()).contains("killed"), () -> "w1 did not end as killed: " + e);
        } finally {
            killed.countDown();
        }
    }

    private static boolean w1HasClientTo(LocalJob<?> local) {
        return local.part("w1").groupClientCount() >= 2;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
