package org.bbflow.examples.nbuf;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.core.io.Chunk;
import org.bbflow.core.io.ChunkSource;
import org.bbflow.examples.Machine;
import org.bbflow.examples.Output;
import org.bbflow.examples.ProgressLine;
import org.bbflow.examples.ScratchDirectory;

/**
 * Compresses a large file chunk by chunk in parallel within a memory limit (the nbuf pattern):
 *
 * <pre>{@code
 * ChunkSource source = ChunkSource.of(input, memoryLimit / 2, buffers, 1);   // n pooled buffers
 * Pipeline.of(source,
 *             Farm.of(workers, ChunkCompressor::new).ordered(),             // deflate + CRC-32
 *             new FrameWriter(output))                                      // frames, in input order
 *         .run();
 * }</pre>
 *
 * Reading overlaps compressing: the source fills the next free buffer while workers deflate the
 * previous ones, and waits when all {@code n} buffers are in use. A chunk's buffer goes back to the
 * pool only when its compressed frame has been written, so at most {@code n} input buffers and
 * {@code n} compressed copies exist at once: half the limit each. The output is a sequence of
 * frames {@code [raw length][compressed length][CRC-32 of the raw bytes][deflated bytes]}, which
 * must be byte-identical to what the sequential loop writes, and which decompresses back to the
 * input.
 */
public final class ParallelCompress {
    private ParallelCompress() {
    }

    /**
     * What to compress and how.
     *
     * @param input the file to compress, or null to generate a synthetic log file of {@code size}
     * @param size bytes of the generated input
     * @param output where the parallel output goes, or null for a temporary file
     * @param memoryLimit bytes for buffers: half for input chunks, half for compressed copies
     * @param chunkSize bytes per chunk
     * @param workers compressing workers
     * @param level deflate level 0..9
     * @param progress whether to print progress lines
     */
    public record Options(Path input, long size, Path output, long memoryLimit, int chunkSize, int workers, int level,
                          boolean progress) {
        /** Defaults: a generated 64 MiB log, 1 MiB chunks, 16 MiB of buffers. */
        public static Options defaults() {
            return new Options(null, 64L << 20, null, 16L << 20, 1 << 20,
                    Math.max(2, Runtime.getRuntime().availableProcessors()), 6, true);
        }

        /**
         * Checks the options.
         *
         * @return these options
         * @throws IllegalArgumentException if a value is out of range or the memory holds too few chunks
         */
        public Options validated() {
            if (workers < 1 || level < 0 || level > 9 || size < 0) {
                throw new IllegalArgumentException("need --workers >= 1, --level 0..9, --size >= 0");
            }
            if (memoryLimit / 2 / chunkSize < 2) {
                throw new IllegalArgumentException("--memory " + memoryLimit + " holds fewer than 2 input and 2 output"
                        + " chunks of --chunk " + chunkSize + "; raise --memory or lower --chunk");
            }
            return this;
        }

        /** Input buffers: half the memory limit in chunks. */
        public int buffers() {
            return (int) Math.min(1024, memoryLimit / 2 / chunkSize);
        }
    }

    /** One compressed chunk, still holding its input buffer until the frame is written. */
    public record Frame(long sequence, int rawLength, int crc, byte[] deflated, Chunk source) {
    }

    /** Deflates one chunk and computes the CRC-32 of its raw bytes. Reusable, not thread-safe. */
    static final class Compressor {
        private final Deflater deflater;
        private final CRC32 crc = new CRC32();
        private byte[] scratch = new byte[64 * 1024];

        Compressor(int level) {
            deflater = new Deflater(level);
        }

        byte[] deflate(byte[] raw, int length) {
            deflater.reset();
            deflater.setInput(raw, 0, length);
            deflater.finish();
            int n = 0;
            while (!deflater.finished()) {
                if (n == scratch.length) {
                    scratch = Arrays.copyOf(scratch, scratch.length * 2);
                }
                n += deflater.deflate(scratch, n, scratch.length - n);
            }
            return Arrays.copyOf(scratch, n);
        }

        int crc(byte[] raw, int length) {
            crc.reset();
            crc.update(raw, 0, length);
            return (int) crc.getValue();
        }

        void end() {
            deflater.end();
        }
    }

    /** The farm worker: compresses each chunk into a frame. */
    static final class ChunkCompressor implements Node<Chunk, Frame> {
        private final int level;
        private Compressor compressor;

        ChunkCompressor(int level) {
            this.level = level;
        }

        @Override
        public void init(NodeContext context) {
            compressor = new Compressor(level);
        }

        @Override
        public void onItem(Chunk c, Outbox<Frame> out) {
            byte[] deflated = compressor.deflate(c.array(), c.length());
            out.send(new Frame(c.sequence(), c.length(), compressor.crc(c.array(), c.length()), deflated, c));
        }

        @Override
        public void close() {
            if (compressor != null) {
                compressor.end();
            }
        }

        @Override
        public String name() {
            return "deflate";
        }
    }

    /** The sink: writes frames in arrival order (the ordered farm's order) and releases their buffers. */
    static final class FrameWriter implements Node<Frame, Void> {
        private final Path file;
        private final AtomicLong rawBytesDone;
        private DataOutputStream out;
        private long expected;
        boolean inOrder = true;
        long frames;
        long compressedBytes;

        FrameWriter(Path file, AtomicLong rawBytesDone) {
            this.file = file;
            this.rawBytesDone = rawBytesDone;
        }

        @Override
        public void init(NodeContext context) throws IOException {
            out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        }

        @Override
        public void onItem(Frame f, Outbox<Void> unused) throws IOException {
            try {
                if (f.sequence() != expected++) {
                    inOrder = false;
                }
                writeFrame(out, f.rawLength(), f.crc(), f.deflated());
                frames++;
                compressedBytes += f.deflated().length;
                rawBytesDone.addAndGet(f.rawLength());
            } finally {
                f.source().release(); // the input buffer goes back to the pool
            }
        }

        @Override
        public void close() throws IOException {
            if (out != null) {
                out.close();
            }
        }

        @Override
        public String name() {
            return "frame-writer";
        }
    }

    static void writeFrame(DataOutputStream out, int rawLength, int crc, byte[] deflated) throws IOException {
        out.writeInt(rawLength);
        out.writeInt(deflated.length);
        out.writeInt(crc);
        out.write(deflated);
    }

    /** One timed compression. */
    public record Run(String name, int workers, double seconds, double coresUsed, long frames, long compressedBytes,
                      boolean inOrder, int peakBuffers, RunStats stats) {
    }

    /**
     * The outcome.
     *
     * @param inputBytes size of the input
     * @param sequential the loop's run
     * @param parallel the farm's run
     * @param identicalOutput whether the two output files are byte for byte the same
     * @param roundTrip whether the parallel output decompresses to the input with every CRC matching
     */
    public record Result(long inputBytes, Run sequential, Run parallel, boolean identicalOutput, boolean roundTrip,
                         int buffers, int bufferSize) {
    }

    /** Compresses with a plain loop: the same chunks, the same frames. */
    static Run compressSequential(Path input, Path output, int chunkSize, int level) throws IOException {
        Compressor c = new Compressor(level);
        long frames = 0;
        long compressed = 0;
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        try (InputStream in = Files.newInputStream(input);
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(output), 1 << 16))) {
            byte[] buffer = new byte[chunkSize];
            int n;
            while ((n = in.readNBytes(buffer, 0, chunkSize)) > 0) {
                byte[] deflated = c.deflate(buffer, n);
                writeFrame(out, n, c.crc(buffer, n), deflated);
                frames++;
                compressed += deflated.length;
            }
        } finally {
            c.end();
        }
        long wall = System.nanoTime() - t0;
        return new Run("sequential", 0, wall / 1e9, Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall), frames,
                compressed, true, 1, null);
    }

    /** Compresses with source -> ordered farm -> frame writer. */
    static Run compressParallel(Options o, Path input, Path output, Output log) {
        ChunkSource source = ChunkSource.of(input, (long) o.buffers() * o.chunkSize, o.buffers(), 1);
        AtomicLong rawDone = new AtomicLong();
        FrameWriter writer = new FrameWriter(output, rawDone);
        Pipeline<Void, Void> flow = Pipeline.of(
                source,
                Farm.of(o.workers, () -> new ChunkCompressor(o.level)).ordered(),
                writer);
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        Flow running = Flow.start(flow);
        RunStats stats;
        try (ProgressLine p = o.progress
                ? ProgressLine.start(log, "compress " + o.workers + "w", running, () -> rawDone.get() >> 20, "MiB") : null) {
            stats = running.join();
        }
        long wall = System.nanoTime() - t0;
        return new Run("farm " + o.workers + "w", o.workers, wall / 1e9,
                Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall), writer.frames, writer.compressedBytes,
                writer.inOrder, source.pool().peakInUse(), stats);
    }

    /** Reads the frames back, checks every CRC and compares the inflated bytes with the input. */
    static boolean decompressesTo(Path compressed, Path original) throws IOException {
        Inflater inflater = new Inflater();
        CRC32 crc = new CRC32();
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(compressed)));
             InputStream expected = new java.io.BufferedInputStream(Files.newInputStream(original))) {
            while (true) {
                int rawLength;
                try {
                    rawLength = in.readInt();
                } catch (EOFException end) {
                    return expected.read() == -1;
                }
                byte[] deflated = new byte[in.readInt()];
                int frameCrc = in.readInt();
                in.readFully(deflated);
                byte[] raw = new byte[rawLength];
                inflater.reset();
                inflater.setInput(deflated);
                int n = 0;
                while (n < rawLength && !inflater.finished()) {
                    n += inflater.inflate(raw, n, rawLength - n);
                }
                crc.reset();
                crc.update(raw, 0, n);
                if (n != rawLength || (int) crc.getValue() != frameCrc
                        || !Arrays.equals(raw, expected.readNBytes(rawLength))) {
                    return false;
                }
            }
        } catch (DataFormatException e) {
            return false;
        } finally {
            inflater.end();
        }
    }

    /** Writes a synthetic, seeded sensor log of about {@code size} bytes: compressible, not trivial. */
    public static void generateLog(Path file, long size, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        String[] status = {"OK", "OK", "OK", "OK", "WARN", "OK", "OK", "ERROR"};
        long written = 0;
        long millis = 1_763_712_000_000L;
        StringBuilder line = new StringBuilder(96);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            while (written < size) {
                millis += random.nextInt(1, 20);
                line.setLength(0);
                line.append(millis).append(" sensor-").append(random.nextInt(64))
                        .append(" temp=").append((2000 + (int) (random.nextGaussian() * 300)) / 100.0)
                        .append(" rpm=").append(1500 + random.nextInt(500))
                        .append(" status=").append(status[random.nextInt(status.length)]).append('\n');
                int n = (int) Math.min(line.length(), size - written);
                w.append(line, 0, n);
                written += n;
            }
        }
    }

    /** Compresses sequentially and in parallel, then verifies; temporary files are deleted. */
    public static Result run(Options o, Output log) throws IOException {
        o.validated();
        try (ScratchDirectory scratch = ScratchDirectory.create("bbflow-compress")) {
            Path dir = scratch.path();
            Path input = o.input;
            if (input == null) {
                input = dir.resolve("sensors.log");
                generateLog(input, o.size, 42);
            }
            Path seqOut = dir.resolve("sequential.bbz");
            Path parOut = o.output != null ? o.output : dir.resolve("parallel.bbz");
            int bufferSize = o.chunkSize;
            Run seq = compressSequential(input, seqOut, bufferSize, o.level);
            Run par = compressParallel(o, input, parOut, log);
            boolean identical = Files.mismatch(seqOut, parOut) == -1;
            boolean roundTrip = decompressesTo(parOut, input);
            return new Result(Files.size(input), seq, par, identical, roundTrip, o.buffers(), bufferSize);
        }
    }

    /**
     * The {@code compress} subcommand: compresses sequentially and in parallel and prints the comparison.
     *
     * @param o the options
     * @param out where to print
     * @return 0 if the outputs are identical, in order and decompress to the input, else 1
     * @throws IOException if a file cannot be read or written
     */
    public static int main(Options o, Output out) throws IOException {
        out.println(String.format(Locale.ROOT, "Compressing %s in %,d-byte chunks, %d buffers (%,d bytes of input"
                        + " buffers, memory limit %,d), %d workers, deflate level %d",
                o.input != null ? o.input : "a generated " + (o.size >> 20) + " MiB sensor log", o.chunkSize,
                o.buffers(), (long) o.buffers() * o.chunkSize, o.memoryLimit, o.workers, o.level));
        Result r = run(o, out);
        out.println(String.format(Locale.ROOT, "%-12s %9s %10s %8s %8s %10s %12s", "run", "time s", "MiB/s", "frames",
                "speedup", "cores used", "peak buffers"));
        for (Run run : List.of(r.sequential(), r.parallel())) {
            out.println(String.format(Locale.ROOT, "%-12s %9.3f %10.1f %8d %8.2f %10.2f %12s", run.name(), run.seconds(),
                    r.inputBytes() / run.seconds() / (1 << 20), run.frames(), r.sequential().seconds() / run.seconds(),
                    run.coresUsed(), run.workers() == 0 ? "1" : run.peakBuffers() + " of " + r.buffers()));
        }
        out.println(String.format(Locale.ROOT, "input %,d bytes -> %,d bytes (ratio %.2f)", r.inputBytes(),
                r.parallel().compressedBytes() + 12L * r.parallel().frames(),
                (double) r.inputBytes() / Math.max(1, r.parallel().compressedBytes() + 12L * r.parallel().frames())));
        out.println("parallel output identical to sequential output: " + (r.identicalOutput() ? "yes" : "NO"));
        out.println("frames written in input order: " + (r.parallel().inOrder() ? "yes" : "NO"));
        out.println("decompresses to the input, every CRC-32 matching: " + (r.roundTrip() ? "yes" : "NO"));
        out.println("");
        out.println("per-node statistics:");
        for (String line : r.parallel().stats().table().split("\n")) {
            out.println(line);
        }
        Machine.warnIfBusy(out);
        return r.identicalOutput() && r.roundTrip() && r.parallel().inOrder() ? 0 : 1;
    }
}
