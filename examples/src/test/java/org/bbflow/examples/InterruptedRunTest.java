package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command stopped by Ctrl-C (or {@code kill}) leaves none of its temporary files: the JVM runs its
 * shutdown hooks on SIGINT and SIGTERM alike, but no {@code finally} block of the main thread. Each
 * case runs the command in a child JVM whose temporary directory is the test's, stops it with
 * SIGTERM once its first temporary file has data, and looks at what is left.
 */
class InterruptedRunTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(90)
    void aStoppedCompressDeletesItsGeneratedInputAndOutputs() throws Exception {
        stopOnceWritten(List.of("compress", "--size", "4g", "--no-progress"), "sensors.log");
    }

    @Test
    @Timeout(90)
    void aStoppedTestBenchDeletesItsRecording() throws Exception {
        stopOnceWritten(List.of("testbench", "--seconds", "600", "--no-progress"), ".rec");
    }

    private void stopOnceWritten(List<String> args, String suffix) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(tmp.resolveSibling(tmp.getFileName() + ".log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!written(suffix) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(written(suffix), "no " + suffix + " with data appeared under " + tmp + "; alive " + p.isAlive());
            p.destroy();   // SIGTERM: the JVM shuts down as on Ctrl-C
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the command did not stop");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(List.of(), left(), "temporary files left behind");
    }

    private boolean written(String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            return s.anyMatch(f -> f.getFileName().toString().endsWith(suffix) && sizeOf(f) > 0);
        }
    }

    private static long sizeOf(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;   // deleted meanwhile
        }
    }

    /** Everything under the temporary directory but the JVM's own files (hsperfdata). */
    private List<String> left() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            return s.filter(f -> !f.equals(tmp)).map(f -> tmp.relativize(f).toString())
                    .filter(f -> !f.startsWith("hsperfdata")).sorted().toList();
        }
    }
}
