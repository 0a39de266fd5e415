package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Left round: a group's JVM whose wrapper (the {@code sh -c}, {@code ssh} or {@code srun} the
 * remote-exec template runs) was killed, or whose launcher was killed with SIGKILL (no shutdown
 * hook runs), lived on as an orphan. The launcher now holds each group's standard input open and
 * starts the group with {@code -Dbbflow.exitWithStdin=true}: at the end of its standard input the
 * group fails its part and its JVM exits. Real processes: the test kills only the processes it
 * started (by process id), and polls against a deadline.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LauncherOrphanTest {
    /** Far more than the exit takes (well under a second after the end of input), far less than IdleGroup's sleep. */
    private static final long DEADLINE_SECONDS = 20;

    @TempDir
    Path dir;

    /** A job of one group running {@link IdleGroup} under {@code sh -c}, the JVM a child of the shell. */
    private Path job() throws Exception {
        return job("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7190}", "");
    }

    /** A job of {@code groups} running {@link IdleGroup} under {@code sh -c}, the group {@code runs} calling run. */
    private Path job(String groups, String runs) throws Exception {
        Path f = dir.resolve("idle.json");
        // "{cmd};exit": the shell runs the JVM as its child (no exec of a last command), as ssh's remote shell may
        Files.writeString(f, "{\"main\": \"" + IdleGroup.class.getName() + "\", \"args\": [\"" + dir.resolve("pid")
                + "\", \"" + runs + "\"], \"remote\": \"sh -c {cmd};exit\", \"peerTimeoutSeconds\": 300,"
                + " \"groups\": {" + groups + "}}");
        return f;
    }

    /** The group JVM of the job's first group, once it has written its process id. */
    private ProcessHandle awaitGroup(Process orLauncher) throws Exception {
        return awaitGroup(orLauncher, "m");
    }

    /** The JVM of {@code group}, once it has written its process id. */
    private ProcessHandle awaitGroup(Process orLauncher, String group) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        String prefix = "pid." + group + ".";
        while (System.nanoTime() < deadline) {
            try (Stream<Path> files = Files.list(dir)) {
                Optional<Path> pid = files.filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst();
                if (pid.isPresent()) {
                    String name = pid.get().getFileName().toString();
                    return ProcessHandle.of(Long.parseLong(name.substring(prefix.length()))).orElseThrow();
                }
            }
            if (orLauncher != null && !orLauncher.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the group did not start" + (Files.exists(dir.resolve("out.txt"))
                ? ":\n" + Files.readString(dir.resolve("out.txt")) : ""));
    }

    /** Waits until the process has ended (or is a zombie), at most until the deadline. */
    private static boolean endsBy(ProcessHandle h, long deadline) throws Exception {
        while (running(h)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    @Test
    void aGroupWhoseWrapperIsKilledExits() throws Exception {
        JobFile job = JobFile.read(job()).forRun();
        AtomicInteger status = new AtomicInteger(-1);
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread launcher = new Thread(() -> {
            try {
                status.set(Launcher.run(job, lines::add, Duration.ofSeconds(55), Duration.ofSeconds(1)));
            } catch (Exception e) {
                lines.add(e.toString());
            }
        }, "test-launcher");
        launcher.start();
        ProcessHandle group = null;
        try {
            group = awaitGroup(null);
            ProcessHandle wrapper = group.parent().orElseThrow();
            assertTrue(wrapper.parent().map(p -> p.pid() == ProcessHandle.current().pid()).orElse(false),
                    "the group's parent is the launcher's wrapper");
            wrapper.destroyForcibly(); // SIGKILL: the shell cannot pass anything on
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            assertTrue(endsBy(group, deadline), "the group's JVM " + group.pid() + " lived on as an orphan\n" + lines);
            launcher.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
            assertFalse(launcher.isAlive(), "the launcher did not end");
            assertEquals(137, status.get(), lines.toString());
        } finally {
            if (group != null) {
                group.destroyForcibly();
            }
            launcher.join(10_000);
        }
    }

    /**
     * A group inside {@code run} (here waiting for the master's admission, which never comes) gives up
     * its part and exits too: it stops waiting at once (its part may take up to 5 s to end).
     */
    @Test
    void aGroupInsideRunWhoseWrapperIsKilledExits() throws Exception {
        JobFile job = JobFile.read(job("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7191},"
                + " \"w\": {\"host\": \"127.0.0.1\", \"port\": 7192}", "w")).forRun();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread launcher = new Thread(() -> {
            try {
                Launcher.run(job, lines::add, Duration.ofSeconds(55), Duration.ofSeconds(1));
            } catch (Exception e) {
                lines.add(e.toString());
            }
        }, "test-launcher");
        launcher.start();
        List<ProcessHandle> started = new ArrayList<>();
        try {
            ProcessHandle master = awaitGroup(null, "m");
            started.add(master);
            ProcessHandle w = awaitGroup(null, "w");
            started.add(w);
            w.parent().orElseThrow().destroyForcibly();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            assertTrue(endsBy(w, deadline), "group w's JVM " + w.pid() + " lived on as an orphan\n" + lines);
            master.parent().orElseThrow().destroyForcibly(); // the master's turn: the launcher then ends
            assertTrue(endsBy(master, deadline), "the master's JVM " + master.pid() + " lived on as an orphan\n" + lines);
            launcher.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
            assertFalse(launcher.isAlive(), "the launcher did not end");
        } finally {
            started.forEach(ProcessHandle::destroyForcibly);
            launcher.join(10_000);
        }
    }

    @Test
    void theGroupsOfALauncherKilledWithSigkillExit() throws Exception {
        Process launcher = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LaunchTool.class.getName(), "run", job().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        List<ProcessHandle> started = new ArrayList<>();
        try {
            ProcessHandle group = awaitGroup(launcher);
            started.add(group);
            group.parent().ifPresent(started::add);
            launcher.destroyForcibly(); // SIGKILL: no shutdown hook stops the groups
            assertTrue(launcher.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS), "the launcher did not end");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            assertTrue(endsBy(group, deadline), "the group's JVM " + group.pid() + " lived on as an orphan:\n"
                    + Files.readString(dir.resolve("out.txt")));
        } finally {
            launcher.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Alive and not a zombie (an orphan ended but not yet reaped counts as ended). */
    private static boolean running(ProcessHandle h) throws Exception {
        if (!h.isAlive()) {
            return false;
        }
        try {
            String s = Files.readString(Path.of("/proc", String.valueOf(h.pid()), "stat"));
            return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException gone) {
            return false;
        }
    }
}
