package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 34.7: a job file is read strictly, and every refusal names the file, the group and the key
 * at fault. Also the job's identity per run and the format in {@code --help}.
 */
class JobFileTest {
    @TempDir
    Path dir;

    private Path file(String groups, String extra) throws Exception {
        Path f = dir.resolve("squares.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"groups\": {" + groups + "}" + extra + "}");
        return f;
    }

    private String refusal(String groups, String extra) throws Exception {
        Path f = file(groups, extra);
        String m = assertThrows(IllegalArgumentException.class, () -> JobFile.read(f)).getMessage();
        assertTrue(m.startsWith(f.toString()), m);
        return m;
    }

    @Test
    void aPortMustBeAWholeNumberInRange() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": \"x25621\"}", "");
        assertTrue(m.contains("group \"m\": \"port\" must be a whole number from 1 to 65535, got \"x25621\""), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 25621.7}", "");
        assertTrue(m.contains("group \"m\": \"port\"") && m.contains("25621.7"), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 0}", "");
        assertTrue(m.contains("group \"m\": \"port\""), m);
        assertEquals(25621, JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 25621.0}", "")).groups().get("m").port());
    }

    @Test
    void unknownKeysAreNamedWithAHint() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"prot\": 7100}", "");
        assertTrue(m.contains("group \"m\": unknown key \"prot\" (did you mean \"port\"?)"), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"peerTimeout\": 3");
        assertTrue(m.contains("unknown key \"peerTimeout\" (did you mean \"peerTimeoutSeconds\"?)"), m);
    }

    @Test
    void flagsAreTrueOrFalse() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"w1\": {\"host\": \"127.0.0.1\", \"port\": 7101,"
                + " \"survivable\": \"yes\"}", "");
        assertTrue(m.contains("group \"w1\": \"survivable\" must be true or false, got \"yes\""), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"insecure\": 1");
        assertTrue(m.contains("\"insecure\" must be true or false"), m);
    }

    @Test
    void twoGroupsOnOneAddressAreCaughtBeforeStart() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"w1\": {\"host\": \"127.0.0.1\", \"port\": 7100}", "");
        assertTrue(m.contains("groups 'm' and 'w1' are both given 127.0.0.1:7100"), m);
    }

    /** Review: one loopback endpoint under two names passed validation and failed only when the second group bound it. */
    @Test
    void twoNamesOfOneLoopbackAddressAreCaughtBeforeStart() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"w1\": {\"host\": \"localhost\", \"port\": 7100}", "");
        assertTrue(m.contains("groups 'm' and 'w1' are both given 127.0.0.1:7100 (localhost is 127.0.0.1)"), m);
        m = refusal("\"m\": {\"host\": \"LocalHost\", \"port\": 7100}, \"w1\": {\"host\": \"localhost\", \"port\": 7100}", "");
        assertTrue(m.contains("groups 'm' and 'w1' are both given"), m);
        // other loopback addresses are other endpoints; so are other ports
        JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"w1\": {\"host\": \"127.0.0.2\", \"port\": 7100},"
                + " \"w2\": {\"host\": \"localhost\", \"port\": 7101}", ""));
        // a name that does not resolve here is compared as written (it may resolve where the job runs)
        JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"w1\": {\"host\": \"w1.bbflow.invalid\","
                + " \"port\": 7100}, \"w2\": {\"host\": \"w2.bbflow.invalid\", \"port\": 7100}", ", \"insecure\": true"));
        m = refusal("\"m\": {\"host\": \"w1.bbflow.invalid\", \"port\": 7100}, \"w1\": {\"host\": \"W1.bbflow.invalid\", \"port\": 7100}",
                ", \"insecure\": true");
        assertTrue(m.contains("groups 'm' and 'w1' are both given"), m);
    }

    /** Review: {@code run --dry-run} of a job file without hosts printed an empty host where the real run refuses. */
    @Test
    void aDryRunRefusesWhatTheRunRefuses() throws Exception {
        Path f = file("\"m\": {\"port\": 7100}, \"w1\": {\"port\": 7100}", "");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = LaunchTool.run(new String[] {"run", "--dry-run", f.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(2, status, out + "\n" + err);
        assertTrue(err.toString().contains("group m has no host"), err.toString());
        assertEquals("", out.toString(), "no command printed");
    }

    /**
     * Session 14: {@code run --dry-run} joined each command's words with bare spaces, so the printed
     * command, pasted into a shell, was not the one the run starts: the job's text
     * ({@code -Dbbflow.job=id=...;master=m;...}) ended the command at its first ';', and an argument
     * with a space or a quote became other words. A shell now reads each printed line back into the
     * run's words exactly.
     */
    @Test
    void aDryRunPrintsCommandsAShellReadsBackExactly(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = dir.resolve("quoted.json");
        java.nio.file.Files.writeString(f, "{\"main\": \"x.Main\", \"id\": \"dry-1\", \"remote\": \"{args}\","
                + " \"args\": [\"two words\", \"it's\", \"$HOME\", \"a\\nb\", \"\"],"
                + " \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, LaunchTool.run(new String[] {"run", "--dry-run", f.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true)), out + "\n" + err);
        String printed = out.toString();
        assertTrue(printed.startsWith("[m] "), printed);
        String line = printed.substring(4).replaceAll("\n\\z", "");
        Process sh = new ProcessBuilder("sh", "-c", "printf '%s\\0' " + line).redirectErrorStream(true).start();
        String words = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(sh.waitFor(10, java.util.concurrent.TimeUnit.SECONDS));
        java.util.List<String> expected = Launcher.command(JobFile.read(f).forRun(), "m");
        assertEquals(String.join("\n", expected), String.join("\n", java.util.List.of(words.split("\0", -1)))
                .replaceAll("\n\\z", ""), line);
    }

    /**
     * Session 15: {@code --grace} and {@code --timeout} were rounded to milliseconds before any check,
     * so {@code --grace NaN} and {@code --grace -0.0004} ran with no grace, and {@code --timeout NaN} was
     * refused as "PT0S"; a dry run checked neither. Now each is refused naming the option and the value.
     */
    @Test
    void secondsThatAreNoDurationAreRefusedNamingTheOption() throws Exception {
        Path f = file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", "");
        for (String[] bad : new String[][] {{"--grace", "NaN"}, {"--grace", "-0.0004"}, {"--grace", "Infinity"},
                {"--timeout", "NaN"}, {"--timeout", "0"}, {"--timeout", "-1"}}) {
            StringWriter err = new StringWriter();
            int status = LaunchTool.run(new String[] {"run", "--dry-run", bad[0], bad[1], f.toString()},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            assertEquals(2, status, String.join(" ", bad) + ": " + err);
            assertTrue(err.toString().contains(bad[0] + " takes a number of seconds"), err.toString());
        }
        assertEquals(java.time.Duration.ofNanos(100_000), LaunchTool.Run.seconds("--timeout", 0.0001, false),
                "a time limit under a millisecond is kept, not rounded to 0");
        assertEquals(0, LaunchTool.run(new String[] {"run", "--dry-run", "--grace", "0", "--timeout", "0.5", f.toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true)));
    }

    /** Review: a missing file printed only its path ("error: /x/job.json"), not what was wrong with it. */
    @Test
    void aMissingFileIsNamedAsMissing(@org.junit.jupiter.api.io.TempDir Path dir) {
        Path missing = dir.resolve("no-such-job.json");
        StringWriter err = new StringWriter();
        assertEquals(1, LaunchTool.run(new String[] {"spec", missing.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true)));
        assertEquals("error: no such file: " + missing, err.toString().strip());
    }

    /**
     * A directory given for the job file was the JDK's bare "Is a directory" ("error: Is a directory",
     * naming no path): it is named as a directory, one line, status 1, by every command and by
     * {@link JobFile#read} itself.
     */
    @Test
    void aDirectoryIsNamedAsADirectory(@org.junit.jupiter.api.io.TempDir Path dir) {
        java.nio.file.FileSystemException e = assertThrows(java.nio.file.FileSystemException.class, () -> JobFile.read(dir));
        assertEquals(dir + ": a directory, not a file", e.getMessage());
        for (String command : new String[] {"run", "spec", "slurm"}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            assertEquals(1, LaunchTool.run(new String[] {command, dir.toString()}, new PrintWriter(out, true),
                    new PrintWriter(err, true)), command + ": " + err);
            assertEquals("error: " + dir + ": a directory, not a file", err.toString().strip(), command);
            assertEquals("", out.toString(), command);
        }
    }

    @Test
    void eachRunHasItsOwnIdentityUnlessTheFileNamesOne() throws Exception {
        JobFile job = JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ""));
        assertEquals("squares", job.name());
        String a = job.forRun().spec().id();
        String b = job.forRun().spec().id();
        assertTrue(a.startsWith("squares-"), a);
        assertNotEquals(a, b);
        JobFile named = JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"id\": \"run-7\""));
        assertEquals("run-7", named.forRun().spec().id());
    }

    @Test
    void theStallTimeoutIsOffUnlessGivenAndReachesTheJobText() throws Exception {
        String m = "\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}";
        assertTrue(JobFile.read(file(m, "")).forRun().spec().stallTimeout().isEmpty());
        JobFile on = JobFile.read(file(m, ", \"stallTimeoutSeconds\": 90"));
        assertEquals(java.time.Duration.ofSeconds(90), on.forRun().spec().stallTimeout().orElseThrow());
        assertTrue(on.spec().toText().contains("stallTimeoutMs=90000"), on.spec()::toText);
        assertTrue(refusal(m, ", \"stallTimeoutSeconds\": 0").contains("\"stallTimeoutSeconds\" must be a positive number"));
    }

    @Test
    void helpPrintsTheFormat() {
        StringWriter out = new StringWriter();
        assertEquals(0, LaunchTool.run(new String[] {"--help"}, new PrintWriter(out), new PrintWriter(new StringWriter())));
        assertTrue(out.toString().contains("livenessTimeoutSeconds") && out.toString().contains("stallTimeoutSeconds") && out.toString().contains("survivable"), out::toString);
        StringWriter runHelp = new StringWriter();
        assertEquals(0, LaunchTool.run(new String[] {"run", "--help"}, new PrintWriter(runHelp), new PrintWriter(new StringWriter())));
        assertTrue(runHelp.toString().contains("Job file (JSON)"), runHelp::toString);
    }

    @Test
    void aBadJobFileIsAUsageError() throws Exception {
        Path f = file("\"m\": {\"host\": \"127.0.0.1\", \"port\": \"x\"}", "");
        StringWriter err = new StringWriter();
        assertEquals(2, LaunchTool.run(new String[] {"spec", f.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true)));
        assertTrue(err.toString().contains("\"port\" must be a whole number"), err::toString);
    }

    @Test
    void theSlurmScriptRunsTheMasterAndTheWorkersInTwoSteps() throws Exception {
        JobFile job = JobFile.read(file("\"m\": {\"port\": 7100}, \"w1\": {\"port\": 7101}, \"w2\": {\"port\": 7102}", ""));
        String script = SlurmScript.script(job);
        assertTrue(script.contains("#SBATCH --nodes=3"), script);
        assertTrue(script.contains("BBFLOW_RANK_OFFSET=0 srun --nodes=1 --ntasks=1 --relative=0 --kill-on-bad-exit=0"), script);
        assertTrue(script.contains("BBFLOW_RANK_OFFSET=1 srun --nodes=2 --ntasks=2 --relative=1 --kill-on-bad-exit=0"), script);
        assertTrue(script.contains("export BBFLOW_JOB=id=squares-\"${SLURM_JOB_ID}\"';master=m;group.m=:7100;group.w1=:7101"),
                script);
    }

    /**
     * Hunt 3: the Slurm script dropped a group's own "jvmOptions" unseen: the master's step now runs the
     * master's, the workers' step the workers' (one command: they must agree, else a refusal names them).
     */
    @Test
    void theSlurmScriptKeepsTheGroupsJvmOptions() throws Exception {
        JobFile job = JobFile.read(file("\"m\": {\"port\": 7100, \"jvmOptions\": [\"-Xmx1g\"]},"
                + " \"w1\": {\"port\": 7101, \"jvmOptions\": [\"-Xmx4g\", \"-Da=b c\"]},"
                + " \"w2\": {\"port\": 7102, \"jvmOptions\": [\"-Xmx4g\", \"-Da=b c\"]}", ", \"jvmOptions\": [\"-ea\"]"));
        String script = SlurmScript.script(job);
        assertTrue(script.contains("--relative=0 --kill-on-bad-exit=0 java -ea -Xmx1g -cp "), script);
        assertTrue(script.contains("--relative=1 --kill-on-bad-exit=0 java -ea -Xmx4g '-Da=b c' -cp "), script);
        JobFile differ = JobFile.read(file("\"m\": {\"port\": 7100}, \"w1\": {\"port\": 7101, \"jvmOptions\": [\"-Xmx4g\"]},"
                + " \"w2\": {\"port\": 7102}", ""));
        String m = assertThrows(IllegalArgumentException.class, () -> SlurmScript.script(differ)).getMessage();
        assertTrue(m.contains("\"w1\" and \"w2\"") && m.contains("jvmOptions"), m);
    }

    /** Hunt 2: a key given twice in one object was taken from its last value, two groups of one name became one. */
    @Test
    void aKeyGivenTwiceIsRefused() throws Exception {
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}, \"m\": {\"host\": \"127.0.0.2\", \"port\": 7101}", "");
        assertTrue(m.contains(": groups: key \"m\" is given twice"), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100, \"port\": 7200}", "");
        assertTrue(m.contains(": groups.m: key \"port\" is given twice"), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"main\": \"y.Main\"");
        assertTrue(m.contains("key \"main\" is given twice"), m);
    }

    /**
     * Hunt 2: a name with '$' or '\\' failed each run with "No group 1" (the name was read as a regex
     * replacement), and a name that cannot make a job identity failed only when run.
     */
    @Test
    void theNameMustMakeAnIdentityAndIsTakenLiterally() throws Exception {
        JobFile job = JobFile.read(file("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"name\": \"a$1\\\\b\""));
        assertTrue(job.forRun().spec().id().startsWith("a$1\\b-"), job.forRun().spec().id());
        String m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"name\": \"my job\"");
        assertTrue(m.contains("\"name\"") && m.contains("'my job'"), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"name\": \"" + "n".repeat(54) + "\"");
        assertTrue(m.contains("\"name\""), m);
    }

    /** Hunt 2: the Slurm script put the job's name inside double quotes, so "$(...)" in it ran in the batch shell. */
    @Test
    void theSlurmScriptQuotesTheName() throws Exception {
        Path pwned = dir.resolve("pwned");
        String name = "x$(touch${IFS}pwned)`id`";
        JobFile job = JobFile.read(file("\"m\": {\"port\": 7100}, \"w\": {\"port\": 7101}",
                ", \"insecure\": true, \"name\": \"" + name + "\""));
        String export = SlurmScript.script(job).lines().filter(l -> l.startsWith("export BBFLOW_JOB=")).findFirst().orElseThrow();
        Process p = new ProcessBuilder("bash", "-c", export + "; printf %s \"$BBFLOW_JOB\"").directory(dir.toFile())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String got = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor());
        assertTrue(got.startsWith("id=" + name + "-;master=m;group.m=:7100;group.w=:7101"), got);
        assertTrue(!Files.exists(pwned), "the name ran as a command");
    }

    /**
     * Hunt 2: an empty "main" was taken (every group then failed to start its JVM), a blank "remote"
     * ran every group on the launcher's machine instead of its host, and a port of 1e999999999 was
     * refused without naming the group or key.
     */
    @Test
    void emptyMainOrTemplateAndHugePortsAreRefusedByName() throws Exception {
        Path f = dir.resolve("empty.json");
        Files.writeString(f, "{\"main\": \"\", \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        String m = assertThrows(IllegalArgumentException.class, () -> JobFile.read(f)).getMessage();
        assertTrue(m.contains("\"main\""), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}", ", \"remote\": \"  \"");
        assertTrue(m.contains("\"remote\""), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100, \"remote\": \"\"}", "");
        assertTrue(m.contains("group \"m\": \"remote\""), m);
        m = refusal("\"m\": {\"host\": \"127.0.0.1\", \"port\": 1e999999999}", "");
        assertTrue(m.contains("group \"m\": \"port\" must be a whole number from 1 to 65535"), m);
    }
}
