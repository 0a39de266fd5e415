package org.bbflow.examples;

import static org.bbflow.examples.UsageErrors.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input a new user gives the command line: each is a usage error (status 2) naming the option,
 * before anything runs, not a run that prints nonsense, ignores an option or never ends.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BadInputTest {
    /** A learning rate of NaN, 0, a negative one or one above 1 trained a meaningless map and reported it "the same map". */
    @Test
    void somAlphaOutOfRangeIsAUsageError() {
        for (String a : List.of("NaN", "Infinity", "-5", "0", "1.5", "1e300")) {
            String e = refused("som", "--no-progress", "--rows", "8", "--cols", "8", "--samples", "20", "--radius", "2",
                    "--workers", "2", "--alpha", a);
            assertTrue(e.contains("--alpha"), a + ": " + e);
        }
    }

    /** --samples replaces --seconds: given both, --seconds was silently ignored (a 10-sample run for "--seconds 5"). */
    @Test
    void testbenchSamplesAndSecondsTogetherAreAUsageError() {
        String e = refused("testbench", "--no-progress", "--samples", "10", "--seconds", "5");
        assertTrue(e.contains("--samples") && e.contains("--seconds"), e);
    }

    /**
     * demo runs every farm width from 1 to --workers in turn: --workers 100000 meant 100,000 farms of up to
     * 100,000 threads each, a run that never ended even on one 1-pixel row.
     */
    @Test
    void demoWorkersBeyondTheBoundIsAUsageError() {
        String e = refused("demo", "--no-progress", "--items", "1", "--width", "1", "--work", "1", "--workers", "100000");
        assertTrue(e.contains("--workers"), e);
    }

    /**
     * A size the heap cannot hold ended in a stack trace of an {@code OutOfMemoryError}; it is one line
     * naming the command, status 1. Run in a JVM of 64 MiB, where {@code demo --items 100000000} needs
     * 200 MB for its rows' checksums alone: the only way to run out of memory at once, on any machine.
     */
    @Test
    void outOfMemoryIsOneLineNotAStackTrace() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "demo", "--no-progress", "--items", "100000000", "--width", "1", "--work", "1",
                "--workers", "1").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "still running");
            assertEquals(1, p.exitValue(), err);
            List<String> lines = err.lines().toList();
            assertEquals(1, lines.size(), err);
            assertTrue(lines.get(0).startsWith("error: demo: out of memory") && lines.get(0).contains("-Xmx"), err);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A directory given where a file belongs (or a file where a directory does) was reported as
     * "no such file: /tmp", though it exists; the line now says what it is.
     */
    @Test
    void aDirectoryForAFileIsNamedAsSuch(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("points.csv"), "1,2\n");
        for (String[] argv : List.of(new String[] {"compress", "--no-progress", "--input", dir.toString()},
                new String[] {"bkd", "--no-progress", "--csv", dir.toString()},
                new String[] {"bkd-check", file.toString()})) {
            List<String> out = new ArrayList<>();
            List<String> err = new ArrayList<>();
            assertEquals(1, Main.run(argv, Output.into(out), Output.into(err)), List.of(argv) + ": " + err);
            assertEquals(1, err.size(), List.of(argv) + ": " + err);
            String e = err.get(0);
            assertTrue(!e.contains("no such file") && e.contains(argv[argv.length - 1])
                    && e.contains(argv[0].equals("bkd-check") ? "not a directory" : "a directory, not a file"),
                    List.of(argv) + ": " + e);
        }
    }

    /**
     * Counts beyond what the run can take were reported only once it ran (status 1): a farm of 100,000
     * compressing workers after the input was opened, a recorder batch whose buffer size overflowed
     * ("capacity < 0: (-1014444032 < 0)"). Both are usage errors naming the option now.
     */
    @Test
    void countsBeyondTheirBoundAreUsageErrorsNamingTheOption() {
        String e = refused("compress", "--no-progress", "--size", "1000", "--workers", "100000");
        assertTrue(e.contains("--workers") && e.contains("4096"), e);
        e = refused("testbench", "--no-progress", "--samples", "10", "--batch", "2000000000");
        assertTrue(e.contains("--batch"), e);
    }
}
