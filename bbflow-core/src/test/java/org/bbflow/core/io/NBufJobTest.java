package org.bbflow.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.bbflow.testing.TestSeed;

/** The nbuf configurations: same bytes and same accumulated result as a plain sequential loop. */
class NBufJobTest {
    @TempDir
    Path dir;

    /** Stream-wide accumulator: records seen and the sum of all input bytes. */
    record Totals(long records, long byteSum) {
        Totals plus(Totals o) {
            return new Totals(records + o.records, byteSum + o.byteSum);
        }
    }

    /** Reverses every record in place and accumulates; remembers every buffer it has seen. */
    static final class Reverser implements ChunkProcessor<Totals> {
        final Map<byte[], Boolean> buffersSeen;
        long records;
        long byteSum;

        Reverser(Map<byte[], Boolean> buffersSeen) {
            this.buffersSeen = buffersSeen;
        }

        @Override
        public void process(Chunk c) {
            synchronized (buffersSeen) {
                buffersSeen.put(c.array(), Boolean.TRUE);
            }
            assertTrue(c.pool().inUse() <= c.pool().buffers());
            byte[] a = c.array();
            int stride = c.stride();
            for (int off = 0; off < c.length(); off += stride) {
                int end = Math.min(off + stride, c.length());
                for (int i = off; i < end; i++) {
                    byteSum += a[i] & 0xFF;
                }
                for (int i = off, j = end - 1; i < j; i++, j--) {
                    byte t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                }
                records++;
            }
        }

        @Override
        public Totals result() {
            return new Totals(records, byteSum);
        }
    }

    static byte[] expectedOutput(byte[] in, int stride) {
        byte[] out = in.clone();
        for (int off = 0; off < out.length; off += stride) {
            int end = Math.min(off + stride, out.length);
            for (int i = off, j = end - 1; i < j; i++, j--) {
                byte t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
        }
        return out;
    }

    static Totals expectedTotals(byte[] in, int stride) {
        long sum = 0;
        for (byte b : in) {
            sum += b & 0xFF;
        }
        return new Totals((in.length + stride - 1) / stride, sum);
    }

    /** Records as strings, sorted: equal multisets for unordered output. */
    static List<String> sortedRecords(byte[] data, int stride) {
        // Unordered output permutes whole chunks; records inside a chunk keep their boundaries
        // because every chunk but the last one is a multiple of the stride.
        List<String> r = new ArrayList<>();
        for (int off = 0; off < data.length; off += stride) {
            r.add(Arrays.toString(Arrays.copyOfRange(data, off, Math.min(off + stride, data.length))));
        }
        Collections.sort(r);
        return r;
    }

    enum Input { MEMORY, FILE, SOCKET }

    private ServerSocketChannel server;

    ChunkSource source(Input kind, byte[] data, long limit, int buffers, int stride) throws IOException {
        switch (kind) {
            case MEMORY:
                return ChunkSource.of(new ByteArrayInputStream(data), limit, buffers, stride);
            case FILE: {
                Path f = Files.createTempFile(dir, "in", ".bin");
                Files.write(f, data);
                return ChunkSource.of(f, limit, buffers, stride);
            }
            default: {
                server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel client = SocketChannel.open(server.getLocalAddress());
                SocketChannel accepted = server.accept();
                Thread writer = new Thread(() -> {
                    try (SocketChannel s = accepted) {
                        ByteBuffer b = ByteBuffer.wrap(data);
                        while (b.hasRemaining()) {
                            s.write(b);
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }, "socket-writer");
                writer.setDaemon(true);
                writer.start();
                server.close();
                return ChunkSource.of(client, limit, buffers, stride);
            }
        }
    }

    private void check(long seed, Input input, int workers, boolean ordered) throws IOException {
        Random rnd = new Random(seed);
        int stride = 1 + rnd.nextInt(64);
        int buffers = 1 + rnd.nextInt(6);
        long limit = (long) buffers * stride * (1 + rnd.nextInt(40)) + rnd.nextInt(stride);
        int size = rnd.nextInt(200_000);
        if (workers > 1 && !ordered) {
            size -= size % stride; // unordered output moves the partial last record; keep records whole
        }
        byte[] data = new byte[size];
        rnd.nextBytes(data);
        String what = "seed " + seed + " input " + input + " workers " + workers + " ordered " + ordered
            + " stride " + stride + " buffers " + buffers + " limit " + limit + " size " + data.length;

        ChunkSource src = source(input, data, limit, buffers, stride);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Map<byte[], Boolean> seen = new IdentityHashMap<>();
        NBufJob.Result<Totals> r = NBufJob.of(src, () -> new Reverser(seen))
            .workers(workers).ordered(ordered).to(ChunkSink.to(out)).merge(Totals::plus).run();

        byte[] expected = expectedOutput(data, stride);
        if (ordered || workers == 1) {
            assertTrue(Arrays.equals(expected, out.toByteArray()), what + ": output differs from the sequential result");
        } else {
            assertEquals(expected.length, out.size(), what);
            assertTrue(sortedRecords(expected, stride).equals(sortedRecords(out.toByteArray(), stride)),
                what + ": output records differ from the sequential result");
        }
        // every worker reports its result at its end, an empty one too (Reverser never returns null): an empty
        // input merges to Totals[0, 0]; null was expected here once, and an unordered case whose size was cut to 0
        // (a size below the stride) failed on it (anEmptyInputMergesTheWorkersEmptyResults)
        assertEquals(expectedTotals(data, stride), r.value(), what);
        assertEquals(data.length, r.bytes(), what);
        assertTrue(src.pool().allocatedBytes() <= limit, what);
        assertTrue(r.peakBuffers() <= buffers, what);
        assertTrue(seen.size() <= buffers, what + ": buffers seen " + seen.size());
        assertEquals(0, src.pool().inUse(), what + ": every buffer back in the pool");
    }

    /** The case a rare seed drew: an empty input with 3 unordered workers, each reporting an empty result. */
    @Test
    void anEmptyInputMergesTheWorkersEmptyResults() throws IOException {
        ChunkSource src = ChunkSource.of(new java.io.ByteArrayInputStream(new byte[0]), 4096, 2, 8);
        NBufJob.Result<Totals> r = NBufJob.of(src, () -> new Reverser(new IdentityHashMap<>()))
            .workers(3).ordered(false).to(ChunkSink.to(new ByteArrayOutputStream())).merge(Totals::plus).run();
        assertEquals(new Totals(0, 0), r.value());
        assertEquals(0, r.bytes());
    }

    @ParameterizedTest(name = "{0} workers={1} ordered={2}")
    @CsvSource({
        "MEMORY, 1, false", "MEMORY, 1, true", "MEMORY, 3, false", "MEMORY, 3, true",
        "FILE, 1, false", "FILE, 1, true", "FILE, 3, false", "FILE, 3, true",
        "SOCKET, 1, false", "SOCKET, 1, true", "SOCKET, 3, false", "SOCKET, 3, true"})
    @Timeout(120)
    void configurationsMatchTheSequentialResult(Input input, int workers, boolean ordered) throws IOException {
        long base = TestSeed.current();
        for (int trial = 0; trial < 8; trial++) {
            check(base + trial, input, workers, ordered);
        }
    }

    @Test
    @Timeout(60)
    void randomWorkerCounts() throws IOException {
        Random rnd = TestSeed.random();
        for (int trial = 0; trial < 20; trial++) {
            long seed = rnd.nextLong();
            check(seed, Input.MEMORY, 1 + new Random(seed).nextInt(6), new Random(seed + 1).nextBoolean());
        }
    }

    @Test
    @Timeout(30)
    void emptyInputTerminatesWithNoChunk() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NBufJob.Result<Totals> r = NBufJob.of(ChunkSource.of(new ByteArrayInputStream(new byte[0]), 1024, 2, 8),
            () -> new Reverser(new IdentityHashMap<>())).workers(2).merge(Totals::plus).to(ChunkSink.to(out)).run();
        assertEquals(0, r.chunks());
        assertEquals(0, out.size());
        assertEquals(new Totals(0, 0), r.value());
    }

    @Test
    @Timeout(30)
    void outputSwitchedOffStillAccumulates() {
        byte[] data = new byte[10_000];
        new Random(TestSeed.mix(3)).nextBytes(data);
        NBufJob.Result<Totals> r = NBufJob.of(ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10),
            () -> new Reverser(new IdentityHashMap<>())).workers(3).merge(Totals::plus).run();
        assertEquals(expectedTotals(data, 10), r.value());
    }

    @Test
    @Timeout(30)
    void filteredOutputGoesToASecondTarget() {
        byte[] data = new byte[4 * 1000];
        for (int i = 0; i < 1000; i++) {
            data[4 * i] = (byte) (i % 3);
        }
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        ByteArrayOutputStream zeros = new ByteArrayOutputStream();
        ChunkSink sink = ChunkSink.to(full).alsoTo(zeros, (c, off, len) -> c.array()[off] == 0);
        NBufJob.of(ChunkSource.of(new ByteArrayInputStream(data), 400, 3, 4), () -> c -> { }).workers(2)
            .ordered(true).to(sink).run();
        assertArrayEquals(data, full.toByteArray());
        assertEquals(4 * 334, zeros.size());
        byte[] z = zeros.toByteArray();
        for (int i = 0; i < z.length; i += 4) {
            assertEquals(0, z[i]);
        }
    }

    @Test
    @Timeout(30)
    void failingReadSurfacesAsFlowException() {
        InputStream broken = new InputStream() {
            int n;

            @Override
            public int read() throws IOException {
                if (++n > 5000) {
                    throw new IOException("disk on fire");
                }
                return 1;
            }
        };
        FlowException e = assertThrows(FlowException.class,
            () -> NBufJob.of(ChunkSource.of(broken, 1000, 2, 10), () -> c -> { }).workers(2).run());
        assertInstanceOf(IOException.class, e.getCause());
    }

    @Test
    @Timeout(30)
    void failingWriteSurfacesAsFlowException() {
        java.io.OutputStream full = new java.io.OutputStream() {
            int n;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                n += len;
                if (n > 20_000) {
                    throw new IOException("no space left");
                }
            }
        };
        FlowException e = assertThrows(FlowException.class,
            () -> NBufJob.of(ChunkSource.of(new ByteArrayInputStream(new byte[100_000]), 1000, 2, 10), () -> c -> { })
                .workers(2).to(ChunkSink.to(full)).run());
        assertEquals("no space left", e.getCause().getMessage());
    }

    @Test
    @Timeout(30)
    void failingProcessorSurfacesAsFlowException() {
        FlowException e = assertThrows(FlowException.class,
            () -> NBufJob.of(ChunkSource.of(new ByteArrayInputStream(new byte[100_000]), 1000, 2, 10), () -> c -> {
                if (c.sequence() == 7) {
                    throw new IllegalStateException("bad chunk");
                }
            }).workers(3).to(ChunkSink.to(new ByteArrayOutputStream())).run());
        assertEquals("bad chunk", e.getCause().getMessage());
    }

    @Test
    @Timeout(30)
    void orderedSinkReportsADroppedChunkInsteadOfStalling() {
        ChunkSource src = ChunkSource.of(new ByteArrayInputStream(new byte[100_000]), 1000, 3, 10);
        FlowException e = assertThrows(FlowException.class, () -> Pipeline.of(src,
            Nodes.<Chunk, Chunk>flatMap((c, out) -> {
                if (c.sequence() == 2) {
                    c.release(); // dropped: wrong in ordered output
                } else {
                    out.send(c);
                }
            }),
            ChunkSink.to(new ByteArrayOutputStream()).ordered()).run());
        assertTrue(e.getCause().getMessage().contains("chunk #2 never arrived"), e.getCause().getMessage());
    }

    @Test
    @Timeout(30)
    void coreOrderedFarmAndUnorderedFarmWithOrderedSinkAgree() throws IOException {
        byte[] data = new byte[300_000];
        new Random(TestSeed.mix(11)).nextBytes(data);
        int stride = 24;
        byte[] expected = expectedOutput(data, stride);
        Map<byte[], Boolean> seen = new IdentityHashMap<>();

        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ChunkSource s1 = ChunkSource.of(new ByteArrayInputStream(data), 24 * 100 * 4, 4, stride);
        Pipeline.of(s1, Farm.<Chunk, Chunk>of(3, () -> new ChunkWorker<>(new Reverser(seen),
            new java.util.concurrent.ConcurrentLinkedQueue<>())).ordered(), ChunkSink.to(a)).run();
        assertArrayEquals(expected, a.toByteArray());

        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ChunkSource s2 = ChunkSource.of(new ByteArrayInputStream(data), 24 * 100 * 4, 4, stride);
        Pipeline.of(s2, Farm.<Chunk, Chunk>of(3, () -> new ChunkWorker<>(new Reverser(seen),
            new java.util.concurrent.ConcurrentLinkedQueue<>())), ChunkSink.to(b).ordered()).run();
        assertArrayEquals(expected, b.toByteArray());
    }

    @Test
    @Timeout(30)
    void broadcastToTwoSinksReleasesEachBufferOnce() {
        byte[] data = new byte[50_000];
        new Random(TestSeed.mix(5)).nextBytes(data);
        ChunkSource src = ChunkSource.of(new ByteArrayInputStream(data), 4000, 4, 8);
        ByteArrayOutputStream x = new ByteArrayOutputStream();
        ByteArrayOutputStream y = new ByteArrayOutputStream();
        Pipeline.of(src, Farm.of(List.of(ChunkSink.to(x).ordered(), ChunkSink.to(y).ordered()))
            .emitter(new ChunkBroadcast()).withoutCollector()).run();
        assertArrayEquals(data, x.toByteArray());
        assertArrayEquals(data, y.toByteArray());
        assertEquals(0, src.pool().inUse());
    }

    @Test
    @Timeout(30)
    void readAheadIsBoundedByThePoolWhenTheSinkIsSlow() {
        int buffers = 3;
        ChunkSource src = ChunkSource.of(new ByteArrayInputStream(new byte[64 * 100]), 64 * buffers, buffers, 64);
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger written = new AtomicInteger();
        Pipeline.of(src, Nodes.sink((Chunk c) -> {
            // While chunk k is held here, the source can have emitted at most k + buffers chunks.
            long emitted = src.chunks();
            if (emitted > c.sequence() + buffers) {
                violations.add("chunk " + c.sequence() + " held, " + emitted + " emitted");
            }
            if (src.pool().inUse() > buffers) {
                violations.add("in use " + src.pool().inUse());
            }
            Thread.yield(); // a slower sink: the source may run ahead, but only as far as the pool allows
            written.incrementAndGet();
            c.release();
        })).run();
        assertEquals(List.of(), violations);
        assertEquals(100, written.get());
        assertTrue(src.pool().peakInUse() <= buffers);
    }

    @Test
    @Timeout(30)
    void cancellingASourceWaitingForABufferEndsTheFlow() throws Exception {
        ChunkSource src = ChunkSource.of(new ByteArrayInputStream(new byte[100_000]), 200, 2, 10);
        List<Chunk> hoarded = Collections.synchronizedList(new ArrayList<>());
        org.bbflow.core.Flow flow = org.bbflow.core.Flow.start(Pipeline.of(src, Nodes.sink(hoarded::add)));
        // The sink never releases: after two chunks the source waits for a buffer forever.
        while (src.chunks() < 2) {
            Thread.onSpinWait();
        }
        flow.cancel();
        assertThrows(FlowException.class, () -> flow.join(java.time.Duration.ofSeconds(20)));
        assertEquals(2, src.chunks());
        assertEquals(2, src.pool().peakInUse());
    }

    @Test
    @Timeout(30)
    void sequentialExecutionSeesChunksInInputOrderWithoutOverlap() {
        List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger inside = new AtomicInteger();
        NBufJob.of(ChunkSource.of(new ByteArrayInputStream(new byte[50_000]), 4000, 4, 10), () -> c -> {
            assertEquals(1, inside.incrementAndGet(), "overlapping callbacks");
            seen.add(c.sequence());
            inside.decrementAndGet();
        }).workers(1).run();
        for (int i = 0; i < seen.size(); i++) {
            assertEquals(i, seen.get(i));
        }
        assertEquals(50, seen.size());
    }

    @Test
    void poolRefusesALimitBelowOneRecordPerBuffer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ChunkPool(100, 4, 30));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
        ChunkPool p = new ChunkPool(1000, 3, 7);
        assertEquals(329, p.bufferSize());
        assertTrue(p.allocatedBytes() <= 1000);
    }

    @Test
    void chunkReferenceCounting() {
        ChunkPool p = new ChunkPool(100, 2, 10);
        Chunk c = p.acquire(() -> false);
        c.reset(0, 0);
        assertEquals(1, p.inUse());
        c.retain(2);
        c.release();
        c.release();
        assertEquals(1, p.inUse());
        c.release();
        assertEquals(0, p.inUse());
        assertThrows(IllegalStateException.class, c::release);
        assertThrows(IllegalStateException.class, () -> c.retain(1));
        Chunk a = p.acquire(() -> false);
        Chunk b = p.acquire(() -> false);
        assertEquals(2, p.inUse());
        assertEquals(2, p.peakInUse());
        assertNull(p.acquire(() -> true), "an exhausted pool waits; cancelled while waiting gives null");
        a.reset(1, 0);
        b.reset(2, 0);
        a.release();
        b.release();
        assertEquals(0, p.inUse());
    }

    /**
     * Nodes may run again in a later flow (docs/core.md): an ordered sink starts from chunk #0 each
     * time, a file sink writes its file afresh; a sink whose stream it closed says so.
     */
    @Test
    @Timeout(30)
    void aSinkRunsAgainInALaterFlow() throws IOException {
        byte[] data = new byte[10_000];
        new Random(TestSeed.mix(5)).nextBytes(data);
        Path file = dir.resolve("again.bin");
        ChunkSink counted = ChunkSink.none().ordered();
        ChunkSink toFile = ChunkSink.to(file).ordered();
        for (int run = 0; run < 2; run++) {
            Pipeline.of(ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10), counted).run();
            assertEquals(10, counted.chunksWritten(), "run " + run); // 1020-byte buffers
            Pipeline.of(ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10), toFile).run();
            assertArrayEquals(data, Files.readAllBytes(file), "run " + run);
        }
        ChunkSink toStream = ChunkSink.to(new ByteArrayOutputStream());
        Pipeline.of(ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10), toStream).run();
        FlowException e = assertThrows(FlowException.class,
            () -> Pipeline.of(ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10), toStream).run());
        assertTrue(e.getCause().getMessage().contains("runs once"), e.getCause().toString());
        ChunkSource once = ChunkSource.of(new ByteArrayInputStream(data), 4096, 4, 10);
        Pipeline.of(once, ChunkSink.none()).run();
        e = assertThrows(FlowException.class, () -> Pipeline.of(once, ChunkSink.none()).run());
        assertTrue(e.getCause().getMessage().contains("reads its input once"), e.getCause().toString());
    }
}
