package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The checksummed layout shared by every file of an index directory (little-endian):
 * <pre>
 *   header: magic (8 bytes, one per kind of file), format version (4)
 *   body
 *   footer: footer magic (4), CRC32C of every byte before the checksum (8)
 * </pre>
 * {@link Output} writes it and fsyncs; {@link #verify} checks magic, version, footer and checksum
 * before anything of the body is trusted, and fails with {@link CorruptIndexException}.
 */
final class IndexFile {
    static final int HEADER = 12;
    static final int FOOTER = 12;
    static final int FOOTER_MAGIC = 0x4B444643; // "CFDK"
    private static final int CHUNK = 1 << 20;
    private static final long MAP_CHUNK = 1L << 28;

    private IndexFile() {}

    /** A writer of one checksummed file; {@link #finish()} writes the footer and fsyncs. */
    static final class Output implements AutoCloseable {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        private final CRC32C crc = new CRC32C();

        /** Creates {@code file} (which must not exist unless {@code replace}) and writes the header. */
        Output(Path file, long magic, int version, boolean replace) throws IOException {
            ch = replace
                    ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            buf.putLong(magic).putInt(version);
        }

        Output putLong(long v) throws IOException {
            room(8);
            buf.putLong(v);
            return this;
        }

        Output putInt(int v) throws IOException {
            room(4);
            buf.putInt(v);
            return this;
        }

        /** Writes up to 64 KiB of raw bytes. */
        Output putBytes(byte[] b) throws IOException {
            room(b.length);
            buf.put(b);
            return this;
        }

        Output putShort(short v) throws IOException {
            room(2);
            buf.putShort(v);
            return this;
        }

        /** Writes a byte array of any length. */
        Output putByteArray(byte[] b) throws IOException {
            for (int at = 0; at < b.length; ) {
                room(1);
                int k = Math.min(buf.remaining(), b.length - at);
                buf.put(b, at, k);
                at += k;
            }
            return this;
        }

        Output putLongs(long[] a, int n) throws IOException {
            for (int i = 0; i < n; i++) {
                putLong(a[i]);
            }
            return this;
        }

        Output putInts(int[] a) throws IOException {
            for (int v : a) {
                putInt(v);
            }
            return this;
        }

        private void room(int n) throws IOException {
            if (buf.remaining() < n) {
                drain(true);
            }
        }

        private void drain(boolean checksummed) throws IOException {
            buf.flip();
            if (checksummed) {
                crc.update(buf);
                buf.rewind();
            }
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
        }

        /** Writes the footer and forces the contents to the device. */
        void finish() throws IOException {
            room(4);
            buf.putInt(FOOTER_MAGIC);
            drain(true);
            buf.putLong(crc.getValue());
            drain(false);
            ch.force(true);
        }

        @Override
        public void close() throws IOException {
            // an unfinished file is never named by a manifest: the next open or commit deletes it
            ch.close();
        }
    }

    /**
     * Checks the header, footer and checksum of an open file; returns the length of its body
     * (which starts at {@link #HEADER}).
     */
    static long verify(FileChannel ch, Path file, long magic, int version, String kind) throws IOException {
        long size = ch.size();
        if (size < HEADER + FOOTER) {
            throw new CorruptIndexException(file, "truncated " + kind + " file: " + size + " bytes");
        }
        ByteBuffer head = map(ch, 0, HEADER);
        long m = head.getLong();
        if (m != magic) {
            throw new CorruptIndexException(file, "not a " + kind + " file (magic " + Long.toHexString(m) + ")");
        }
        int v = head.getInt();
        if (v != version) {
            throw new CorruptIndexException(file, "unsupported " + kind + " format version " + v
                    + " (this build reads " + version + "; rebuild the index with this version)");
        }
        ByteBuffer foot = map(ch, size - FOOTER, FOOTER);
        int fm = foot.getInt();
        long stored = foot.getLong();
        if (fm != FOOTER_MAGIC) {
            throw new CorruptIndexException(file, "no footer: truncated or overwritten " + kind + " file");
        }
        CRC32C crc = new CRC32C();
        long end = size - 8;
        for (long pos = 0; pos < end; pos += MAP_CHUNK) {
            crc.update(ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(MAP_CHUNK, end - pos)));
        }
        if (crc.getValue() != stored) {
            throw new CorruptIndexException(file, "checksum mismatch (stored " + Long.toHexString(stored)
                    + ", computed " + Long.toHexString(crc.getValue()) + ")");
        }
        return size - HEADER - FOOTER;
    }

    static ByteBuffer map(FileChannel ch, long pos, long bytes) throws IOException {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, pos, bytes);
        return m.order(ByteOrder.LITTLE_ENDIAN);
    }
}
