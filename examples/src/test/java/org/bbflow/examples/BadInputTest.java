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
     * bkd-check given a path that does not exist said "nosuch: not a directory", as if something were
     * there; it says there is no such directory: one line, status 1 (a run error, as a missing input
     * file is for the other commands), nothing on the output.
     */
    @Test
    void bkdCheckOfAMissingDirectorySaysSo(@TempDir Path dir) throws Exception {
        String missing = dir.resolve("nosuch").toString();
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        assertEquals(1, Main.run(new String[] {"bkd-check", missing}, Output.into(out), Output.into(err)), err.toString());
        assertEquals(List.of("error: bkd-check: " + missing + ": no such directory"), err);
        assertEquals(List.of(), out);
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

    /**
     * A map past one array's length printed its header and failed "integer overflow", status 1 (100,000 x
     * 100,000, or 8 x 8 with 100,000,000 weights per neuron); it is a usage error naming the options and
     * the bound, before anything runs.
     */
    @Test
    void somMapBeyondAnArrayIsAUsageErrorNamingTheBound() {
        for (String[] size : List.of(new String[] {"100000", "100000", "3"}, new String[] {"46341", "46341", "1"},
                new String[] {"8", "8", "100000000"}, new String[] {"2000000000", "2000000000", "2000000000"})) {
            String e = refused("som", "--no-progress", "--rows", size[0], "--cols", size[1], "--dims", size[2],
                    "--samples", "1", "--radius", "1", "--workers", "1");
            assertTrue(e.contains("--rows") && e.contains("--cols") && e.contains("--dims")
                    && e.contains("2,147,483,639"), List.of(size) + ": " + e);
        }
    }

    /**
     * som trains with every farm width from 1 to --workers, as demo does: --workers 100000 on a
     * 100,000-row map never ended.
     */
    @Test
    void somWorkersBeyondTheBoundIsAUsageError() {
        String w = Integer.toString(SomCommand.MAX_WORKERS + 1); // one past the bound: ran 257 farms before
        String e = refused("som", "--no-progress", "--rows", w, "--cols", "1", "--dims", "1", "--samples", "1",
                "--radius", "1", "--workers", w);
        assertTrue(e.contains("--workers") && e.contains(Integer.toString(SomCommand.MAX_WORKERS)), e);
    }

    /**
     * A directory given for a file the command reads or writes was the JDK's bare wording ("java.io.IOException:
     * Is a directory", "FileSystemException: d: Is a directory" after the run's header), or "no such file" of
     * TLS files that exist; it is named as a directory, one line, status 1, and nothing runs.
     */
    @Test
    void aDirectoryForAFileReadOrWrittenIsNamedAsSuch(@TempDir Path dir) throws Exception {
        String d = dir.toString();
        for (String[] argv : List.of(new String[] {"launch", d},
                new String[] {"testbench", "--no-progress", "--samples", "10", "--output", d},
                new String[] {"compress", "--no-progress", "--size", "1000", "--output", d},
                new String[] {"worker", "--port", "0", "--secret-file", d},
                new String[] {"master", "--workers", "127.0.0.1:1", "--items", "1", "--secret-file", d},
                new String[] {"worker", "--port", "0", "--tls", "--tls-cert", d, "--tls-key", d, "--tls-trust", d})) {
            List<String> out = new ArrayList<>();
            List<String> err = new ArrayList<>();
            assertEquals(1, Main.run(argv, Output.into(out), Output.into(err)), List.of(argv) + ": " + err);
            assertEquals(List.of("error: " + argv[0] + ": " + d + ": a directory, not a file"), err, List.of(argv).toString());
            assertEquals(List.of(), out, List.of(argv).toString());
        }
    }

    /**
     * An output file in a directory that does not exist failed after the header ("no such file"); it is
     * said before anything runs, naming the missing directory.
     */
    @Test
    void anOutputInAMissingDirectoryIsNamedBeforeTheRun(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-dir");
        String file = missing.resolve("out.bin").toString();
        for (String[] argv : List.of(new String[] {"testbench", "--no-progress", "--samples", "10", "--output", file},
                new String[] {"compress", "--no-progress", "--size", "1000", "--output", file})) {
            List<String> out = new ArrayList<>();
            List<String> err = new ArrayList<>();
            assertEquals(1, Main.run(argv, Output.into(out), Output.into(err)), List.of(argv) + ": " + err);
            assertEquals(List.of("error: " + argv[0] + ": " + file + ": its directory " + missing + " does not exist"),
                    err, List.of(argv).toString());
            assertEquals(List.of(), out, List.of(argv).toString());
        }
        // a file where the directory belongs: it exists, so "does not exist" would mislead
        Path plain = Files.writeString(dir.resolve("plain.txt"), "x");
        List<String> err = new ArrayList<>();
        String under = plain.resolve("out.bin").toString();
        assertEquals(1, Main.run(new String[] {"testbench", "--no-progress", "--samples", "10", "--output", under},
                Output.silent(), Output.into(err)), err.toString());
        assertEquals(List.of("error: testbench: " + under + ": its directory " + plain + " is a file, not a directory"), err);
    }

    /**
     * compress --input F --output F truncated F to 0 bytes before reading it (then reported a mismatch):
     * the user's file was lost. The same file, by its name or through a link, is a usage error naming both
     * options, and the file is left as it was.
     */
    @Test
    void compressOutputSameAsInputIsRefusedAndTheInputKept(@TempDir Path dir) throws Exception {
        Path input = Files.writeString(dir.resolve("in.log"), "a line of the log\n".repeat(100));
        byte[] before = Files.readAllBytes(input);
        Path link = Files.createSymbolicLink(dir.resolve("link.log"), input);
        for (Path output : List.of(input, link, dir.resolve(".").resolve("in.log"))) {
            String e = refused("compress", "--no-progress", "--input", input.toString(), "--output", output.toString());
            assertTrue(e.contains("--output") && e.contains("--input") && e.contains("truncate"), output + ": " + e);
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(input)), output + ": the input changed");
        }
    }

    /**
     * Counts of threads beyond the farm's bound (4,096, Parallelism.MAX) failed only once running (testbench
     * --sensors, bkd --inserters, after the header), never ended (bkd --readers) or failed once a master
     * connected (worker --threads); each is a usage error naming the option and the bound.
     */
    @Test
    void threadCountsBeyondTheFarmBoundAreUsageErrors() {
        String n = Integer.toString(org.bbflow.core.Parallelism.MAX + 1); // one past the bound
        for (String[] argv : List.of(new String[] {"testbench", "--no-progress", "--samples", "10", "--sensors", n},
                new String[] {"bkd", "--no-progress", "--points", "1000", "--inserters", n},
                new String[] {"bkd", "--no-progress", "--points", "1000", "--readers", n},
                new String[] {"worker", "--port", "0", "--threads", n})) {
            String e = refused(argv);
            assertTrue(e.contains(argv[argv.length - 2]) && e.contains("4096"), List.of(argv) + ": " + e);
        }
    }

    /**
     * testbench --rate 9e18 ran and reported "-1,786,976,294,838,206,464 samples/s offered" (sensors x
     * rate overflowed) and latencies from overflowed due times, status 0. Due times are whole nanoseconds,
     * so the rate is at most 1e9 a sensor; one past it is a usage error naming --rate.
     */
    @Test
    void testbenchRateBeyondOneSampleANanosecondIsAUsageError() {
        for (String rate : List.of(Long.toString(TestBenchCommand.MAX_RATE + 1), "9000000000000000000")) {
            String e = refused("testbench", "--no-progress", "--samples", "10", "--rate", rate);
            assertTrue(e.contains("--rate") && e.contains("1000000000"), rate + ": " + e);
        }
    }

    /**
     * Sizes no disk holds ran until the disk was full, filling it: compress --size 1000000g (the generated
     * log, in the temporary directory) and testbench --samples 1e15 (8 sensors x 36 bytes a sample of
     * recording). Both are usage errors naming the options and the free space, before anything is written.
     */
    @Test
    void sizesBeyondTheFreeDiskSpaceAreUsageErrors() {
        String e = refused("compress", "--no-progress", "--size", "1000000g");
        assertTrue(e.contains("--size") && e.contains("free"), e);
        e = refused("testbench", "--no-progress", "--samples", "1000000000000000", "--rate", "1000000000");
        assertTrue(e.contains("--sensors") && e.contains("samples") && e.contains("free"), e);
    }

    /**
     * master --workers A,A (or 127.0.0.1:P,localhost:P) ran the peer timeout, 30 s, while the worker
     * refused the second connection once a second, then failed "refused by localhost:P: stream owned by a
     * connected sender", status 1. Naming one worker twice is a usage error, before any connection.
     */
    @Test
    void masterGivenOneWorkerTwiceIsAUsageError() {
        for (String workers : List.of("127.0.0.1:1,127.0.0.1:1", "127.0.0.1:1,localhost:1")) {
            String e = refused("master", "--workers", workers, "--items", "1");
            assertTrue(e.contains("--workers") && e.contains("twice"), workers + ": " + e);
        }
    }

    /**
     * bkd --directory FILE/idx (a file where a parent directory belongs) printed the header and failed
     * "cannot open index directory ...: Not a directory", status 1; it is a usage error naming
     * --directory and the file, before anything runs.
     */
    @Test
    void bkdDirectoryUnderAFileIsAUsageError(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain.txt"), "x");
        String e = refused("bkd", "--no-progress", "--points", "100", "--directory", file.resolve("a").resolve("idx").toString());
        assertTrue(e.contains("--directory") && e.contains(file + " is a file, not a directory"), e);
    }
}
