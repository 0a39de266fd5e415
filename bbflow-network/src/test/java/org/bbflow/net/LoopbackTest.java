package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.bbflow.core.DoubleBatch;
import org.bbflow.core.Flow;
import org.bbflow.core.LongBatch;
import org.bbflow.core.LongNodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackTest {

    record Point(long id, int x, double y, boolean flag, String name, byte[] raw, long[] ls, int[] is, double[] ds) {}

    record Pair(Long a, Point p) {}

    record Bean(String name, int value) implements Serializable {}

    static <T> List<T> roundTrip(Codec<T> codec, List<T> items) {
        return roundTrip(codec, items, NetOptions.defaults());
    }

    static <T> List<T> roundTrip(Codec<T> codec, List<T> items, NetOptions options) {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, options)) {
            RemoteInlet<T> in = server.inlet(7, codec);
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<T> out = NetClient.outlet("127.0.0.1", server.port(), 7, codec, options)) {
                    for (T t : items) out.send(t);
                    out.complete();
                }
            });
            List<T> got = new ArrayList<>();
            for (T t; (t = in.take()) != null; ) got.add(t);
            assertNull(in.take(), "take() after EOS keeps returning null");
            assertTrue(in.isEos());
            sender.join();
            return got;
        }
    }

    @Test
    void longsIntsDoubles() {
        List<Long> longs = List.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 42L);
        assertEquals(longs, roundTrip(Codec.longs(), longs));
        List<Integer> ints = List.of(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE);
        assertEquals(ints, roundTrip(Codec.ints(), ints));
        List<Double> doubles = List.of(0.0, -0.0, 1.5, Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE);
        assertEquals(doubles, roundTrip(Codec.doubles(), doubles));
    }

    @Test
    void stringsAndBytes() {
        List<String> s = List.of("", "a", "héllo wörld", "日本語", "\uD83D\uDE00 emoji", "x".repeat(100_000));
        assertEquals(s, roundTrip(Codec.strings(), s));
        List<byte[]> b = List.of(new byte[0], new byte[] {1, 2, 3}, new byte[200_000]);
        List<byte[]> got = roundTrip(Codec.bytes(), b);
        assertEquals(b.size(), got.size());
        for (int i = 0; i < b.size(); i++) assertArrayEquals(b.get(i), got.get(i));
    }

    @Test
    void primitiveArrays() {
        List<long[]> l = List.of(new long[0], new long[] {1, -2, Long.MAX_VALUE});
        List<long[]> gl = roundTrip(Codec.longArrays(), l);
        for (int i = 0; i < l.size(); i++) assertArrayEquals(l.get(i), gl.get(i));
        List<int[]> n = List.of(new int[0], new int[] {1, -2, 3});
        List<int[]> gn = roundTrip(Codec.intArrays(), n);
        for (int i = 0; i < n.size(); i++) assertArrayEquals(n.get(i), gn.get(i));
        List<double[]> d = List.of(new double[0], new double[] {1.25, Double.NaN});
        List<double[]> gd = roundTrip(Codec.doubleArrays(), d);
        for (int i = 0; i < d.size(); i++) assertArrayEquals(d.get(i), gd.get(i));
    }

    /**
     * The unboxed stages' batches cross as batches: bit for bit (NaN, -0.0), through codec and through
     * two flows joined by an outlet and an inlet; a frame whose count exceeds its bytes is refused.
     */
    @Test
    void longAndDoubleBatches() throws Exception {
        List<LongBatch> lb = List.of(LongBatch.of(), LongBatch.of(1, -2, Long.MIN_VALUE, Long.MAX_VALUE));
        List<LongBatch> gl = roundTrip(Codec.longBatches(), lb);
        assertEquals(2, gl.size());
        for (int i = 0; i < lb.size(); i++) assertArrayEquals(lb.get(i).toArray(), gl.get(i).toArray());
        double nanWithPayload = Double.longBitsToDouble(0x7ff8_0000_0000_1234L);
        List<DoubleBatch> db = List.of(DoubleBatch.of(0.0, -0.0, nanWithPayload, Double.NEGATIVE_INFINITY, 1e-310));
        DoubleBatch got = roundTrip(Codec.doubleBatches(), db).get(0);
        for (int i = 0; i < 5; i++) {
            assertEquals(Double.doubleToRawLongBits(db.get(0).get(i)), Double.doubleToRawLongBits(got.get(i)), "value " + i);
        }

        long n = 300_000;
        long[] sum = {0};
        long[] count = {0};
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            Flow receiving = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 3, Codec.longBatches()),
                    LongNodes.sink(x -> {
                        sum[0] += x;
                        if (x != ++count[0]) throw new AssertionError("value " + count[0] + " arrived as " + x);
                    })));
            Pipeline.of(LongNodes.range(1, n), RemoteBlocks.outlet("127.0.0.1", server.port(), 3, Codec.longBatches(),
                    NetOptions.defaults())).run();
            receiving.join(Duration.ofSeconds(30));
        }
        assertEquals(n, count[0]);
        assertEquals(n * (n + 1) / 2, sum[0]);

        ByteBuf bad = Unpooled.buffer();
        try {
            bad.writeInt(3).writeLong(1).writeLong(2); // says 3 values, holds 2
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codec.longBatches().decode(bad));
            assertTrue(e.getMessage().contains("malformed"), e.getMessage());
            bad.clear().writeInt(-1);
            assertThrows(IllegalArgumentException.class, () -> Codec.doubleBatches().decode(bad));
        } finally {
            bad.release();
        }
    }

    @Test
    void records() {
        Point p = new Point(1, 2, 3.5, true, "p", new byte[] {9}, new long[] {4}, new int[] {5, 6}, new double[] {7});
        List<Pair> items = List.of(new Pair(10L, p), new Pair(-1L, p));
        List<Pair> got = roundTrip(Codec.record(Pair.class), items);
        assertEquals(2, got.size());
        assertEquals(10L, got.get(0).a());
        Point q = got.get(1).p();
        assertEquals("p", q.name());
        assertEquals(3.5, q.y());
        assertTrue(q.flag());
        assertArrayEquals(new int[] {5, 6}, q.is());
        assertArrayEquals(new byte[] {9}, q.raw());
        record Bad(Object o) {}
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codec.record(Bad.class));
        assertTrue(e.getMessage().contains("'o'"), e.getMessage());
    }

    @Test
    void javaSerializationOnlyWhenAllowed() {
        List<Bean> beans = List.of(new Bean("a", 1), new Bean("b", 2));
        assertEquals(beans, roundTrip(Codec.javaSerialization(Bean.class), beans));
        // the receiver's filter does not allow Bean: take() fails with a clear error instead of deserializing
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Bean> in = server.inlet(1, Codec.javaSerialization(String.class));
            try (RemoteOutlet<Bean> out = NetClient.outlet("127.0.0.1", server.port(), 1,
                    Codec.javaSerialization(Bean.class), NetOptions.defaults())) {
                out.send(new Bean("evil", 0));
                out.complete();
            }
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("malformed"), e.getMessage());
        }
    }

    @Test
    void emptyStreamIsJustEos() {
        assertEquals(List.of(), roundTrip(Codec.longs(), List.of()));
    }

    @Test
    void tenMillionLongsInOrder() {
        long n = 10_000_000L;
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(),
                        NetOptions.defaults())) {
                    for (long i = 0; i < n; i++) out.send(i);
                    out.complete();
                }
            });
            long expect = 0;
            for (Long x; (x = in.take()) != null; expect++) {
                if (x != expect) fail("item " + expect + " arrived as " + x);
            }
            assertEquals(n, expect);
            sender.join();
        }
    }

    @Test
    void primitiveLongPathsWithoutBoxing() {
        long n = 3_000_000L;
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(),
                        NetOptions.defaults())) {
                    for (long i = 0; i < n; i++) {
                        if (i % 1000 == 0) out.send(i); else out.sendLong(i); // the two paths mix freely
                    }
                    out.complete();
                }
            });
            assertEquals(0L, in.take());
            long[] next = {1};
            long got = in.drainLongs(x -> {
                if (x != next[0]++) throw new AssertionError("expected " + (next[0] - 1) + " got " + x);
            });
            assertEquals(n - 1, got);
            assertNull(in.take());
            sender.join();
            RemoteInlet<String> strings = server.inlet(2, Codec.strings());
            assertThrows(IllegalStateException.class, () -> strings.drainLongs(x -> { }));
        }
    }

    @Test
    void partialBatchIsFlushedAfterTheDelayWithoutEos() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            RemoteInlet<String> in = server.inlet(3, Codec.strings());
            RemoteOutlet<String> out = client.outlet(3, Codec.strings());
            out.send("lonely");
            assertEquals("lonely", in.take()); // arrives although the batch is far from full and no EOS was sent
            out.send("second");
            assertEquals("second", in.take());
            out.complete();
            assertNull(in.take());
        }
    }

    @Test
    void channelsShareOneConnectionAndKeepTheirOrder() throws Exception {
        int channels = 4;
        long n = 200_000;
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            List<CompletableFuture<Long>> receivers = new ArrayList<>();
            List<CompletableFuture<Void>> senders = new ArrayList<>();
            for (int c = 0; c < channels; c++) {
                RemoteInlet<Long> in = server.inlet(c, Codec.longs());
                RemoteOutlet<Long> out = client.outlet(c, Codec.longs());
                long base = c * 1_000_000_000L;
                senders.add(CompletableFuture.runAsync(() -> {
                    for (long i = 0; i < n; i++) out.send(base + i);
                    out.complete();
                }));
                receivers.add(CompletableFuture.supplyAsync(() -> {
                    long k = 0;
                    for (Long x; (x = in.take()) != null; k++) {
                        if (x != base + k) throw new AssertionError("channel order broken at " + k + ": " + x);
                    }
                    return k;
                }));
            }
            for (var r : receivers) assertEquals(n, r.get());
            for (var s : senders) s.get();
        }
    }

    @Test
    void slowReceiverBlocksSenderWithinTheWindow() throws Exception {
        NetOptions opts = NetOptions.defaults().withWindowBytes(64 * 1024).withBatchBytes(4096);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), opts);
            long n = 1_000_000;
            Thread sender = new Thread(() -> {
                for (long i = 0; i < n; i++) out.send(i);
                out.complete();
            });
            sender.start();
            // wait until the sender is parked for window (the receiver has consumed nothing)
            while (!(sender.getState() == Thread.State.TIMED_WAITING && isWaitingForWindow(sender))) Thread.onSpinWait();
            long sent = out.sentCount();
            assertTrue(sent <= (64 * 1024 + 4096) / 8, "sent " + sent + " items with nothing consumed");
            long k = 0;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x);
            assertEquals(n, k);
            sender.join();
        }
    }

    private static boolean isWaitingForWindow(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) if (e.getMethodName().equals("nextBatch")) return true;
        return false;
    }

    @Test
    void badArgumentsAreRefusedAtTheBoundary() {
        NetOptions small = NetOptions.defaults().withMaxFrameBytes(1024);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, small)) {
            server.inlet(1, Codec.bytes());
            assertThrows(IllegalStateException.class, () -> server.inlet(1, Codec.bytes()));
            try (NetClient client = NetClient.connect("127.0.0.1", server.port(), small)) {
                RemoteOutlet<byte[]> out = client.outlet(1, Codec.bytes());
                assertThrows(NullPointerException.class, () -> out.send(null));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> out.send(new byte[5000]));
                assertTrue(e.getMessage().contains("maximum frame size"), e.getMessage());
                out.complete();
                assertThrows(IllegalStateException.class, () -> out.send(new byte[1]));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> NetOptions.defaults().withFlushDelay(Duration.ZERO));
    }

    /**
     * A duration past what the clock arithmetic holds (nanoseconds in a long: 292 years) was taken and
     * failed later with "long overflow", after a server or client had started its event loop thread,
     * which stayed behind. Every duration is now at most 365 days, refused at once by name; the longest
     * allowed all work together.
     */
    @Test
    void durationsLongerThanAYearAreRefusedByName() {
        Duration tooLong = Duration.ofDays(366);
        Map<String, Function<NetOptions, NetOptions>> settings = Map.of(
                "flushDelay", o -> o.withFlushDelay(tooLong),
                "peerTimeout", o -> o.withPeerTimeout(tooLong),
                "heartbeat", o -> o.withHeartbeat(Duration.ofSeconds(Long.MAX_VALUE)),
                "firstConnectTimeout", o -> o.withFirstConnectTimeout(tooLong),
                "handshakeTimeout", o -> o.withHandshakeTimeout(ChronoUnit.FOREVER.getDuration()));
        settings.forEach((name, set) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.apply(NetOptions.defaults()));
            assertTrue(e.getMessage().startsWith(name + " must be at most 365 days"), e.getMessage());
        });
        Duration year = Duration.ofDays(365);
        NetOptions longest = NetOptions.defaults().withFlushDelay(year).withPeerTimeout(year).withHeartbeat(year)
                .withFirstConnectTimeout(year).withHandshakeTimeout(year);
        assertEquals(List.of(1L, 2L, 3L), roundTrip(Codec.longs(), List.of(1L, 2L, 3L), longest));
    }

    @Test
    void receiverClosingMidStreamFailsOnlyThatSender() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            RemoteInlet<Long> quitter = server.inlet(1, Codec.longs());
            RemoteInlet<Long> other = server.inlet(2, Codec.longs());
            RemoteOutlet<Long> a = client.outlet(1, Codec.longs());
            RemoteOutlet<Long> b = client.outlet(2, Codec.longs());
            a.send(1L);
            b.send(1L);
            assertEquals(1L, quitter.take());
            quitter.close();
            assertThrows(RemoteChannelException.class, quitter::take, "a closed inlet does not wait forever");
            RemoteChannelException e = assertThrows(RemoteChannelException.class, () -> {
                for (long i = 0; ; i++) a.send(i);
            });
            assertTrue(e.getMessage().contains("closed by the receiver"), e.getMessage());
            // the shared connection and the other channel are unaffected
            for (long i = 2; i <= 100_000; i++) b.send(i);
            b.complete();
            long k = 1;
            for (Long x; (x = other.take()) != null; k++) assertEquals(k, x);
            assertEquals(100_001, k);
        }
    }

    @Test
    void abortFailsTheReceiver() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults());
            out.send(1L);
            assertEquals(1L, in.take());
            out.abort();
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("aborted"), e.getMessage());
        }
    }

    /**
     * A consumer that stops reading mid-frame: the frame is freed at once (paranoid leak detection
     * fails the class otherwise), take() refuses, and the inlet stays open (its id taken, the sender
     * not refused) until close().
     */
    @Test
    void stopReadingFreesTheFrameInHandAndKeepsTheInletOpenUntilClose() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 9, Codec.longs(), NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(9, Codec.longs());
            for (long i = 0; i < 100; i++) {
                out.send(i);
            }
            assertEquals(0L, in.take()); // the rest of its frame is in hand (the first 100 sends leave as one or a few frames)
            in.stopReading();
            in.stopReading(); // idempotent
            IllegalStateException e = assertThrows(IllegalStateException.class, in::take);
            assertTrue(e.getMessage().contains("stopped reading"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> server.inlet(9, Codec.longs()), "still open");
            in.close();
            server.inlet(9, Codec.longs()).close(); // closed: the id is free again
        }
    }

    /**
     * A producer that stops sending without ending the stream: what it sent still goes out, send
     * refuses, and the stream stays open until close(), which aborts it (the receiver sees the abort,
     * not an end of stream). That its buffer is freed at once is {@code GroupOutletTest}'s to judge:
     * here close() would free it anyway.
     */
    @Test
    void stopSendingSendsWhatWasSentAndLeavesTheStreamOpenUntilClose() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 10, Codec.longs(), NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(10, Codec.longs());
            for (long i = 0; i < 100; i++) {
                out.send(i); // 800 bytes: all in the batch being filled
            }
            out.stopSending();
            out.stopSending(); // idempotent
            for (long i = 0; i < 100; i++) {
                assertEquals(i, in.take());
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> out.send(100L));
            assertTrue(refused.getMessage().contains("stopped sending"), refused.getMessage());
            assertThrows(IllegalStateException.class, () -> out.sendLong(100L));
            out.close();
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("without complete()"), e.getMessage());
            assertFalse(in.isEos());
            in.close();
        }
    }

    /** Two longs per item; refuses a negative second one after it has written the first. */
    static final class HalfWritingCodec implements Codec<long[]> {
        @Override
        public void encode(long[] item, ByteBuf out) {
            out.writeLong(item[0]);
            if (item[1] < 0) throw new IllegalArgumentException("negative second value");
            out.writeLong(item[1]);
        }

        @Override
        public long[] decode(ByteBuf in) {
            return new long[] {in.readLong(), in.readLong()};
        }

        @Override
        public int maxEncodedSize(long[] item) {
            return 16;
        }
    }

    /**
     * A codec that fails half way through an item leaves nothing of it in the stream: a sender that
     * catches the failure and goes on sends exactly the items that encoded.
     */
    @Test
    void anItemWhoseEncodingFailsLeavesNoBytesBehind() {
        List<long[]> got = new ArrayList<>();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<long[]> out = NetClient.outlet("127.0.0.1", server.port(), 11, new HalfWritingCodec(), NetOptions.defaults())) {
            RemoteInlet<long[]> in = server.inlet(11, new HalfWritingCodec());
            out.send(new long[] {1, 2});
            assertThrows(IllegalArgumentException.class, () -> out.send(new long[] {3, -1}));
            out.send(new long[] {5, 6});
            out.complete();
            for (long[] t; (t = in.take()) != null; ) got.add(t);
            in.close();
        }
        assertEquals(2, got.size());
        assertArrayEquals(new long[] {1, 2}, got.get(0));
        assertArrayEquals(new long[] {5, 6}, got.get(1));
    }

    /** Longs, but -1 decodes to null (as a Java-serialized null, or a codec's own sentinel, would). */
    static final class NullDecodingCodec implements Codec<Long> {
        @Override
        public void encode(Long item, ByteBuf out) {
            out.writeLong(item);
        }

        @Override
        public Long decode(ByteBuf in) {
            long v = in.readLong();
            return v == -1 ? null : v;
        }

        @Override
        public int maxEncodedSize(Long item) {
            return 8;
        }
    }

    /**
     * take() returns null only at the end of the stream: an item that decodes to null is malformed
     * data, never an early end that would cut the stream short without an error.
     */
    @Test
    void anItemDecodedAsNullFailsTheStreamInsteadOfEndingIt() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 12, new NullDecodingCodec(), NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(12, new NullDecodingCodec());
            out.send(1L);
            out.send(-1L);
            out.send(2L);
            out.stopSending();
            assertEquals(1L, in.take());
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("null"), e.getMessage());
            assertFalse(in.isEos());
            in.close();
        }
    }

    private static long clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("bbflow-net-client")).count();
    }

    /** A null codec is refused before the outlet's own connection (and its thread) is made. */
    @Test
    void aNullCodecLeavesNoClientThreadBehind() throws InterruptedException {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            long before = clientThreads();
            for (int i = 0; i < 3; i++) {
                assertThrows(NullPointerException.class,
                        () -> NetClient.outlet("127.0.0.1", server.port(), 13, (Codec<Long>) null, NetOptions.defaults()));
            }
            for (int i = 0; i < 100 && clientThreads() > before; i++) Thread.sleep(20);
            assertTrue(clientThreads() <= before, "client threads: " + before + " before, " + clientThreads() + " after");
        }
    }
}
