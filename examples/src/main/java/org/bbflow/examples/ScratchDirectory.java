package org.bbflow.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A new directory for a program's temporary files, deleted with everything in it when closed, or
 * when the JVM exits before that: Ctrl-C and {@code kill} run the JVM's shutdown hooks but no
 * {@code finally} block of a running program, which used to leave a generated input of gigabytes
 * behind.
 *
 * <pre>{@code
 * try (ScratchDirectory scratch = ScratchDirectory.create("bbflow-compress")) {
 *     Path input = scratch.path().resolve("sensors.log");
 *     ...
 * }
 * }</pre>
 */
public final class ScratchDirectory implements AutoCloseable {
    private final Path path;
    private final Thread onExit;

    private ScratchDirectory(Path path) {
        this.path = path;
        this.onExit = new Thread(() -> {
            try {
                delete(path);
            } catch (IOException | UncheckedIOException e) {
                // the JVM is exiting: nothing to report to
            }
        }, "delete " + path);
    }

    /**
     * Creates a directory under the system's temporary directory.
     *
     * @param prefix the start of its name
     * @return the new directory, empty
     * @throws IOException if it cannot be created
     */
    public static ScratchDirectory create(String prefix) throws IOException {
        ScratchDirectory d = new ScratchDirectory(Files.createTempDirectory(prefix));
        Runtime.getRuntime().addShutdownHook(d.onExit);
        return d;
    }

    /**
     * The directory.
     *
     * @return where the temporary files go
     */
    public Path path() {
        return path;
    }

    /**
     * Deletes the directory and everything in it. Idempotent.
     *
     * @throws IOException if something in it cannot be deleted
     */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook deletes the directory
            return;
        }
        delete(path);
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.sorted(Comparator.reverseOrder()).toList();   // children before their directory
        }
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }
}
