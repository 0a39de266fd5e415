package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bbflow.examples.distributed.SquaresJob;
import org.bbflow.launch.JobFile;
import org.bbflow.launch.SlurmScript;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SquaresJob on a real Slurm cluster: three fake nodes on this host ({@code .ci/slurm-cluster}), the
 * job's batch script from {@link SlurmScript} (the master in one step, the workers in a second),
 * each process's rank from {@code SLURM_PROCID} and its peers' hosts from {@code SLURM_JOB_NODELIST}
 * (the node names n1..n3 resolve to loopback through a hosts file the JVMs are given). First a job
 * with exact results; then a {@code RESEND_TASKS} job whose worker group w1 is killed with
 * {@code kill -9} once the master has a quarter of the results: exact results all the same, and the
 * batch script, whose status is the master step's, succeeds. Skipped, with the install line, where
 * Slurm is not installed; {@code .ci/run} installs it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SlurmJobTest {
    private static final String INSTALL = "apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge";
    private static Path root;
    private static Process cluster;
    private static String conf;
    private static String skipped;
    private static final StringBuilder clusterLog = new StringBuilder();

    @BeforeAll
    static void startCluster(@TempDir Path dir) throws Exception {
        root = dir;
        if (!System.getProperty("os.name").toLowerCase().contains("linux")) {
            skipped = "Slurm needs Linux";
            return;
        }
        for (String tool : List.of("slurmctld", "slurmd", "munged", "srun", "sbatch")) {
            if (List.of("/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/").stream().noneMatch(d -> Files.isExecutable(Path.of(d + tool)))) {
                skipped = tool + " is not installed (" + INSTALL + ")";
                return;
            }
        }
        Path script = Path.of("..", ".ci", "slurm-cluster").toAbsolutePath().normalize();
        if (!Files.isRegularFile(script)) {
            skipped = "no " + script;
            return;
        }
        cluster = new ProcessBuilder("bash", script.toString(), "up", dir.resolve("cluster").toString(), "3")
                .redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (String line; System.nanoTime() < end && (line = r.readLine()) != null; ) {
            clusterLog.append(line).append('\n');
            if (line.startsWith("SLURM_CONF=")) {
                conf = line.substring("SLURM_CONF=".length());
            }
            if (line.startsWith("slurm-cluster: ready")) {
                break;
            }
        }
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (clusterLog) {
                        clusterLog.append(line).append('\n');
                    }
                }
            } catch (Exception ignored) {
                // the cluster script ended
            }
        }, "slurm-cluster-log");
        drain.setDaemon(true);
        drain.start();
        if (conf == null || !cluster.isAlive()) {
            skipped = "the throwaway cluster did not start:\n" + clusterLog;
        }
    }

    /**
     * Skips the test where the cluster could not start, unless the environment requires Slurm
     * ({@code BBFLOW_REQUIRE_SLURM=1}, as {@code .ci/run} sets after installing it): a CI run that
     * skipped the Slurm test would prove nothing, so there a missing cluster fails.
     */
    private static void needCluster() {
        if (skipped != null && "1".equals(System.getenv("BBFLOW_REQUIRE_SLURM"))) {
            throw new AssertionError("BBFLOW_REQUIRE_SLURM=1 but the Slurm test cannot run: " + skipped);
        }
        assumeTrue(skipped == null, () -> "skipped: " + skipped);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.destroy(); // SIGTERM: the script cancels the jobs and stops its daemons
            if (!cluster.waitFor(60, TimeUnit.SECONDS)) {
                cluster.destroyForcibly();
            }
        }
    }

    /** The job file: ports only (hosts from Slurm's node list), the node names resolved through a hosts file. */
    private static JobFile jobFile(String name, String... args) throws Exception {
        Path hosts = root.resolve("hosts");
        Files.writeString(hosts, "127.0.0.1 localhost n1 n2 n3\n");
        Files.writeString(root.resolve("secret"), "slurm-test-secret-0123456789\n");
        StringBuilder a = new StringBuilder();
        for (String s : args) {
            a.append(a.length() == 0 ? "" : ", ").append('"').append(s).append('"');
        }
        String cp = System.getProperty("java.class.path");
        Path f = root.resolve(name + ".json");
        Files.writeString(f, "{\"main\": \"" + SquaresJob.class.getName() + "\", \"args\": [" + a + "],"
                + " \"java\": \"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\","
                + " \"classpath\": \"" + cp + "\","
                + " \"jvmOptions\": [\"-Xmx128m\", \"-XX:TieredStopAtLevel=1\", \"-Djdk.net.hosts.file=" + hosts + "\"],"
                + " \"groups\": {\"m\": {\"port\": " + LaunchCommandTest.freePort() + "},"
                + " \"w1\": {\"port\": " + LaunchCommandTest.freePort() + "},"
                + " \"w2\": {\"port\": " + LaunchCommandTest.freePort() + "}},"
                + " \"secretFile\": \"secret\", \"peerTimeoutSeconds\": 20, \"livenessTimeoutSeconds\": 1.5}");
        return JobFile.read(f);
    }

    private static final Pattern JOB_STATE = Pattern.compile("JobState=(\\S+)");
    private static final Pattern EXIT_CODE = Pattern.compile("ExitCode=(\\d+):(\\d+)");
    private static final Set<String> UNFINISHED = Set.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING");

    /**
     * Submits the job's script and waits for the job to end; returns its status (the script's exit
     * code, or 128 + the signal that ended it), {@code output} gets the job's output. Polls
     * {@code scontrol show job} every 100 ms rather than {@code sbatch --wait}, whose own polling
     * backs off to seconds (it took 10 s for a job of 3).
     */
    private static int sbatch(JobFile job, String name, StringBuilder output, Runnable whileRunning) throws Exception {
        Path script = root.resolve(name + ".sh");
        Files.writeString(script, SlurmScript.script(job));
        return submit(script, name, output, whileRunning);
    }

    /** Submits {@code script} as a batch job and waits for it, as {@link #sbatch} says. */
    private static int submit(Path script, String name, StringBuilder output, Runnable whileRunning) throws Exception {
        Path out = root.resolve(name + ".out");
        String submitted = slurm("sbatch", "--parsable", "--chdir=" + root, "--output=" + out, script.toString()).trim();
        String id = submitted.split(";")[0];
        if (!id.matches("\\d+")) {
            output.append("sbatch: ").append(submitted);
            return -1;
        }
        Thread watcher = new Thread(whileRunning, "slurm-watch-" + name);
        watcher.setDaemon(true);
        watcher.start();
        int status = -1;
        String last = "";
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        while (System.nanoTime() < end) {
            last = slurm("scontrol", "-o", "show", "job", id);
            Matcher state = JOB_STATE.matcher(last);
            Matcher code = EXIT_CODE.matcher(last);
            if (state.find() && !UNFINISHED.contains(state.group(1)) && code.find()) {
                int exit = Integer.parseInt(code.group(1));
                int signal = Integer.parseInt(code.group(2));
                status = exit != 0 ? exit : signal != 0 ? 128 + signal : 0;
                break;
            }
            Thread.sleep(100); // polling the job's state: how long it runs decides nothing
        }
        if (status < 0) slurm("scancel", id);
        output.append(Files.exists(out) ? Files.readString(out) : "(no output file)").append("\nscontrol: ").append(last);
        watcher.join(5_000);
        return status;
    }

    /** Runs a Slurm command against the test's cluster; returns what it printed. */
    private static String slurm(String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("SLURM_CONF", conf);
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return printed;
    }

    /** The status read from scontrol is the script's: what the master step's success is judged by. */
    @Test
    void aFailingBatchScriptsStatusIsItsExitCode() throws Exception {
        needCluster();
        Path script = Files.writeString(root.resolve("fails.sh"), "#!/bin/bash\necho failing on purpose\nexit 3\n");
        StringBuilder out = new StringBuilder();
        assertEquals(3, submit(script, "fails", out, () -> { }), out::toString);
        assertTrue(out.toString().contains("failing on purpose"), out::toString);
    }

    @Test
    void aJobRunsOnThreeNodesWithExactResults() throws Exception {
        needCluster();
        StringBuilder out = new StringBuilder();
        int status = sbatch(jobFile("plain", "200000"), "plain", out, () -> { });
        assertEquals(0, status, out::toString);
        assertTrue(out.toString().contains("squares: 200,000 results") && out.toString().contains("matches n(n+1)(2n+1)/6"),
                out::toString);
        assertEquals(2, out.toString().lines().filter(l -> l.matches("group w[12]: done")).count(), out::toString);
    }

    @Test
    void killingAWorkerGroupOfAResendingJobStillGivesExactResultsAndASuccessfulMasterStep() throws Exception {
        needCluster();
        StringBuilder out = new StringBuilder();
        List<String> killed = new ArrayList<>();
        Path output = root.resolve("resend.out");
        int status = sbatch(jobFile("resend", "200000", "--resend"), "resend", out, () -> {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            try {
                while (System.nanoTime() < end) {
                    if (Files.exists(output) && Files.readString(output).contains(" of 200,000 results")) {
                        for (ProcessHandle h : ProcessHandle.allProcesses().toList()) {
                            Map<String, String> env = environment(h.pid());
                            if ("1".equals(env.get("BBFLOW_RANK_OFFSET")) && "0".equals(env.get("SLURM_PROCID"))
                                    && h.info().command().orElse("").endsWith("java")) {
                                h.destroyForcibly(); // SIGKILL of group w1 (the worker step's rank 0)
                                killed.add("pid " + h.pid());
                            }
                        }
                        return;
                    }
                    Thread.sleep(20);
                }
            } catch (Exception e) {
                killed.add("failed: " + e);
            }
        });
        assertEquals(1, killed.size(), () -> "killed: " + killed + "\n" + out);
        assertTrue(killed.get(0).startsWith("pid"), () -> killed + "\n" + out);
        assertEquals(0, status, () -> "the master step failed\n" + out);
        assertTrue(out.toString().contains("squares: lost groups [w1]"), out::toString);
        assertTrue(out.toString().contains("squares: 200,000 results") && out.toString().contains("matches n(n+1)(2n+1)/6"),
                out::toString);
    }

    /** A process's environment (Linux), empty if it cannot be read. */
    private static Map<String, String> environment(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
            Map<String, String> env = new java.util.HashMap<>();
            for (String kv : new String(raw, StandardCharsets.UTF_8).split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return env;
        } catch (Exception e) {
            return Map.of();
        }
    }
}
