package org.bbflow.bench.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.io.Chunk;
import org.bbflow.core.io.ChunkProcessor;
import org.bbflow.core.io.ChunkSink;
import org.bbflow.core.io.ChunkSource;
import org.bbflow.core.io.NBufJob;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The n-buffered source against a plain sequential read loop over the same file (ms per pass over
 * the file; the file stays in the page cache, so this measures the library's overhead over memory
 * speed, the harder case for it). Both read 1 MiB at a time and apply the same trivial processing
 * (one byte per 4 KiB record summed).
 *
 * <ul>
 *   <li>{@code plainRead}: one thread, {@code FileChannel.read} into one buffer, process, repeat.</li>
 *   <li>{@code nbufTrivial}: {@link ChunkSource} (4 buffers of 1 MiB in a 4 MiB limit) and one
 *       worker, output switched off. Headline: {@code nbufTrivial / plainRead} (1.0 = runs at the
 *       read loop's speed).</li>
 *   <li>{@code nbufCpuBound}: a CPU-bound per-chunk job (a multiply-add hash over every byte) on
 *       {@code workers} farm workers; speedup = time(1) / time(workers).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class NBufBench {
    static final int STRIDE = 4096;
    static final int BUFFER = 1 << 20;
    static final int BUFFERS = 4;

    /** File size in MiB. */
    @Param({"64"})
    public int fileMiB;

    /** Farm workers for the CPU-bound job. */
    @Param({"1", "2"})
    public int workers;

    private Path file;

    /** Writes the input file. */
    @Setup(Level.Trial)
    public void createFile() throws IOException {
        file = Files.createTempFile("bbflow-nbuf-bench", ".bin");
        byte[] block = new byte[BUFFER];
        new Random(42).nextBytes(block);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (int i = 0; i < fileMiB; i++) {
                ByteBuffer b = ByteBuffer.wrap(block);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
        }
    }

    /** Deletes the input file. */
    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        Files.deleteIfExists(file);
    }

    static long trivial(byte[] a, int len) {
        long s = 0;
        for (int i = 0; i < len; i += STRIDE) {
            s += a[i];
        }
        return s;
    }

    static long cpuBound(byte[] a, int len) {
        long h = 1125899906842597L;
        for (int i = 0; i < len; i++) {
            h = 31 * h + a[i];
        }
        return h;
    }

    /** Sums a long per worker. */
    static final class Summing implements ChunkProcessor<Long> {
        private final boolean heavy;
        private long sum;

        Summing(boolean heavy) {
            this.heavy = heavy;
        }

        @Override
        public void process(Chunk c) {
            sum += heavy ? cpuBound(c.array(), c.length()) : trivial(c.array(), c.length());
        }

        @Override
        public Long result() {
            return sum;
        }
    }

    /** Baseline: a sequential read-and-process loop. */
    @Benchmark
    public long plainRead() throws IOException {
        byte[] a = new byte[BUFFER];
        ByteBuffer b = ByteBuffer.wrap(a);
        long sum = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (;;) {
                b.clear();
                while (b.hasRemaining() && ch.read(b) >= 0) {
                    // fill the buffer like the n-buffered source does
                }
                if (b.position() == 0) {
                    return sum;
                }
                sum += trivial(a, b.position());
            }
        }
    }

    /** The n-buffered source with the same trivial processing on one worker. */
    @Benchmark
    public long nbufTrivial() {
        Long r = NBufJob.of(ChunkSource.of(file, (long) BUFFERS * BUFFER, BUFFERS, STRIDE), () -> new Summing(false))
            .to(ChunkSink.none()).run().value();
        return r == null ? 0 : r;
    }

    /** A CPU-bound per-chunk job on {@code workers} farm workers. */
    @Benchmark
    public long nbufCpuBound() {
        Long r = NBufJob.of(ChunkSource.of(file, (long) (workers + 2) * BUFFER, workers + 2, STRIDE),
                () -> new Summing(true))
            .workers(workers).merge((x, y) -> x ^ y).run().value();
        return r == null ? 0 : r;
    }
}
