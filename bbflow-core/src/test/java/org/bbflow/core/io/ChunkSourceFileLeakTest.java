package org.bbflow.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ChunkSource#of(Path, long, int, int)} opened its file when the source was built, and only a
 * flow that ran the source closed it: a refused {@link Flow#start} (or a source never started) left
 * one descriptor open per attempt. Counts this JVM's descriptors of the file through
 * {@code /proc/self/fd} (Linux only).
 */
@Timeout(60)
class ChunkSourceFileLeakTest {
    private static final int ATTEMPTS = 20;

    @TempDir
    Path dir;

    @Test
    void aSourceWhoseFlowNeverRanHoldsNoFileOpen() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd (Linux)");
        Path file = Files.write(dir.resolve("in.bin"), new byte[1000]);
        for (int i = 0; i < ATTEMPTS; i++) {
            ChunkSource src = ChunkSource.of(file, 4096, 2, 10);
            Node<Chunk, Chunk> twice = Nodes.identity();
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Flow.start(Pipeline.of(src, twice, twice, Nodes.sink((Chunk c) -> c.release()))));
            assertTrue(refused.getMessage().contains("appears twice"), refused.getMessage());
            ChunkSource.of(file, 4096, 2, 10); // built and never started
        }
        assertEquals(0, openDescriptorsOf(file, fds),
            "descriptors of " + file + " left open after " + ATTEMPTS + " refused starts and " + ATTEMPTS
                + " sources never started");

        // the retry with the composition fixed reads the file, and closes it at the end
        ChunkSource src = ChunkSource.of(file, 4096, 2, 10);
        AtomicLong bytes = new AtomicLong();
        Pipeline.of(src, Nodes.sink((Chunk c) -> {
            bytes.addAndGet(c.length());
            c.release();
        })).run();
        assertEquals(1000, bytes.get());
        assertEquals(0, openDescriptorsOf(file, fds), "the file stays open after its flow ended");
    }

    @Test
    void aMissingFileIsStillRefusedWhenTheSourceIsBuilt() {
        Path missing = dir.resolve("missing.bin");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> ChunkSource.of(missing, 4096, 2, 10));
        assertInstanceOf(NoSuchFileException.class, e.getCause());
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void aFileRemovedBeforeTheStartFailsThatFlowNamingIt() throws IOException {
        Path file = Files.write(dir.resolve("gone.bin"), new byte[100]);
        ChunkSource src = ChunkSource.of(file, 4096, 2, 10);
        Files.delete(file);
        FlowException e = assertThrows(FlowException.class,
            () -> Pipeline.of(src, Nodes.sink((Chunk c) -> c.release())).run());
        assertInstanceOf(NoSuchFileException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(file.toString()), e.getCause().getMessage());
    }

    private static long openDescriptorsOf(Path file, Path fds) throws IOException {
        Path real = file.toRealPath();
        long n = 0;
        try (DirectoryStream<Path> links = Files.newDirectoryStream(fds)) {
            for (Path link : links) {
                try {
                    if (Files.readSymbolicLink(link).equals(real)) {
                        n++;
                    }
                } catch (IOException e) {
                    // the descriptor closed while listing (the stream's own one, another thread's): not the file
                }
            }
        }
        return n;
    }
}
