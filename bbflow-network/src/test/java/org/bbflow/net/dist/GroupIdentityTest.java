package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may join a running job: a second process of a group that already runs is refused (it cannot
 * listen on the group's address), and the job goes on with the first, exactly; a group process of
 * another job (another identity and secret) on a group's address is never admitted into the job.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupIdentityTest {
    @Test
    void aSecondProcessOfARunningGroupIsRefusedAndTheJobGoesOnWithTheFirst() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        long n = 20_000;
        AtomicReference<CompletableFuture<Object>> second = new AtomicReference<>();
        try (LocalJob<DistApp.Outcome> local = LocalJob.start(spec, (DistributedJob job, LocalJob<DistApp.Outcome> running)
                -> DistApp.run(job, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                    if (count == n / 4 && job.isMaster()) {
                        // the same group started again while it runs: its part must not be admitted as a copy
                        second.set(CompletableFuture.supplyAsync(() -> DistApp.run(DistributedJob.of(spec, "w1"), n, -1,
                                WorkerLoss.RESEND_TASKS, c -> { })));
                        try {
                            second.get().handle((r, e) -> null).get(10, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            throw new IllegalStateException("the second w1 neither ran nor failed within 10 s", e);
                        }
                    }
                }))) {
            DistApp.Outcome o = local.result("m", Duration.ofSeconds(20));
            assertTrue(o.exact(), o::toString);
            Throwable refused = assertThrows(Exception.class, () -> second.get().get(1, TimeUnit.SECONDS));
            assertTrue(LocalJobTest.messages(refused).toLowerCase().contains("address already in use"),
                    () -> LocalJobTest.messages(refused));
            assertEquals(1, local.part("m").generation("w1"));
            assertEquals(Set.of(), local.part("m").lostGroups());
            assertEquals(0, local.result("w1", Duration.ofSeconds(20)).count());
        }
    }

    /**
     * A group of a re-sending farm killed and started again at once, before the master has noticed
     * the loss: the new process waits on the group's address while the master's connection to the old
     * one comes back to it (its old streams fail: the receiver restarted); it is admitted only as
     * generation 2, once the first is declared lost and fenced, and every task comes back once.
     */
    @Test
    void aGroupRestartedBeforeItsLossIsNoticedRejoinsOnlyAsTheNextGeneration() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        long n = 40_000;
        AtomicReference<DistributedJob> again = new AtomicReference<>();
        AtomicReference<CompletableFuture<DistApp.Outcome>> second = new AtomicReference<>();
        try (LocalJob<DistApp.Outcome> local = LocalJob.start(spec, (DistributedJob job, LocalJob<DistApp.Outcome> running)
                -> DistApp.run(job, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                    if (count == n / 4 && job.isMaster()) {
                        running.kill("w1");
                        again.set(DistributedJob.of(spec, "w1"));
                        second.set(CompletableFuture.supplyAsync(() -> DistApp.run(again.get(), n, -1,
                                WorkerLoss.RESEND_TASKS, c -> { })));
                        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (job.generation("w1") < 2 && !second.get().isDone() && System.nanoTime() < end) {
                            Thread.onSpinWait(); // the rest of the tasks wait for the new w1, so it gets some
                        }
                    }
                }))) {
            DistApp.Outcome o = local.result("m", Duration.ofSeconds(20));
            assertTrue(o.exact(), o::toString);
            assertEquals(2, local.part("m").generation("w1"), () -> second.get().toString());
            assertEquals(Set.of("w1"), local.part("m").lostGroups());
            assertEquals(2, again.get().generation("w1"));
            assertEquals(0, second.get().join().count());
        }
    }

    @Test
    void aGroupOfAnotherJobOnAGroupsAddressIsNeverAdmitted(@TempDir Path dir) throws Exception {
        Path secretA = Files.writeString(dir.resolve("a.secret"), "secret-of-job-a-0123456789\n");
        Path secretB = Files.writeString(dir.resolve("b.secret"), "secret-of-job-b-0123456789\n");
        JobSpec a = DistributedJobTest.onSlicePorts("m", "w1").secretFile(secretA).peerTimeout(Duration.ofSeconds(2)).build();
        // job B's w1 listens where job A's w1 should (started on the address job A's group left free)
        JobSpec b = JobSpec.builder().group("m", "127.0.0.1", DistributedJobTest.freePort())
                .group("w1", "127.0.0.1", a.port("w1")).secretFile(secretB).peerTimeout(Duration.ofSeconds(2)).build();
        DistributedJob otherW1 = DistributedJob.of(b, "w1");
        CompletableFuture<DistApp.Outcome> other = CompletableFuture.supplyAsync(() -> DistApp.run(otherW1, 100, -1));
        DistributedJob master = DistributedJob.of(a, "m");
        long t0 = System.nanoTime();
        RuntimeException e = assertThrows(RuntimeException.class, () -> DistApp.run(master, 100, -1));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String all = LocalJobTest.messages(e);
        assertTrue(all.contains("is a server of job '" + b.id() + "'"), all);
        assertTrue(ms < 10_000, () -> "the master failed after " + ms + " ms: " + all);
        Throwable o = assertThrows(Exception.class, () -> other.get(20, TimeUnit.SECONDS));
        assertTrue(LocalJobTest.messages(o).contains("did not admit group w1"), () -> LocalJobTest.messages(o));
        assertEquals(0, otherW1.generation("w1"), "the other job's group was admitted");
    }
}
