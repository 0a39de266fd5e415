package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/** Single-JVM behaviour of the inter-process channel: codecs, header checks, EOS, claims, errors. */
class IpcChannelTest {
    @TempDir
    Path dir;

    @Test
    void codecsRoundTrip() {
        ExpandableArrayBuffer b = new ExpandableArrayBuffer(256);
        String[] strings = {"", "ascii", "é ü ß", "日本語", "emoji \uD83D\uDE00 pair", "lone \uD800 surrogate"};
        for (String s : strings) {
            IpcCodec<String> c = IpcCodec.utf8();
            int n = c.encodedLength(s);
            c.encode(s, b, 3);
            String expected = s.replace("\uD800", "?");
            assertEquals(expected.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, n, s);
            assertEquals(expected, c.decode(b, 3, n));
        }
        IpcCodec.int64().encode(-42L, b, 0);
        assertEquals(-42L, IpcCodec.int64().decode(b, 0, 8));
        assertThrows(IpcException.class, () -> IpcCodec.int64().decode(b, 0, 4));
        byte[] bytes = {1, 2, 3, 4, 5};
        IpcCodec.bytes().encode(bytes, b, 7);
        assertArrayEquals(bytes, IpcCodec.bytes().decode(b, 7, 5));
    }

    @Test
    @Timeout(30)
    void stringsCrossThreadsInOrderThenEos() throws Exception {
        Path file = dir.resolve("s");
        int n = 100_000;
        try (IpcReceiver<String> rx = IpcReceiver.create(file, IpcCodec.utf8(), IpcOptions.defaults().withCapacity(4096))) {
            Thread producer = new Thread(() -> {
                try (IpcSender<String> tx = IpcSender.open(file, IpcCodec.utf8())) {
                    for (int i = 0; i < n; i++) {
                        tx.send("item-" + i + (i % 7 == 0 ? "-ü" : ""));
                    }
                }
            });
            producer.start();
            for (int i = 0; i < n; i++) {
                assertEquals("item-" + i + (i % 7 == 0 ? "-ü" : ""), rx.take());
            }
            assertNull(rx.take());
            assertTrue(rx.isEos());
            assertEquals(n, rx.received());
            producer.join();
        }
    }

    @Test
    @Timeout(30)
    void manyProducersDrainKeepsPerProducerOrder() throws Exception {
        Path file = dir.resolve("m");
        int producers = 4;
        long each = 50_000;
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(),
                IpcOptions.defaults().withCapacity(8192).withProducers(producers))) {
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                Thread t = new Thread(() -> {
                    try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                        long tag = (long) tx.producerId() << 32;
                        for (long i = 0; i < each; i++) {
                            tx.send(tag | i);
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            long[] next = new long[producers];
            while (!rx.isEos()) {
                rx.drain(v -> {
                    int p = (int) (v >>> 32);
                    assertEquals(next[p], v & 0xFFFF_FFFFL, "order of producer " + p);
                    next[p]++;
                }, 100);
            }
            for (int p = 0; p < producers; p++) {
                assertEquals(each, next[p]);
                assertEquals(each, rx.received(p));
            }
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    @Test
    void wrongMagicIsRefused() throws IOException {
        Path file = dir.resolve("junk");
        Files.write(file, new byte[8192]);
        IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()));
        assertTrue(e.getMessage().contains("not a BBFlow IPC channel file"), e.getMessage());
    }

    @Test
    void createRefusesToReplaceAForeignFileButReplacesAnOldChannel() throws IOException {
        Path file = dir.resolve("precious.txt");
        Files.writeString(file, "someone's data");
        IpcFormatException e = assertThrows(IpcFormatException.class,
            () -> IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()));
        assertTrue(e.getMessage().contains("refusing to replace"), e.getMessage());
        assertEquals("someone's data", Files.readString(file));

        Path chan = dir.resolve("old");
        IpcReceiver.create(chan, IpcCodec.int64(), IpcOptions.defaults()).close();
        try (IpcReceiver<Long> again = IpcReceiver.create(chan, IpcCodec.int64(), IpcOptions.defaults().withProducers(2))) {
            assertEquals(2, again.producers());
        }
    }

    @Test
    void shortFileIsRefused() throws IOException {
        Path file = dir.resolve("short");
        Files.write(file, new byte[10]);
        assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()));
    }

    private static void patchInt(Path file, int offset, int value) throws IOException {
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer bb = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value);
            fc.write(bb, offset);
        }
    }

    @Test
    void wrongVersionIsRefused() throws IOException {
        Path file = dir.resolve("v");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096))) {
            assertEquals(file, rx.path());
            patchInt(file, IpcFile.VERSION_OFFSET, 99);
            IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()));
            assertTrue(e.getMessage().contains("version 99"), e.getMessage());
        }
    }

    @Test
    void capacityNotMatchingFileLengthIsRefused() throws IOException {
        Path file = dir.resolve("c");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096))) {
            assertEquals(file, rx.path());
            patchInt(file, IpcFile.CAPACITY_OFFSET, 8192);
            IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()));
            assertTrue(e.getMessage().contains("does not match"), e.getMessage());
        }
    }

    @Test
    void headerLayoutIsStable() throws IOException {
        Path file = dir.resolve("layout");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(),
                IpcOptions.defaults().withCapacity(4096).withProducers(3))) {
            assertEquals(3, rx.producers());
            ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(4096 + 4096 + 768, h.capacity()); // header + ring + Agrona trailer
            assertEquals(0x4242464C4F495043L, h.getLong(0));
            assertEquals(2, h.getInt(8));
            assertEquals(2, h.getInt(12));
            assertEquals(4096, h.getInt(16));
            assertEquals(3, h.getInt(20));
            assertEquals(4096, h.getInt(24));
            assertEquals(512, h.getInt(28));
            assertEquals(ProcessHandle.current().pid(), h.getLong(32));
            assertEquals(8, h.getInt(44));  // Agrona's record header length
            assertEquals(8, h.getInt(48));  // and record alignment
            assertEquals(768, h.getInt(52)); // and ring trailer length
            assertEquals(5, h.getInt(56));   // the codec's record format name: "int64"
            byte[] name = new byte[5];
            h.get(60, name);
            assertEquals("int64", new String(name, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void oneToOneAcceptsOnlyOneProducer() {
        Path file = dir.resolve("one");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults());
             IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
            IpcException e = assertThrows(IpcException.class, () -> IpcSender.open(file, IpcCodec.int64()));
            assertTrue(e.getMessage().contains("producer slot"), e.getMessage());
            assertEquals(0, tx.producerId());
            assertEquals(1, rx.producers());
        }
    }

    @Test
    void fullRingRefusesOfferAndOversizeRecordIsRejected() {
        Path file = dir.resolve("full");
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults().withCapacity(1024));
             IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes())) {
            assertEquals(128, tx.maxRecordLength());
            assertThrows(IllegalArgumentException.class, () -> tx.offer(new byte[129]));
            assertThrows(IllegalArgumentException.class, () -> tx.offer(null));
            int accepted = 0;
            while (tx.offer(new byte[56])) {
                accepted++;
            }
            // Agrona keeps up to one record's worth of the ring free at the wrap point.
            assertTrue(accepted >= 1024 / 64 - 1 && accepted <= 1024 / 64, "accepted " + accepted);
            assertFalse(tx.offer(new byte[56]));
            assertEquals(56, rx.poll().length);
            assertTrue(tx.offer(new byte[56]));
        }
    }

    @Test
    @Timeout(30)
    void abandonedClaimOfAClosedProducerIsSkippedAtEnd() throws Exception {
        Path file = dir.resolve("abandon");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withProducers(2))) {
            IpcSender<Long> a = IpcSender.open(file, IpcCodec.int64());
            a.send(1L);
            int claim = a.tryClaim(8);
            assertTrue(claim >= 0);
            try (IpcSender<Long> b = IpcSender.open(file, IpcCodec.int64())) {
                for (long i = 0; i < 1000; i++) {
                    b.send(100 + i);
                }
            }
            a.close(); // closed with the claim never committed
            assertEquals(1L, rx.take());
            for (long i = 0; i < 1000; i++) {
                assertEquals(100 + i, rx.take());
            }
            assertNull(rx.take());
            assertEquals(1, rx.skippedClaims());
            assertEquals(0, rx.lostProducers());
        }
    }

    @Test
    @Timeout(30)
    void abandonedClaimOfAClosedProducerIsSkippedWhileOthersStillWrite() throws Exception {
        Path file = dir.resolve("abandon-live");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(),
                IpcOptions.defaults().withCapacity(1024).withProducers(2).withPeerTimeout(Duration.ofMillis(100)))) {
            IpcSender<Long> a = IpcSender.open(file, IpcCodec.int64());
            a.send(-1L);
            assertTrue(a.tryClaim(8) >= 0);
            a.close(); // gone with its claim open
            // b writes far more than the ring holds, so it needs the consumer to get past a's claim
            Thread b = new Thread(() -> {
                try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                    for (long i = 0; i < 2000; i++) {
                        tx.send(i);
                    }
                }
            });
            b.start();
            assertEquals(-1L, rx.take());
            for (long i = 0; i < 2000; i++) {
                assertEquals(i, rx.take());
            }
            assertNull(rx.take());
            assertEquals(1, rx.skippedClaims());
            b.join();
        }
    }

    @Test
    @Timeout(30)
    void closedReceiverMakesWaitingSenderFail() {
        Path file = dir.resolve("rxclosed");
        IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(1024));
        try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64(),
                IpcOptions.defaults().withPeerTimeout(Duration.ofMillis(50)))) {
            while (tx.offer(0L)) {
                // fill
            }
            rx.close();
            IpcPeerLostException e = assertThrows(IpcPeerLostException.class, () -> tx.send(1L));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
        assertThrows(IllegalStateException.class, rx::poll);
    }

    @Test
    @Timeout(30)
    void randomSizedRecordsSurviveWrapAround() throws Exception {
        Path file = dir.resolve("wrap");
        Random rnd = new Random(TestSeed.mix(7));
        int n = 20_000;
        byte[][] items = new byte[n][];
        for (int i = 0; i < n; i++) {
            items[i] = new byte[rnd.nextInt(513)];
            rnd.nextBytes(items[i]);
        }
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults().withCapacity(4096))) {
            Thread producer = new Thread(() -> {
                try (IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes())) {
                    for (byte[] item : items) {
                        tx.send(item);
                    }
                }
            });
            producer.start();
            for (int i = 0; i < n; i++) {
                assertArrayEquals(items[i], rx.take(), "item " + i);
            }
            assertNull(rx.take());
            producer.join();
        }
    }

    /** Longs, but -1 decodes to null (a codec's own sentinel). */
    static final class NullDecodingCodec implements IpcCodec<Long> {
        @Override
        public int encodedLength(Long item) {
            return 8;
        }

        @Override
        public void encode(Long item, org.agrona.MutableDirectBuffer buffer, int offset) {
            buffer.putLong(offset, item);
        }

        @Override
        public Long decode(org.agrona.DirectBuffer buffer, int offset, int length) {
            long v = buffer.getLong(offset);
            return v == -1 ? null : v;
        }
    }

    /** A record that decodes to null is an error, never a record silently skipped (take) or a null handed on (drain). */
    @Test
    void aRecordDecodedAsNullIsAnErrorNotASkip() {
        Path file = dir.resolve("nulls");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, new NullDecodingCodec(), IpcOptions.defaults())) {
            try (IpcSender<Long> tx = IpcSender.open(file, new NullDecodingCodec())) {
                tx.send(1L);
                tx.send(-1L);
                tx.send(2L);
                tx.send(-1L);
            }
            assertEquals(1L, rx.take());
            IpcException e = assertThrows(IpcException.class, rx::take);
            assertTrue(e.getMessage().contains("null"), e.getMessage());
            assertEquals(2L, rx.take());
            List<Long> got = new ArrayList<>();
            assertThrows(IpcException.class, () -> rx.drain(got::add, 10));
            assertEquals(List.of(), got);
        }
    }

    /** A peer timeout past what nanoseconds in a long hold failed later, with a bare "long overflow". */
    @Test
    void aPeerTimeoutLongerThanAYearIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> IpcOptions.defaults().withPeerTimeout(Duration.ofSeconds(Long.MAX_VALUE)));
        assertTrue(e.getMessage().startsWith("peerTimeout must be at most 365 days"), e.getMessage());
        IpcOptions.defaults().withPeerTimeout(Duration.ofDays(365));
    }
}
