package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.BitSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJobTest.Child;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lost worker group noticed by its silence, not by the connect or peer timeouts: every job here
 * has a 60 s peer timeout and a 1 s liveness timeout, and each test's deadline (the JUnit timeout and
 * the waits inside) is far below what the peer timeout would take, so a test that passes shows the
 * liveness signal at work, whatever the machine's speed. A group only stopped (SIGSTOP) is declared
 * lost and fenced the same way, and once resumed adds no duplicate; a group restarted after its loss
 * rejoins under a new generation and gets tasks again; and a group killed after its last result and
 * its OK report does not hold the master's verdicts for the peer timeout.
 */
@Timeout(value = 50, unit = TimeUnit.SECONDS)
class LivenessTest {
    private static final Duration PEER = Duration.ofSeconds(60);

    static JobSpec job(Path dir) throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "0123456789abcdef-test-secret\n");
        return DistributedJobTest.onSlicePorts("m", "w1", "w2").secretFile(secret).peerTimeout(PEER)
                .livenessTimeout(Duration.ofSeconds(1)).build();
    }

    /** kill -9 of a worker group: lost within the liveness timeout, its tasks re-sent, exact results. */
    @Test
    void aKilledGroupIsLostByItsSilenceNotThePeerTimeout(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir);
        long n = 100_000;
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                if (count == n / 5) {
                    awaitBeating(master, "w1");
                    w1.kill();
                }
            });
            assertTrue(o.exact(), () -> o + "\n" + w2.output());
            assertEquals(Set.of("w1"), master.lostGroups());
            assertTrue(master.resentTasks() > 0, "nothing re-sent");
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /**
     * SIGSTOP of w1 for three liveness timeouts, then SIGCONT: the master declares it lost and fences
     * it; resumed, w1 finds itself refused (it exits with a failure saying it was fenced), and nothing
     * it still sends counts: every task once.
     */
    @Test
    void aGroupWronglySuspectedIsFencedAndAddsNoDuplicate(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
                "no kill command to send SIGSTOP");
        JobSpec job = job(dir);
        long n = 100_000;
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            AtomicReference<String> resumed = new AtomicReference<>();
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                if (count == n / 5) {
                    awaitBeating(master, "w1");
                    signal("STOP", w1.process.pid());
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (master.lostGroups().isEmpty() && System.nanoTime() < end) {
                        sleep(20); // the sink waits: the loss must come from the silence, not from the run ending
                    }
                    resumed.set(master.lostGroups().toString());
                    signal("CONT", w1.process.pid());
                }
            });
            assertEquals("[w1]", resumed.get(), "w1 was not declared lost while stopped");
            assertTrue(o.exact(), () -> o + "\n" + w1.output() + w2.output());
            assertNotEquals(0, w1.exit(30), w1::output);
            assertTrue(w1.output().contains("fenced"), w1::output);
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /**
     * kill -9 of w1, then a new process of w1 started by hand (as an engine restarts it): admitted as
     * generation 2 while the job runs, it works on tasks again, and every task comes back once. The
     * master's source holds the second part of the tasks back until w1 has rejoined (the task
     * channels' windows would otherwise have taken every task before).
     */
    @Test
    void aRestartedGroupRejoinsUnderANewGenerationAndGetsTasks(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir);
        long n = 40_000;
        AtomicReference<Child> again = new AtomicReference<>();
        AtomicReference<String> stuck = new AtomicReference<>("");
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            // the farm as DistApp declares it (its workers run in w1 and w2 only)
            Farm<Long, Long> farm = master.farm("tasks", () -> Nodes.map((Long x) -> 3 * x + 1), Codec.longs(),
                    Codec.longs(), Placement.spread(2, "w1", "w2"), WorkerLoss.RESEND_TASKS);
            BitSet seen = new BitSet();
            long[] count = new long[1];
            StringBuilder problem = new StringBuilder();
            master.run(Pipeline.of(Nodes.source((Outbox<Long> out) -> {
                for (long x = 1; x <= n; x++) {
                    if (x == n / 4) {
                        awaitBeating(master, "w1");
                        w1.kill();
                        try {
                            again.set(new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS));
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (master.generation("w1") < 2 && System.nanoTime() < end) {
                            sleep(20); // the source waits: the rest of the tasks are for the rejoined group too
                        }
                        if (master.generation("w1") < 2) {
                            stuck.set(threads());
                            signal("QUIT", again.get().process.pid()); // its thread dump, into its output
                            sleep(1000);
                        }
                    }
                    out.send(x);
                }
            }), farm, Nodes.sink((Long y) -> {
                count[0]++;
                long x = (y - 1) / 3;
                if (seen.get((int) x)) {
                    problem.append("task ").append(x).append(" came back twice\n");
                }
                seen.set((int) x);
            })));
            Child w1b = again.get();
            try {
                assertEquals("", problem.toString());
                assertEquals(n, count[0]);
                assertEquals(n, seen.cardinality());
                assertEquals(2, master.generation("w1"), () -> w1b.output() + "\nalive: " + w1b.process.isAlive()
                        + (w1b.process.isAlive() ? "" : ", exit " + w1b.process.exitValue()) + "\nthe new w1's threads:\n" + w1b.threadDump()
                        + "\nthis JVM's threads while it waited:\n" + stuck.get());
                assertEquals(Set.of("w1"), master.lostGroups());
                assertEquals(0, w1b.exit(30), w1b::output);
                long worked = Long.parseLong(w1b.output().lines().filter(l -> l.startsWith("w1| WORKED "))
                        .findFirst().orElse("w1| WORKED -1").substring("w1| WORKED ".length()));
                assertTrue(worked > 0, () -> "the rejoined w1 ran no task\n" + w1b.output());
                assertEquals(0, w2.exit(30), w2::output);
            } finally {
                w1b.close();
            }
        }
    }

    /**
     * Finding 34.6: with FAIL_JOB, w1 killed after its last result and its OK report (the master's
     * sink waits for that report at its end of stream, then kills w1): the job stands, and the
     * master's run returns without waiting for the peer timeout to give up on w1's verdict.
     */
    @Test
    void aGroupKilledAfterItsOkReportDoesNotHoldTheMaster(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir);
        long n = 20_000;
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.FAIL_JOB);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.FAIL_JOB)) {
            DistributedJob master = DistributedJob.of(job, "m");
            long t0 = System.nanoTime();
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.FAIL_JOB, false, c -> { }, () -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!master.reportedOk("w1") && System.nanoTime() < end) {
                    sleep(5);
                }
                assertTrue(master.reportedOk("w1"), w1::output);
                w1.kill();
            });
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(o.exact(), o::toString);
            assertTrue(ms < 30_000, () -> "the master took " + ms + " ms: it waited for a dead group's verdict");
            assertFalse(w1.process.isAlive());
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /**
     * Waits until {@code group} has shown a sign of life: a group killed or stopped before its first
     * beat is a slow start, which the job waits for with the (60 s) first-connect timeout, and a new
     * process started meanwhile is simply generation 1.
     */
    static void awaitBeating(DistributedJob master, String group) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!master.beating(group) && System.nanoTime() < end) {
            sleep(5);
        }
        assertTrue(master.beating(group), group + " never showed a sign of life");
    }

    /** This JVM's threads, for a failure message. */
    static String threads() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            if (t.getName().startsWith("bbflow") || t.getName().startsWith("pipeline")) {
                b.append(t.getName()).append(' ').append(t.getState()).append('\n');
                for (int i = 0; i < Math.min(12, st.length); i++) {
                    b.append("    at ").append(st[i]).append('\n');
                }
            }
        });
        return b.toString();
    }

    private static void signal(String signal, long pid) {
        try {
            Process p = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).redirectErrorStream(true).start();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "kill -" + signal + " failed");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
