package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Collect;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowException;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Nodes;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.bbflow.testing.TestSeed;

/**
 * A farm whose 6 workers span 3 groups: the master group runs in this test JVM, the two others in
 * child JVMs running the same program ({@link DistApp}) with another {@code bbflow.group}, all on
 * loopback (local processes, not network namespaces).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistributedJobTest {

    /** A child JVM running {@link DistApp} as {@code group}; output kept for failure messages. */
    static final class Child implements AutoCloseable {
        final Process process;
        final StringBuilder output = new StringBuilder();

        Child(JobSpec job, String group, long n, long failFrom) throws Exception {
            this(job, group, n, failFrom, WorkerLoss.FAIL_JOB);
        }

        Child(JobSpec job, String group, long n, long failFrom, WorkerLoss onLoss) throws Exception {
            this(job, group, DistApp.class, String.valueOf(n), String.valueOf(failFrom), onLoss.name());
        }

        /** A child JVM running {@code main} as {@code group} with {@code args}. */
        Child(JobSpec job, String group, Class<?> main, String... args) throws Exception {
            this(job, group, List.of(), main, args);
        }

        /** A child JVM with extra {@code jvmOptions} running {@code main} as {@code group} with {@code args}. */
        Child(JobSpec job, String group, List<String> jvmOptions, Class<?> main, String... args) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), "-D" + DistributedJob.JOB_PROPERTY + "=" + job.toText(),
                    "-D" + DistributedJob.GROUP_PROPERTY + "=" + group));
            command.addAll(jvmOptions);
            command.add(main.getName());
            command.addAll(List.of(args));
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (output) {
                            output.append(group).append("| ").append(line).append('\n');
                        }
                    }
                } catch (Exception ignored) {
                    // process gone
                }
            }, "child-" + group);
            reader.setDaemon(true);
            reader.start();
        }

        int exit(long seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                fail("child did not exit:\n" + output() + "\nits threads:\n" + threadDump());
            }
            return process.exitValue();
        }

        /** The child's threads (jstack of the running JDK), to tell where a child that does not exit waits. */
        String threadDump() {
            try {
                Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jstack").toString(),
                        String.valueOf(process.pid())).redirectErrorStream(true).start();
                String dump = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                p.waitFor(20, TimeUnit.SECONDS);
                return dump;
            } catch (Exception e) {
                return "(no thread dump: " + e + ")";
            }
        }

        /** SIGKILL (no shutdown hook, no goodbye on any socket); returns once the process is gone. */
        void kill() {
            process.destroyForcibly();
            try {
                assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the child did not die");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String output() {
            synchronized (output) {
                return output.toString();
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** The first {@link GroupFailedException} in the cause chain, or null. */
    static GroupFailedException groupFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof GroupFailedException) {
                return (GroupFailedException) t;
            }
        }
        return null;
    }

    static int freePort() {
        return org.bbflow.testing.FreePorts.next();      // never the same port twice in one JVM
    }

    /**
     * As {@link LocalJob#spec}, each group on a port of this test JVM's own slice ({@code FreePorts}):
     * the module's tests run in two JVMs at once, and a port the kernel picks from its ephemeral range
     * could be taken by the other JVM's outgoing connection before the job binds it.
     * ({@code LocalJobPortTest} and the docs' snippet test {@code LocalJob.spec} itself.)
     */
    static JobSpec.Builder onSlicePorts(String... groups) {
        JobSpec.Builder b = JobSpec.builder();
        for (String g : groups) {
            b.group(g, "127.0.0.1", freePort());
        }
        return b;
    }

    static JobSpec job(Path secret) throws Exception {
        return job(secret, Duration.ofSeconds(10));
    }

    static JobSpec job(Path secret, Duration peerTimeout) throws Exception {
        Files.writeString(secret, "0123456789abcdef-test-secret\n");
        return onSlicePorts("m", "w1", "w2").secretFile(secret).peerTimeout(peerTimeout).build();
    }

    @Test
    void farmAcrossThreeProcessesGivesExactResults(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        long n = 200_000;
        try (Child w1 = new Child(job, "w1", n, -1); Child w2 = new Child(job, "w2", n, -1)) {
            DistApp.Outcome o = DistApp.run(DistributedJob.of(job, "m"), n, -1);
            assertTrue(o.exact(), () -> o + "\n" + w1.output() + w2.output());
            assertEquals(0, w1.exit(30), w1::output);
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    @Test
    void failingWorkerInAChildGroupFailsTheJobEverywhereWithTheCause(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        long n = 200_000;
        try (Child w1 = new Child(job, "w1", n, 50_000); Child w2 = new Child(job, "w2", n, -1)) {
            FlowException e = assertThrows(FlowException.class, () -> DistApp.run(DistributedJob.of(job, "m"), n, -1));
            GroupFailedException g = groupFailure(e);
            assertNotNull(g, () -> "no GroupFailedException in " + e + "\n" + w1.output());
            assertEquals("w1", g.group());
            assertTrue(g.getMessage().contains("boom at task"), g::getMessage);
            assertTrue(g.nodePath().startsWith("w1:tasks/worker-"), g::nodePath);
            assertEquals(1, w1.exit(30), w1::output);
            assertEquals(1, w2.exit(30), w2::output); // aborted by the master
        }
    }

    /**
     * kill -9 of a worker group in the middle of the run: its unfinished tasks go to the workers still
     * alive and the job completes with every result exactly once. The kill point (a result count the
     * master's sink has seen) is drawn from a printed seed; the kill waits for the first result at or
     * after it at which w1 has shown a sign of life, and the sink waits for the group to be dead, so the
     * loss of a running group always falls inside the run.
     */
    @Test
    void killingAWorkerGroupMidRunStillGivesExactResults(@TempDir Path dir) throws Exception {
        long seed = TestSeed.current();
        System.out.println("killingAWorkerGroupMidRunStillGivesExactResults seed=" + seed
                + " (-Dbbflow.seed=" + TestSeed.root() + ")");
        // the kill is found by liveness (1.5 s); the peer timeout bounds a child's start, and 3 s lost w2
        // at start once under load 8 (both forks and four child JVMs), leaving no worker after w1's kill.
        // A passing run never waits it out: w1 is killed only once it beats (below). Killed before its
        // first beat (the usual case when the kill point was reached on w2's results alone while w1's JVM
        // was still starting), w1 was a group that never came, found by the first-connect timeout: the
        // test waited out the 10 s and did not kill a running group (11.8 s, now ~4 s).
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(20));
        long n = 100_000;
        long killAt = n / 10 + new java.util.Random(seed).nextLong(n / 2 - n / 10);
        java.util.concurrent.atomic.AtomicLong killedAt = new java.util.concurrent.atomic.AtomicLong();
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                if (killedAt.get() == 0 && count >= killAt && master.beating("w1")) {
                    killedAt.set(count);
                    w1.kill();
                }
            });
            assertTrue(o.exact(), () -> "seed " + seed + " killAt " + killAt + ": " + o + "\n" + w2.output());
            assertTrue(killedAt.get() > 0, () -> "w1 never showed a sign of life before the job ended (seed " + seed
                    + "): it was not killed running\n" + w1.output());
            assertFalse(w1.process.isAlive());
            assertEquals(java.util.Set.of("w1"), master.lostGroups(), () -> "seed " + seed);
            assertTrue(master.resentTasks() > 0, () -> "seed " + seed + ": nothing re-sent");
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /**
     * kill -9 of both worker groups in the middle of the run: the farm's workers in the master take
     * every unfinished task of both, and the job completes with every result exactly once.
     */
    @Test
    void losingEveryWorkerGroupLeavesTheWorkToTheMastersWorkers(@TempDir Path dir) throws Exception {
        // The master's own workers reach the kill point long before a child JVM starts (0.6 s of tasks in
        // all), so the sink waits there (bounded) until both groups beat: killed before that, they were
        // groups that never came, found by the first-connect timeout (3 s then, waited out by every run),
        // not running groups lost. The peer timeout bounds the children's start: 10 s, as elsewhere.
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(10));
        long n = 60_000;
        String[] args = {String.valueOf(n), "-1", WorkerLoss.RESEND_TASKS.name(), "MASTER_WORKERS"};
        try (Child w1 = new Child(job, "w1", DistApp.class, args); Child w2 = new Child(job, "w2", DistApp.class, args)) {
            DistributedJob master = DistributedJob.of(job, "m");
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, true, count -> {
                if (count == n / 5) {
                    LivenessTest.awaitBeating(master, "w1");
                    LivenessTest.awaitBeating(master, "w2");
                    w1.kill();
                    w2.kill();
                }
            });
            assertTrue(o.exact(), () -> o + "\n" + w1.output() + w2.output());
            assertEquals(java.util.Set.of("w1", "w2"), master.lostGroups());
            assertTrue(master.resentTasks() > 0, "nothing re-sent");
        }
    }

    /**
     * kill -9 of a worker group after its last result, before it said how its part ended: nothing is
     * left to re-send, the job completes, and the group counts as lost rather than failed (the other
     * stand-ins ending first must not make the master take the loss for its own closing).
     */
    @Test
    void killingAWorkerGroupAfterItsLastResultStillCompletes(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(10));
        long n = 50_000;
        try (Child w1 = new Child(job, "w1", n, -1, WorkerLoss.RESEND_TASKS);
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            DistApp.Outcome o = DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, count -> {
                if (count == n) {
                    w1.kill();
                }
            });
            assertTrue(o.exact(), () -> o + "\n" + w2.output());
            assertTrue(master.lostGroups().equals(java.util.Set.of("w1")) || master.lostGroups().isEmpty(),
                    () -> master.lostGroups().toString());
            assertEquals(0, master.resentTasks());
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /** Surviving a lost process is not surviving a failing worker: that still fails the job with its cause. */
    @Test
    void aFailingWorkerStillFailsAResendingFarmWithTheCause(@TempDir Path dir) throws Exception {
        failingWorkerFailsTheJob(dir, List.of(), 50_000);
    }

    /**
     * A failing group whose report is late (here by longer than the master waits for the report of a
     * group whose lane failed) is still not counted lost: the group keeps both ends of its lanes open
     * until it has reported, so no lane of it fails at the master before the master has its cause. Its
     * workers fail at their first task, while the master is still sending them tasks: a task inlet
     * closed when its node ended refused the master's next send at once. (Seen in CI as a failing
     * group, slow to report, counted lost.)
     */
    @Test
    void aFailingWorkerWhoseReportIsLateIsNotCountedLost(@TempDir Path dir) throws Exception {
        long delay = FarmLedger.LOSS_REPORT_WAIT.toMillis() + 500;
        failingWorkerFailsTheJob(dir, List.of("-D" + DistApp.REPORT_DELAY_PROPERTY + "=" + delay), 1);
    }

    /**
     * Runs {@link DistApp} with a re-sending farm, w1 (started with {@code w1Options}) failing from task
     * {@code failFrom}: the job fails with w1's cause in the master, no group counts as lost, and both
     * children exit with 1.
     */
    private static void failingWorkerFailsTheJob(Path dir, List<String> w1Options, long failFrom) throws Exception {
        // the default 10 s peer timeout: with 3 s, a child JVM slow to start under load (load 7 on 2 cores,
        // 2026-11-27) did not attach in time and both groups were counted lost ("w1,w2"); nothing here
        // waits the peer timeout out when the job behaves
        JobSpec job = job(dir.resolve("secret"));
        long n = 200_000;
        try (Child w1 = new Child(job, "w1", w1Options, DistApp.class, String.valueOf(n), String.valueOf(failFrom),
                WorkerLoss.RESEND_TASKS.name());
             Child w2 = new Child(job, "w2", n, -1, WorkerLoss.RESEND_TASKS)) {
            DistributedJob master = DistributedJob.of(job, "m");
            FlowException e = assertThrows(FlowException.class,
                    () -> DistApp.run(master, n, -1, WorkerLoss.RESEND_TASKS, c -> { }));
            GroupFailedException g = groupFailure(e);
            assertNotNull(g, () -> "no GroupFailedException in " + e + "\n" + w1.output());
            assertEquals("w1", g.group());
            assertTrue(g.getMessage().contains("boom at task"), g::getMessage);
            int w1Exit = w1.exit(30);
            int w2Exit = w2.exit(30);
            // the groups' own logs say what each did and when
            assertTrue(master.lostGroups().isEmpty(), () -> "a failing group counted lost: " + master.lostGroups()
                    + "\nw1:\n" + w1.output() + "\nw2:\n" + w2.output());
            assertEquals(1, w1Exit, w1::output);
            assertEquals(1, w2Exit, w2::output);
        }
    }

    /** Two pipeline stages in two other groups: every item, in order, through both, and back. */
    @Test
    void pipelineStagesInTwoGroupsKeepOrderAndEndOfStream(@TempDir Path dir) throws Exception {
        long n = 100_000;
        exactWithTwoChildGroups(dir, StageApp.class, List.of(String.valueOf(n), "-1"), m -> {
            StageApp.Outcome o = StageApp.run(m, n, -1);
            return o.exact(n) ? null : o.toString();
        });
    }

    /** A stage failing in its group fails the job in every process, naming the group and the stage. */
    @Test
    void aFailingStageFailsTheJobEverywhereWithTheCause(@TempDir Path dir) throws Exception {
        long n = 100_000;
        StageFailure f = stageJobFails(job(dir.resolve("secret")), new String[] {String.valueOf(n), "20000"},
                new String[] {String.valueOf(n), "20000"}, m -> StageApp.run(m, n, 20_000), "w1",
                "stage a failed at item 20000");
        assertTrue(f.failure().nodePath().startsWith("w1:a/"), f.failure()::nodePath);
    }

    /** What {@link #stageJobFails} saw: the job's failure, and how long the master's run took to throw. */
    private record StageFailure(GroupFailedException failure, long millis) {
    }

    /**
     * Runs {@link StageApp} with w1 and w2 in child JVMs (with their arguments) and {@code master} in
     * this JVM; asserts that the master's run throws a failure of {@code group} whose message
     * contains {@code message}, and that both children exit with 1.
     */
    private static StageFailure stageJobFails(JobSpec job, String[] w1Args, String[] w2Args,
                                              Function<DistributedJob, ?> master, String group, String message)
            throws Exception {
        try (Child w1 = new Child(job, "w1", StageApp.class, w1Args); Child w2 = new Child(job, "w2", StageApp.class, w2Args)) {
            long t0 = System.nanoTime();
            FlowException e = assertThrows(FlowException.class, () -> master.apply(DistributedJob.of(job, "m")));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            GroupFailedException g = groupFailure(e);
            assertNotNull(g, () -> "no GroupFailedException in " + e + "\n" + w1.output() + w2.output());
            assertEquals(group, g.group(), () -> g.getMessage() + "\n" + w1.output() + w2.output());
            assertTrue(g.getMessage().contains(message), g::getMessage);
            assertEquals(1, w1.exit(30), w1::output);
            assertEquals(1, w2.exit(30), w2::output);
            return new StageFailure(g, ms);
        }
    }

    /**
     * Stages a (w1) and b (w2) next to each other: w1 sends a's results straight to w2 (its flow ends
     * in an outlet to w2, not to the master) and w2 sends b's to the master; every result arrives once,
     * in order, and both groups end cleanly.
     */
    @Test
    void adjacentStagesInTwoGroupsSendStraightToEachOther(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        long n = 100_000;
        try (Child w1 = new Child(job, "w1", StageApp.class, String.valueOf(n), "-1");
             Child w2 = new Child(job, "w2", StageApp.class, String.valueOf(n), "-1")) {
            StageApp.Outcome o = StageApp.run(DistributedJob.of(job, "m"), n, -1);
            assertTrue(o.exact(n), () -> o + "\n" + w1.output() + w2.output());
            assertEquals(0, w1.exit(30), w1::output);
            assertEquals(0, w2.exit(30), w2::output);
            // each group runs its stage fused with its inlet and outlet: one node, named after the three
            assertTrue(w1.output().contains("+to-w2[a]"), w1::output);
            assertFalse(w1.output().contains("to-master[a]"), w1::output);
            assertTrue(w2.output().contains("+map+to-master[b]"), w2::output);
        }
    }

    /**
     * kill -9 of the first group of a linked run in the middle of the run: the job fails (a stage's
     * group is not survivable) within a few peer timeouts, naming the lost group, not the group
     * whose link from it broke, and the other group exits non-zero.
     */
    @Test
    void killingTheFirstGroupOfALinkedRunFailsTheJobNamingIt(@TempDir Path dir) throws Exception {
        // 5 s, not 3: the peer timeout also bounds a child's start, and a child that starts late under
        // load would be the group named lost
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(5));
        long n = 1_000_000;
        try (Child w1 = new Child(job, "w1", StageApp.class, String.valueOf(n), "-1");
             Child w2 = new Child(job, "w2", StageApp.class, String.valueOf(n), "-1")) {
            long t0 = System.nanoTime();
            FlowException e = assertThrows(FlowException.class, () -> StageApp.run(DistributedJob.of(job, "m"), n, -1,
                    "a", false, count -> {
                        if (count == 20_000) {
                            w1.kill();
                        }
                    }));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            GroupFailedException g = groupFailure(e);
            assertNotNull(g, () -> "no GroupFailedException in " + e + "\n" + w2.output());
            assertEquals("w1", g.group(), () -> g.getMessage() + "\n" + w2.output());
            assertTrue(g.getMessage().contains("lost"), g::getMessage);
            assertTrue(ms < 30_000, () -> "the job took " + ms + " ms to fail\n" + w2.output());
            assertEquals(1, w2.exit(30), w2::output);
        }
    }

    /**
     * The later of two linked stages fails: the job fails everywhere with its cause, not with the
     * earlier group's (whose link to it broke) or a channel's.
     */
    @Test
    void aFailingLinkedStageFailsTheJobEverywhereWithItsCause(@TempDir Path dir) throws Exception {
        long n = 100_000;
        String[] args = {String.valueOf(n), "20000", "b"};
        StageFailure f = stageJobFails(job(dir.resolve("secret")), args, args, m -> StageApp.run(m, n, 20_000, "b"), "w2",
                "stage b failed at item 20000");
        assertTrue(f.failure().nodePath().startsWith("w2:b/"), f.failure()::nodePath);
    }

    /**
     * A stage that fails after its last item (at end of stream, when the master has sent it
     * everything), before its link to the next stage's group is up (that group's host starts 5 s
     * late), fails the job at once with its cause: the master acts on the failing group's report
     * instead of waiting for the late group's inlet to give up on the link, which takes the job's
     * peer timeout (60 s here).
     */
    @Test
    void aStageFailingBeforeItsLinkIsUpFailsTheJobWithoutWaitingOutThePeerTimeout(@TempDir Path dir) throws Exception {
        long n = 1_000;
        StageFailure f = stageJobFails(job(dir.resolve("secret"), Duration.ofSeconds(60)),
                new String[] {String.valueOf(n), "-1", "a-eos", "0"}, new String[] {String.valueOf(n), "-1", "a-eos", "5000"},
                m -> StageApp.run(m, n, -1, "a-eos"), "w1", "stage a failed at end of stream");
        assertTrue(f.millis() < 30_000, () -> "the job took " + f.millis() + " ms to fail");
    }

    /**
     * A group that reported its failure ends without waiting for the master's verdict, so the master
     * does not send it one: here the master's flow ends 3 s after its last item (a node slow to
     * stop), when w1, failed at item 500, is long gone, and its {@code run} still throws at once
     * instead of waiting out the job's peer timeout (60 s) for a verdict nobody will take.
     */
    @Test
    void aGroupThatReportedItsFailureIsNotSentTheVerdict(@TempDir Path dir) throws Exception {
        long n = 1_000;
        String[] args = {String.valueOf(n), "500"};
        StageFailure f = stageJobFails(job(dir.resolve("secret"), Duration.ofSeconds(60)), args, args,
                m -> StageApp.run(m, n, 500, "a", true, count -> { }), "w1", "stage a failed at item 500");
        assertTrue(f.millis() < 30_000, () -> "the job took " + f.millis() + " ms to fail");
    }

    /**
     * The master's source cuts its stream (a {@link org.bbflow.core.StreamFailure} after 20,000 items)
     * while stage a runs in w1 and sends straight to stage b in w2: the cut crosses both links as a
     * failed end, so every item sent still comes back (20,000 results in the master), both children's
     * flows fail with the cut (exit 1, no outcome printed, the cut named in their output), and the
     * master's run throws its own source's error, not a group's report of the cut. The master's sink
     * waits at its end of stream (bounded) until both children are done, so their reports are in
     * before the master's flow ends: a group that reported the cut as a failure of its own (FAILED,
     * not LINK) would cancel the master and its report would become the job's cause.
     */
    @Test
    void aStreamCutByTheMastersSourceFailsBothLinkedGroupsAndTheJobWithTheMastersError(@TempDir Path dir)
            throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        long n = 100_000;
        long k = 20_000;
        String[] args = {String.valueOf(n), String.valueOf(k), "source"};
        try (Child w1 = new Child(job, "w1", StageApp.class, args); Child w2 = new Child(job, "w2", StageApp.class, args)) {
            java.util.concurrent.atomic.AtomicLong results = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean childrenDoneFirst = new java.util.concurrent.atomic.AtomicBoolean();
            FlowException e = assertThrows(FlowException.class, () -> StageApp.run(DistributedJob.of(job, "m"), n, k,
                    "source", false, results::set, () -> {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                        while (!(w1.output().contains("DONE ") && w2.output().contains("DONE "))
                                && System.nanoTime() - deadline < 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
                        }
                        childrenDoneFirst.set(w1.output().contains("DONE ") && w2.output().contains("DONE "));
                    }));
            assertNull(groupFailure(e), () -> "a group's report became the job's failure: " + e + "\n" + w1.output() + w2.output());
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause(), e::toString);
            assertEquals(StageApp.cutMessage(k), cause.getMessage());
            assertEquals(k, results.get(), "every item the master sent came back through both groups");
            assertTrue(childrenDoneFirst.get(), () -> "a child did not end while the master waited:\n" + w1.output() + w2.output());
            assertEquals(1, w1.exit(30), w1::output);
            assertEquals(1, w2.exit(30), w2::output);
            for (Child c : List.of(w1, w2)) {
                String out = c.output();
                assertFalse(out.contains("OUTCOME"), () -> "a group's part of a cut stream ended well:\n" + out);
                assertTrue(out.contains("RemoteStreamFailedException") && out.contains(StageApp.cutMessage(k)),
                        () -> "a group did not fail with the cut:\n" + out);
            }
        }
    }

    /**
     * A farm with a strict collector and workers in the master, w1 and w2 (tasks of different
     * lengths, so workers finish out of order): ordered (round-robin dispatch, and on-demand with a
     * reorder window), with 0, 1 or 2 results per task, and a strict round-robin collector; the master
     * gets exactly the sequential results in the sequential order.
     */
    @ParameterizedTest
    @EnumSource(OrderedApp.Shape.class)
    void aFarmWithAStrictCollectorKeepsInputOrderWithWorkersInGroups(OrderedApp.Shape shape, @TempDir Path dir)
            throws Exception {
        long n = 5_000;
        exactWithTwoChildGroups(dir, OrderedApp.class, List.of(String.valueOf(n), shape.name()), m -> {
            OrderedApp.Outcome o = OrderedApp.run(m, n, shape);
            return o.problem();
        });
    }

    /**
     * The right side of an all-to-all in groups w1 and w2, the left in the master: every item once, at
     * the right member its left member chose with {@code sendTo}, which saw the input it came in on.
     */
    @Test
    void theRightSideOfAnAllToAllRunsInTwoGroups(@TempDir Path dir) throws Exception {
        allToAllWithOneSideInGroups(dir, AllToAllApp.Remote.RIGHT);
    }

    /** The left side in groups w1 and w2: their {@code sendTo(j)} reaches right member j in the master. */
    @Test
    void theLeftSideOfAnAllToAllRunsInTwoGroups(@TempDir Path dir) throws Exception {
        allToAllWithOneSideInGroups(dir, AllToAllApp.Remote.LEFT);
    }

    private void allToAllWithOneSideInGroups(Path dir, AllToAllApp.Remote remote) throws Exception {
        long n = 50_000;
        exactWithTwoChildGroups(dir, AllToAllApp.class, List.of(String.valueOf(n), remote.name()), m -> {
            AllToAllApp.Outcome o = AllToAllApp.run(m, n, remote);
            return o.exact(n) ? null : o.toString();
        });
    }

    /**
     * Runs {@code app} with {@code args} as groups w1 and w2 (child JVMs) and {@code master} as group
     * m in this JVM; asserts that the master part found nothing wrong (it returns what it found, or
     * null) and that both children exited with 0.
     */
    private static void exactWithTwoChildGroups(Path dir, Class<?> app, List<String> args,
                                                Function<DistributedJob, String> master) throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        String[] a = args.toArray(new String[0]);
        try (Child w1 = new Child(job, "w1", app, a); Child w2 = new Child(job, "w2", app, a)) {
            String problem = master.apply(DistributedJob.of(job, "m"));
            assertNull(problem, () -> problem + "\n" + w1.output() + w2.output());
            assertEquals(0, w1.exit(30), w1::output);
            assertEquals(0, w2.exit(30), w2::output);
        }
    }

    /**
     * A loop with blocks in w1 and w2 (see {@link LoopApp.Shape}): a farm with {@code feedback()} and
     * workers in w1, w2 and the master; a looping pipeline whose head stage (the loop's head, which
     * sees the fed-back items) runs in w1 and last stage in w2; an all-to-all with
     * {@code feedback()} with its right side, then its left side, in w1 and w2 (a right member's
     * {@code send} returns the item to the left member it came from, even when its stand-in hands the
     * answer on while handling an item from the other one). Every item makes all its trips and leaves
     * the loop once, {@code fromFeedback()} is right wherever the node runs, and the loop ends by
     * itself, not while answers are still in a group.
     */
    @ParameterizedTest
    @EnumSource(LoopApp.Shape.class)
    void aLoopWithBlocksInTwoGroupsEndsWithEveryItem(LoopApp.Shape shape, @TempDir Path dir) throws Exception {
        long n = 20_000;
        exactWithTwoChildGroups(dir, LoopApp.class, List.of(String.valueOf(n), shape.name()), m -> {
            LoopApp.Outcome o = LoopApp.run(m, n, shape);
            return o.exact(n, shape) ? null : o + ", expected " + n + " items and " + LoopApp.expectedFeedback(n)
                    + " fed back";
        });
    }

    /**
     * A worker failing inside a loop fails the job everywhere with the cause: its stand-in, waiting
     * for answers, hears it instead of waiting on.
     */
    @Test
    void aWorkerFailingInsideALoopFailsTheJobEverywhereWithTheCause(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"));
        long n = 20_000;
        String[] args = {String.valueOf(n), "FARM", "5000"};
        try (Child w1 = new Child(job, "w1", LoopApp.class, args); Child w2 = new Child(job, "w2", LoopApp.class, args)) {
            FlowException e = assertThrows(FlowException.class,
                    () -> LoopApp.run(DistributedJob.of(job, "m"), n, LoopApp.Shape.FARM, 5000));
            GroupFailedException g = groupFailure(e);
            assertNotNull(g, () -> "no GroupFailedException in " + e + "\n" + w2.output());
            assertEquals("w2", g.group());
            assertTrue(g.getMessage().contains("failed on purpose in the loop in group w2"), g::getMessage);
            assertEquals(1, w2.exit(30), w2::output);
            assertEquals(1, w1.exit(30), w1::output); // aborted by the master
        }
    }

    /**
     * Inside a feedback loop, a farm that re-sends a lost worker's tasks is refused in every process
     * before anything starts, and a block of another group that is not a node is refused in the group
     * that would run it.
     */
    @Test
    void aResendingFarmOrACompositeRemoteBlockInsideAFeedbackLoopIsRefused(@TempDir Path dir) throws Exception {
        JobSpec spec = job(dir.resolve("secret"));
        for (String group : List.of("m", "w1")) {
            DistributedJob farmJob = DistributedJob.of(spec, group);
            Farm<Long, Long> farm = farmJob.farm("f", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                    Placement.of("m", "w1"), WorkerLoss.RESEND_TASKS);
            Pipeline<Long, Long> inner = Pipeline.of(Nodes.<Long>identity(), farm);
            IllegalArgumentException f = assertThrows(IllegalArgumentException.class,
                    () -> farmJob.run(Pipeline.of(Nodes.range(1, 10), inner.feedback(), Nodes.sink((Long x) -> { }))));
            assertTrue(f.getMessage().contains("is inside the feedback loop of a pipeline of 2 stages: a farm that"
                    + " re-sends a lost worker's tasks"), f::getMessage);
        }
        DistributedJob stageJob = DistributedJob.of(spec, "w2");
        Block<Long, Long> stage = stageJob.stage("s", () -> Pipeline.of(Nodes.map((Long x) -> x), Nodes.<Long>identity()),
                Codec.longs(), Codec.longs(), "w2");
        Farm<Long, Long> looping = Farm.<Long, Long>of(List.of(Nodes.<Long>identity(), stage)).feedback();
        IllegalArgumentException s = assertThrows(IllegalArgumentException.class,
                () -> stageJob.run(Pipeline.of(Nodes.range(1, 10), looping, Nodes.sink((Long x) -> { }))));
        assertTrue(s.getMessage().contains("s is a Pipeline, not a Node: a block of another group inside a feedback"
                + " loop must be a node"), s::getMessage);
    }

    /**
     * A farm with a strict collector is refused, in every process before anything starts, where a
     * worker of another group cannot hand each task's results on before its onItem returns: a worker
     * of a farm that re-sends a lost worker's tasks, one inside a composite worker, one of a farm
     * inside a feedback loop (a farm's own remote workers pass: see the test above). A strict farm
     * and a loop whose blocks all run in the master pass the check in a worker group too: that group
     * (placed beyond loopback without a secret) then stops at the next check, the listening one.
     */
    @Test
    void aFarmWithAStrictCollectorIsRefusedWhereARemoteWorkerCannotTakeTurns(@TempDir Path dir) throws Exception {
        JobSpec spec = job(dir.resolve("secret"));
        for (String group : List.of("m", "w1")) {
            for (Collect strict : List.of(Collect.ORDERED, Collect.ROUND_ROBIN, Collect.GATHER)) {
                // a worker that re-sends a lost worker's tasks
                DistributedJob job = DistributedJob.of(spec, group);
                Farm<Long, Long> resend = job.farm("f", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                        Placement.of("m", "w1", "w2"), WorkerLoss.RESEND_TASKS).collect(strict);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> job.run(Pipeline.of(Nodes.range(1, 10), resend, Nodes.sink((Long x) -> { }))));
                assertTrue(e.getMessage().contains("collects " + strict) && e.getMessage().contains("re-sends"),
                        e::getMessage);
                // a stage of another group inside a worker (here a pipeline)
                DistributedJob job2 = DistributedJob.of(spec, group);
                Block<Long, Long> stage = job2.stage("s", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(), "w2");
                Farm<Long, Long> nested = Farm.<Long, Long>of(List.of(Nodes.<Long>identity(),
                        Pipeline.of(Nodes.<Long>identity(), stage))).collect(strict);
                IllegalArgumentException n = assertThrows(IllegalArgumentException.class,
                        () -> job2.run(Pipeline.of(Nodes.range(1, 10), nested, Nodes.sink((Long x) -> { }))));
                assertTrue(n.getMessage().contains("the farm of remote-stage[s@w2] collects " + strict)
                        && n.getMessage().contains("composite worker"), n::getMessage);
                // a remote worker of a farm inside a feedback loop
                DistributedJob job3 = DistributedJob.of(spec, group);
                Farm<Long, Long> looping = job3.farm("g", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                        Placement.of("m", "w1")).collect(strict);
                IllegalArgumentException l = assertThrows(IllegalArgumentException.class,
                        () -> job3.run(Pipeline.of(Nodes.range(1, 10), looping.feedback(), Nodes.sink((Long x) -> { }))));
                assertTrue(l.getMessage().contains("the farm of remote-worker[g#1@w1] collects " + strict)
                        && l.getMessage().contains("feedback loop"), l::getMessage);
            }
        }
        JobSpec open = JobSpec.builder().group("m", "127.0.0.1", 7100).group("w1", "192.0.2.1", 7100).build();
        DistributedJob w1 = DistributedJob.of(open, "w1");
        Farm<Long, Long> local = w1.farm("g", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(),
                Placement.of("m", "m")).ordered();
        Block<Long, Long> stage = w1.stage("s", () -> Nodes.map((Long x) -> x), Codec.longs(), Codec.longs(), "m");
        IllegalStateException listening = assertThrows(IllegalStateException.class, () -> w1.run(
                Pipeline.of(Nodes.range(1, 10), Pipeline.of(local, stage).feedback(), Nodes.sink((Long x) -> { }))));
        assertTrue(listening.getMessage().contains("secret"), listening::getMessage);
    }

    /** A worker of a re-sending farm run in this group must be a node: its end of onItem marks a task's end. */
    @Test
    void aResendingWorkerInAWorkerGroupMustBeANode(@TempDir Path dir) throws Exception {
        DistributedJob w1 = DistributedJob.of(job(dir.resolve("secret")), "w1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w1.farm("f",
                () -> Pipeline.of(Nodes.<Long>identity(), Nodes.<Long>identity()), Codec.longs(), Codec.longs(),
                Placement.of("m", "w1"), WorkerLoss.RESEND_TASKS));
        assertTrue(e.getMessage().contains("worker f/worker-1 is a Pipeline, not a Node: a farm that re-sends"),
                e::getMessage);
    }

    @Test
    void aStageNameIsUniqueAmongFarmsAndStages(@TempDir Path dir) throws Exception {
        DistributedJob job = DistributedJob.of(job(dir.resolve("secret")), "m");
        job.stage("x", () -> Nodes.map((Long v) -> v), Codec.longs(),
                Codec.longs(), "w1");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> job.stage("x",
                () -> Nodes.map((Long v) -> v), Codec.longs(), Codec.longs(), "w2"));
        assertTrue(e.getMessage().contains("declared twice"), e::getMessage);
        assertThrows(IllegalArgumentException.class, () -> job.stage("y", () -> Nodes.map((Long v) -> v),
                Codec.longs(), Codec.longs(), "nowhere"));
    }

    /**
     * A group started only after the job already failed (a slow host, a late launch) hears from no
     * master: it must give up after the peer timeout, not wait for tasks for the 5-minute default.
     */
    @Test
    void aGroupStartedAfterTheJobFailedGivesUpAfterThePeerTimeout(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(2));
        long n = 200_000;
        try (Child w1 = new Child(job, "w1", n, 1_000)) {
            assertThrows(FlowException.class, () -> DistApp.run(DistributedJob.of(job, "m"), n, -1));
            assertEquals(1, w1.exit(30), w1::output);
            try (Child late = new Child(job, "w2", n, -1)) {
                assertEquals(1, late.exit(30), late::output);
                assertTrue(late.output().contains("lost the master") || late.output().contains("no sender attached"),
                        late::output);
            }
        }
    }

    /** A group whose master never starts fails after the peer timeout and says why. */
    @Test
    void aGroupWhoseMasterNeverComesFailsAfterThePeerTimeout(@TempDir Path dir) throws Exception {
        JobSpec job = job(dir.resolve("secret"), Duration.ofSeconds(2));
        try (Child alone = new Child(job, "w1", 1_000, -1)) {
            assertEquals(1, alone.exit(30), alone::output);
            assertTrue(alone.output().contains("lost the master") || alone.output().contains("no sender attached"),
                    alone::output);
        }
    }

    @Test
    void refusesToListenBeyondLoopbackWithoutSecretOrTls(@TempDir Path dir) throws Exception {
        JobSpec open = JobSpec.builder().group("m", "10.255.255.1", 7100).group("w", "127.0.0.1", 7101).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DistributedJob.of(open, "m").run(Nodes.range(1, 1)));
        assertTrue(e.getMessage().contains("without authentication"), e::getMessage);
        open.checkListenAllowed("w"); // loopback: fine
        JobSpec.parse(open.toText() + ";insecure=true").checkListenAllowed("m"); // explicitly allowed
        Path secret = dir.resolve("s");
        JobSpec.parse(open.toText() + ";secretFile=" + secret).checkListenAllowed("m");
    }

    @Test
    void jobTextRoundTripsAndChannelIdsAreTheSameEverywhere() throws Exception {
        JobSpec job = JobSpec.builder().group("a", "127.0.0.1", 7000).group("b", "h", 7001).master("b")
                .peerTimeout(Duration.ofSeconds(3)).build();
        JobSpec back = JobSpec.parse(job.toText());
        assertEquals(job.toText(), back.toText());
        assertEquals(List.of("b", "a"), back.groups());
        assertEquals("b", back.master());
        // ids are a function of the path only (String.hashCode is specified), so every process agrees
        assertEquals(ChannelIds.idOf("farm/x/worker-3/tasks"), ChannelIds.idOf(new String("farm/x/worker-3/tasks")));
        List<Integer> ids = new ArrayList<>();
        ChannelIds reserved = new ChannelIds();
        for (int i = 0; i < 1000; i++) {
            ids.add(reserved.reserve(ChannelIds.tasks("f", i)));
        }
        assertThrows(IllegalStateException.class, () -> reserved.reserve(ChannelIds.tasks("f", 7)));
        assertTrue(ids.stream().allMatch(i -> i > 0));
    }
}
