package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sender must not write records its receiver cannot read. The header held no codec and nothing of
 * the record layout, so a sender with another codec than the receiver's (a {@code utf8} sender into
 * an {@code int64} receiver) opened without a word, and its records failed, or worse decoded as
 * garbage, on the other side; a file of an older format version with the same header size opened too.
 * The header now records the receiver codec's {@link IpcCodec#recordFormat()} and the ring's record
 * layout, and a sender whose codec names another format, or a file of another layout or version, is
 * refused with an {@link IpcFormatException}. Offsets are written out here: they are the file format.
 */
@Timeout(60)
class IpcFormatCheckTest {
    @TempDir
    Path dir;

    private static void patchInt(Path file, int offset, int value) throws IOException {
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.WRITE)) {
            fc.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value), offset);
        }
    }

    @Test
    void aSenderWhoseCodecWritesAnotherFormatIsRefused() {
        Path file = dir.resolve("int64.ipc");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults())) {
            IpcFormatException e = assertThrows(IpcFormatException.class, () -> {
                try (IpcSender<String> tx = IpcSender.open(file, IpcCodec.utf8())) {
                    tx.send("not a long"); // decodes as an error (or, 8 bytes long, as a wrong number)
                }
            }, "a utf8 sender opened an int64 receiver's channel");
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("'int64'")
                && e.getMessage().contains("'utf8'"), e.getMessage());
            // the receiver goes on: a sender of its format still gets through
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                tx.send(5L);
            }
            assertEquals(5L, rx.take());
        }
    }

    @Test
    void aFileOfTheOlderFormatVersionIsRefused() throws IOException {
        Path file = dir.resolve("v1.ipc");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults())) {
            patchInt(file, 8, 1); // version 1: no record format, no record layout in its header
            IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()).close());
            assertTrue(e.getMessage().contains("version 1"), e.getMessage());
            assertTrue(rx.received() == 0);
        }
    }

    @Test
    void aFileOfAnotherRecordLayoutIsRefused() throws IOException {
        Path file = dir.resolve("layout.ipc");
        int[][] patches = {{44, 16}, {48, 64}, {52, 1024}}; // record header length, alignment, ring trailer length
        for (int[] patch : patches) {
            try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults())) {
                patchInt(file, patch[0], patch[1]);
                IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()).close(),
                    "header offset " + patch[0] + " patched to " + patch[1]);
                assertTrue(e.getMessage().contains("record layout") && e.getMessage().contains(Integer.toString(patch[1])),
                    e.getMessage());
                assertEquals(0, rx.received());
            }
        }
    }
    /** int64's bytes under a name of the test's choosing. */
    private static IpcCodec<Long> named(String format) {
        return new IpcCodec<>() {
            @Override
            public int encodedLength(Long item) {
                return 8;
            }

            @Override
            public void encode(Long item, org.agrona.MutableDirectBuffer buffer, int offset) {
                IpcCodec.int64().encode(item, buffer, offset);
            }

            @Override
            public Long decode(org.agrona.DirectBuffer buffer, int offset, int length) {
                return IpcCodec.int64().decode(buffer, offset, length);
            }

            @Override
            public String recordFormat() {
                return format;
            }

            @Override
            public String toString() {
                return "named(" + format + ")";
            }
        };
    }

    @Test
    void ownCodecsAreCheckedByTheirNamesAndUnnamedOnesAreNot() {
        Path file = dir.resolve("own.ipc");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, named("trade/v2"), IpcOptions.defaults().withProducers(4))) {
            IpcFormatException e = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, named("trade/v1")).close());
            assertTrue(e.getMessage().contains("'trade/v2'") && e.getMessage().contains("'trade/v1'")
                && e.getMessage().contains("named(trade/v1)"), e.getMessage());
            try (IpcSender<Long> same = IpcSender.open(file, named("trade/v2"));
                 IpcSender<Long> unnamed = IpcSender.open(file, named(""));
                 IpcSender<byte[]> raw = IpcSender.open(file, IpcCodec.bytes())) {
                same.send(1L);
                unnamed.send(2L);
                raw.send(new byte[] {3, 0, 0, 0, 0, 0, 0, 0});
                // int64 is a name too, and another one
                IpcFormatException int64 = assertThrows(IpcFormatException.class, () -> IpcSender.open(file, IpcCodec.int64()));
                assertTrue(int64.getMessage().contains("'int64'"), int64.getMessage());
            }
            IpcSender.open(file, named("trade/v2")).close(); // the refused opens took no slot: this is the fourth
            assertEquals(1L, rx.take());
            assertEquals(2L, rx.take());
            assertEquals(3L, rx.take());
            assertEquals(null, rx.take());
        }
        // a receiver whose codec names no format takes any sender
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults())) {
            try (IpcSender<String> tx = IpcSender.open(file, IpcCodec.utf8())) {
                tx.send("hi");
            }
            assertEquals("hi", new String(rx.take(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void theReceiversNamedFormatIsInTheHeader() throws IOException {
        Path file = dir.resolve("header.ipc");
        String name = "événement/v3"; // two bytes for each é
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, named(name), IpcOptions.defaults().withCapacity(4096))) {
            ByteBuffer h = ByteBuffer.wrap(java.nio.file.Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(2, h.getInt(8), "format version");
            assertEquals(8, h.getInt(44), "record header length");
            assertEquals(8, h.getInt(48), "record alignment");
            assertEquals(768, h.getInt(52), "ring trailer length");
            byte[] utf8 = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(utf8.length, h.getInt(56));
            byte[] stored = new byte[utf8.length];
            h.get(60, stored);
            assertEquals(name, new String(stored, java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(0, rx.received());
        }
    }

    @Test
    void aFormatNameLongerThanTheHeaderHoldsIsRefusedAtCreateAndOpen() {
        Path file = dir.resolve("long.ipc");
        String longName = "x".repeat(65);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> IpcReceiver.create(file, named(longName), IpcOptions.defaults()).close());
        assertTrue(e.getMessage().contains("at most 64 bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IpcReceiver.create(file, named(null), IpcOptions.defaults()).close());
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, named("x".repeat(64)), IpcOptions.defaults())) {
            assertThrows(IllegalArgumentException.class, () -> IpcSender.open(file, named(longName)).close());
            IpcSender.open(file, named("x".repeat(64))).close();
            assertEquals(null, rx.take());
        }
    }
}
