package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bbflow.examples.distributed.SquaresJob;
import org.bbflow.examples.distributed.StagesJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code launch} command with local processes as hosts (remote-exec templates {@code {args}} and
 * {@code sh -c {cmd}}; no network namespaces, no ssh): exit statuses, prefixed output, stopping the
 * other groups, the security refusal.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LaunchCommandTest {
    @TempDir
    Path dir;

    static int freePort() {
        return org.bbflow.testing.FreePorts.next();      // never the same port twice in one JVM
    }

    private Path jobFile(String main, String args, String remote, String extra) throws Exception {
        Files.writeString(dir.resolve("secret"), "launch-test-secret-0123456789\n");
        String cp = System.getProperty("java.class.path").replace("\\", "\\\\");
        String json = "{\n"
                + "  \"main\": \"" + main + "\",\n"
                + "  \"args\": [" + args + "],\n"
                + "  \"classpath\": \"" + cp + "\",\n"
                + "  \"jvmOptions\": [\"-Xmx128m\", \"-XX:TieredStopAtLevel=1\", \"-Dlaunch.test=" + marker() + "\"],\n"
                + "  \"remote\": \"" + remote + "\",\n"
                + "  \"groups\": {\n"
                + "    \"m\":  {\"host\": \"127.0.0.1\", \"port\": " + freePort() + "},\n"
                + "    \"w1\": {\"host\": \"127.0.0.1\", \"port\": " + freePort() + "},\n"
                + "    \"w2\": {\"host\": \"127.0.0.1\", \"port\": " + freePort() + "}\n"
                + "  },\n"
                + "  \"secretFile\": \"secret\",\n"
                + "  \"peerTimeoutSeconds\": 10" + extra + "\n"
                + "}\n";
        Path file = dir.resolve("job.json");
        Files.writeString(file, json);
        return file;
    }

    /** Marks this test's group processes (its temporary directory's name is unique). */
    private String marker() {
        return dir.getFileName().toString();
    }

    /** The processes among {@code candidates} whose command line has the argument {@code arg}. */
    private static Stream<ProcessHandle> withArgument(Stream<ProcessHandle> candidates, String arg) {
        return candidates.filter(p -> p.info().arguments().map(a -> List.of(a).contains(arg)).orElse(false));
    }

    /** The processes of this test's jobs still alive after {@code seconds} (none once the launcher has stopped them). */
    private List<String> leftOverGroups(int seconds) throws InterruptedException {
        String mark = "-Dlaunch.test=" + marker();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<String> alive;
        do {
            alive = withArgument(ProcessHandle.allProcesses(), mark)
                    .map(p -> "pid " + p.pid() + ": " + p.info().commandLine().orElse("?"))
                    .toList();
            if (alive.isEmpty()) {
                return alive;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < end);
        return alive;
    }

    private static int launch(List<String> lines, String... args) {
        return launchWithGrace("2s", lines, args);
    }

    private static int launchWithGrace(String grace, List<String> lines, String... args) {
        List<String> argv = new ArrayList<>(List.of("launch", "--timeout", "90s", "--grace", grace));
        argv.addAll(List.of(args));
        return Main.run(argv.toArray(new String[0]), Output.into(lines), Output.into(lines));
    }

    @Test
    void aDistributedJobRunsAcrossThreeLocalProcesses() throws Exception {
        launchesCleanly(SquaresJob.class.getName(), "[m]  squares: 100,000 results", "matches");
    }

    /** Linked stages through the launcher: w1 squares, w2 adds one, every result in input order at the master. */
    @Test
    void aPipelineOfStagesRunsAcrossThreeLocalProcesses() throws Exception {
        launchesCleanly(StagesJob.class.getName(), "[m]  stages: 100,000 results through 2 stages (w1 -> w2)",
                "every result in input order");
    }

    /**
     * Launches {@code main} with n = 100,000 over three local processes and asserts a clean end: status
     * 0, a master line starting with {@code masterLine} and containing {@code verdict}, and both worker
     * groups done.
     */
    private void launchesCleanly(String main, String masterLine, String verdict) throws Exception {
        Path job = jobFile(main, "\"100000\"", "{args}", "");
        List<String> lines = new ArrayList<>();
        int status = launch(lines, job.toString());
        String all = String.join("\n", lines);
        assertEquals(0, status, all);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(masterLine) && l.contains(verdict)), all);
        assertTrue(lines.contains("[w1] group w1: done"), all);
        assertTrue(lines.contains("[w2] group w2: done"), all);
    }

    @Test
    void aFailingGroupFailsTheJobWithANonZeroStatus() throws Exception {
        Path job = jobFile(SquaresJob.class.getName(), "\"100000\", \"w2\"", "sh -c {cmd}", "");
        List<String> lines = new ArrayList<>();
        int status = launchWithGrace("30s", lines, job.toString()); // time for the master to say why
        String all = String.join("\n", lines);
        assertEquals(1, status, all);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[m]") && l.contains("group 'w2' failed")
                && l.contains("failed on purpose")), all);
        // Any group may be the first to exit non-zero: w2 itself, or w1 told by the master's verdict
        // (w2 may still be closing its connections). The launcher waits for the master's verdict and
        // blames the group the master names, whichever exited first (finding 34.7).
        assertTrue(lines.contains("launch: the job failed; the master names group w2; stopping the others"), all);
        assertTrue(lines.contains("launch: group w2 exited with 1"), all);
        assertTrue(lines.contains("launch: group m exited with 1"), all);
        assertTrue(lines.contains("launch: group w1 exited with 1"), all); // told by the master's verdict
    }

    /**
     * kill -9 of a survivable worker group once the master has a quarter of the results: the launcher
     * goes on without it, the farm re-sends its unfinished tasks, and the job ends with status 0 and
     * the right sum. The group's process is found among this JVM's descendants by its group property.
     */
    @Test
    void aKilledSurvivableGroupDoesNotStopTheJob() throws Exception {
        Path job = jobFile(SquaresJob.class.getName(), "\"200000\", \"--resend\"", "{args}", "");
        Files.writeString(job, Files.readString(job).replaceAll("(\"w[12]\": \\{[^}]*)\\}", "$1, \"survivable\": true}"));
        List<String> lines = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<String> killed = new java.util.concurrent.atomic.AtomicReference<>();
        Output out = line -> {
            synchronized (lines) {
                lines.add(line);
            }
            if (line.startsWith("[m]") && line.contains(" of 200,000 results") && killed.get() == null) {
                ProcessHandle w1 = withArgument(ProcessHandle.current().descendants(), "-Dbbflow.group=w1")
                        .findFirst().orElse(null);
                killed.set(w1 == null ? "not found" : "pid " + w1.pid());
                if (w1 != null) {
                    w1.destroyForcibly(); // SIGKILL
                }
            }
        };
        int status = Main.run(new String[] {"launch", "--timeout", "90s", "--grace", "30s", job.toString()}, out, out);
        String all;
        synchronized (lines) {
            all = String.join("\n", lines);
        }
        assertTrue(killed.get() != null && killed.get().startsWith("pid"), "w1 killed: " + killed.get() + "\n" + all);
        assertEquals(0, status, all);
        assertTrue(all.contains("launch: group w1 exited with 137"), all);
        assertTrue(all.contains("launch: group w1 is survivable; the job goes on without it"), all);
        assertTrue(all.contains("[m]  squares: lost groups [w1]"), all);
        assertTrue(all.contains("[m]  squares: 200,000 results") && all.contains("matches n(n+1)(2n+1)/6"), all);
        assertTrue(all.contains("launch: group w2 exited with 0"), all);
    }

    @Test
    void theMasterGroupCannotBeSurvivableAndGroupKeysAreChecked() throws Exception {
        Path job = jobFile(SquaresJob.class.getName(), "\"10\"", "{args}", "");
        String text = Files.readString(job);
        Files.writeString(job, text.replaceAll("(\"m\": +\\{[^}]*)\\}", "$1, \"survivable\": true}"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> org.bbflow.launch.JobFile.read(job));
        assertTrue(e.getMessage().contains("master group \"m\" cannot be survivable"), e.getMessage());
        Files.writeString(job, text.replaceAll("(\"w1\": +\\{[^}]*)\\}", "$1, \"survivabel\": true}"));
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> org.bbflow.launch.JobFile.read(job));
        assertTrue(e.getMessage().contains("group \"w1\": unknown key \"survivabel\""), e.getMessage());
        Files.writeString(job, text.replaceAll("(\"w1\": +\\{[^}]*)\\}", "$1, \"survivable\": true}"));
        assertTrue(org.bbflow.launch.JobFile.read(job).groups().get("w1").survivable());
        assertTrue(!org.bbflow.launch.JobFile.read(job).groups().get("w2").survivable());
    }

    @Test
    void exitStatusIsTheFirstFailingGroupsAndTheOthersAreStopped() throws Exception {
        Path job = jobFile(LaunchProbe.class.getName(), "\"w1\", \"it's quoted; ok\"", "sh -c {cmd}", "");
        // the probes open no channel, so the peer timeout only bounds the launcher's wait for a verdict
        Files.writeString(job, Files.readString(job).replace("\"peerTimeoutSeconds\": 10", "\"peerTimeoutSeconds\": 1"));
        List<String> lines = new ArrayList<>();
        long t0 = System.nanoTime();
        int status = launch(lines, job.toString());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        String all = String.join("\n", lines);
        assertEquals(3, status, all);
        assertTrue(seconds < 40, "the sleeping groups were stopped, not waited for: " + seconds + " s\n" + all);
        assertTrue(lines.contains("[w1] hello from w1 arg=it's quoted; ok"), all); // {cmd} quoting survives sh
        assertTrue(lines.contains("[w1] failing on purpose"), all);
        assertTrue(lines.contains("launch: group w1 failed; waiting for the master's verdict"), all);
        // the master (sleeping) gives none: after the peer timeout and the grace, the first failure decides
        assertTrue(lines.contains("launch: the master gave no verdict in time; group w1 failed first"), all);
        // The groups ran as children of `sh -c` (dash forks the command): stopping the shell alone
        // left each group's JVM sleeping on as an orphan for its minute.
        assertEquals(List.of(), leftOverGroups(5), "group processes left behind by the launcher\n" + all);
    }

    @Test
    void refusesAnUnauthenticatedJobListeningBeyondLoopback() throws Exception {
        String json = "{\"main\": \"x.Y\", \"remote\": \"{args}\", \"groups\": {\"m\": {\"host\": \"10.255.255.1\","
                + " \"port\": 7100}}}";
        Path job = Files.writeString(dir.resolve("open.json"), json);
        List<String> lines = new ArrayList<>();
        assertEquals(2, launch(lines, job.toString()), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains("without authentication")), String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("[m]")), "nothing was started");
        List<String> dry = new ArrayList<>();
        Files.writeString(job, json.replace("}}}", "}}, \"insecure\": true}"));
        assertEquals(0, launch(dry, "--dry-run", job.toString()), String.join("\n", dry));
    }

    /** Review: {@code --dry-run} of a job file without hosts printed commands with an empty host. */
    @Test
    void aDryRunRefusesAJobWithoutHosts() throws Exception {
        Path job = Files.writeString(dir.resolve("engine.json"), "{\"main\": \"x.Y\", \"groups\": {\"m\": {\"port\": 7100}}}");
        List<String> lines = new ArrayList<>();
        assertEquals(2, launch(lines, "--dry-run", job.toString()), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains("group m has no host")), String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("[m]")), "no command printed: " + lines);
    }

    /** Hunt 2: {@code --timeout 0s} or {@code -5s} started the job and stopped it at once with 124, as if it ran past a limit. */
    @Test
    void aTimeLimitOfZeroOrBelowIsAUsageError() throws Exception {
        Path job = Files.writeString(dir.resolve("limit.json"), "{\"main\": \"x.Y\", \"remote\": \"{args}\", \"groups\":"
                + " {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        for (String limit : new String[] {"0s", "-5s"}) {
            List<String> lines = new ArrayList<>();
            assertEquals(2, Main.run(new String[] {"launch", "--timeout", limit, job.toString()}, Output.into(lines),
                    Output.into(lines)), String.join("\n", lines));
            assertTrue(lines.stream().anyMatch(l -> l.contains("time limit must be more than 0")), String.join("\n", lines));
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("[m]") || l.startsWith("launch:")), "nothing was started");
        }
    }
}
