package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's own limits, refused before any group starts. */
class LauncherTest {
    @TempDir
    Path dir;

    /**
     * Hunt 2: a time limit of 0 or below ended a job at once with 124 ("ran past PT-1S"), one too long
     * for nanoseconds started every group and failed with "long overflow"; a negative grace was taken.
     */
    /**
     * The launcher blames the group the master's failure names, or every group of a stuck linked run
     * ({@code GroupFailedException.groups()}): a real name each, never a joined one such as w1+w2.
     */
    @Test
    void theLauncherBlamesTheGroupOrGroupsTheMasterNames() {
        assertEquals("w2", Launcher.namedIn("org.bbflow.net.dist.GroupFailedException: group 'w2' failed: boom"));
        assertEquals("w1, w2", Launcher.namedIn("GroupFailedException: groups 'w1', 'w2' failed: linked run"
                + " remote-stage[a@w1] -> remote-stage[b@w2]: no progress for 500 ms"));
        assertEquals(null, Launcher.namedIn("group w2: done"));
        assertEquals("launch: the job failed; the master names group w2; stopping the others", Launcher.failedLine("w2"));
        assertEquals("launch: the job failed; the master names groups w1, w2; stopping the others",
                Launcher.failedLine("w1, w2"));
    }

    @Test
    void timeLimitsOutOfRangeAreRefusedBeforeAnyGroupStarts() throws Exception {
        Path started = dir.resolve("started");
        Path f = dir.resolve("touch.json");
        // a group whose "java" creates a file: the sign that the launcher started it
        Files.writeString(f, "{\"main\": \"x.Main\", \"java\": \"touch\", \"remote\": \"{args}\", \"jvmOptions\": [\""
                + started + "\"], \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        JobFile job = JobFile.read(f).forRun();
        for (Duration timeout : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ZERO, Duration.ofSeconds(-1)}) {
            String m = assertThrows(IllegalArgumentException.class,
                    () -> Launcher.run(job, line -> { }, timeout, Duration.ofSeconds(1))).getMessage();
            assertTrue(m.contains("time limit"), m);
        }
        String m = assertThrows(IllegalArgumentException.class,
                () -> Launcher.run(job, line -> { }, null, Duration.ofSeconds(-1))).getMessage();
        assertTrue(m.contains("grace"), m);
        m = assertThrows(IllegalArgumentException.class,
                () -> Launcher.run(job, line -> { }, null, Duration.ofSeconds(Long.MAX_VALUE))).getMessage();
        assertTrue(m.contains("grace"), m);
        assertFalse(Files.exists(started), "a group was started");
    }

    /**
     * Hunt 3: under a C/POSIX locale (cron, a service, a bare container) the JDK passes every character
     * it cannot encode in the locale's charset as '?': a job argument "jöb" reached the group as "j?b",
     * silently. The launcher now refuses such a job before starting anything, naming the word.
     */
    @Test
    void aWordTheLocaleCannotPassIsRefusedNotMangled() throws Exception {
        Path f = dir.resolve("echo.json");
        // the group's "java" is echo: the group prints the words it was given
        Files.writeString(f, "{\"main\": \"x.Main\", \"java\": \"/bin/echo\", \"remote\": \"{args}\", \"args\": [\"j\u00f6b\"],"
                + " \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}", java.nio.charset.StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LaunchTool.class.getName(), "run", f.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG"));
        pb.environment().put("LC_ALL", "C");
        Process launcher = pb.start();
        try {
            assertTrue(launcher.waitFor(20, TimeUnit.SECONDS), "the launcher did not end");
            String out = Files.readString(dir.resolve("out.txt"), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertEquals(2, launcher.exitValue(), out);
            assertTrue(out.contains("'j\\u00f6b'") && out.contains("UTF-8"), out);
        } finally {
            launcher.destroyForcibly();
        }
        // what the check says for a charset that can carry the word, and one that cannot
        Launcher.checkEncodable("m", List.of("j\u00f6b"), java.nio.charset.StandardCharsets.UTF_8);
        assertThrows(IllegalStateException.class,
                () -> Launcher.checkEncodable("m", List.of("j\u00f6b"), java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** Hunt 2: a launcher ended by SIGTERM (kill, a batch system's cancel) left every group running. */
    @Test
    void aLauncherEndedBySigtermStopsItsGroups() throws Exception {
        Path f = dir.resolve("sleep.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"java\": \"/bin/sh\", \"jvmOptions\": [\"-c\", \"sleep 60; exit 0\", \"g\"],"
                + " \"remote\": \"{args}\", \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100},"
                + " \"w\": {\"host\": \"127.0.0.1\", \"port\": 7101}}}");
        Process launcher = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LaunchTool.class.getName(), "run", f.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        List<ProcessHandle> groups = List.of();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // both groups' shells and their sleeps
            while ((groups = launcher.descendants().toList()).size() < 4 && System.nanoTime() < deadline && launcher.isAlive()) {
                Thread.sleep(20);
            }
            assertTrue(groups.size() >= 4, "the groups did not start: " + groups + "\n" + Files.readString(dir.resolve("out.txt")));
            launcher.destroy(); // SIGTERM
            assertTrue(launcher.waitFor(20, TimeUnit.SECONDS), "the launcher did not end");
            for (ProcessHandle g : groups) {
                assertFalse(running(g), "group process " + g.pid() + " left behind by the launcher");
            }
        } finally {
            launcher.destroyForcibly();
            groups.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Hunt 2: a group's output without line ends was held in the launcher's memory whole (a child
     * writing binary or endless progress without a newline grew it without bound, shown only at its
     * end); it now goes out in pieces of at most {@link Launcher#MAX_LINE} characters, none lost.
     */
    @Test
    void outputWithoutLineEndsGoesOutInBoundedPieces() throws Exception {
        Path f = dir.resolve("long.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"java\": \"/bin/sh\", \"jvmOptions\": [\"-c\","
                + " \"head -c 311296 /dev/zero | tr '\\\\000' x; printf '\\\\na\\\\r\\\\nb\\\\rc\\\\n'\", \"g\"],"
                + " \"remote\": \"{args}\", \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        assertEquals(0, Launcher.run(JobFile.read(f).forRun(), lines::add, Duration.ofSeconds(60), Duration.ofSeconds(1)));
        List<String> out = lines.stream().filter(l -> l.startsWith("[m] ")).map(l -> l.substring(4)).toList();
        assertTrue(out.stream().allMatch(l -> l.length() <= Launcher.MAX_LINE), "a line longer than " + Launcher.MAX_LINE);
        // 19 whole pieces, the line end right after the last one ending it (no empty line), then a, b, c
        assertEquals(19 + 3, out.size(), () -> out.stream().map(l -> l.length() + ":" + l.substring(0, Math.min(3, l.length())))
                .toList().toString());
        assertEquals("x".repeat(311_296), String.join("", out.subList(0, out.size() - 3)));
        assertEquals(List.of("a", "b", "c"), out.subList(out.size() - 3, out.size()));
    }

    /** Alive and not a zombie (an orphan ended but not yet reaped counts as ended). */
    private static boolean running(ProcessHandle h) throws Exception {
        if (!h.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", String.valueOf(h.pid()), "stat");
        try {
            String s = Files.readString(stat);
            return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException gone) {
            return false;
        }
    }
}
