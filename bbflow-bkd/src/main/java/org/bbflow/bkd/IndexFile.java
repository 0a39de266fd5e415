package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The checksummed layout shared by every file of an index directory (little-endian):
 * <pre>
 *   header: magic (8 bytes, one per kind of file), format version (4),
 *           index id (16), commit generation that wrote the file (8), file number (8)
 *   body
 *   footer: footer magic (4), CRC32C of every byte before the checksum (8)
 * </pre>
 * The index id is made once, when the index is created; the file number is the one in the file's
 * name (0 for the manifest). So every file is bound to its index and to the commit that wrote it,
 * and the manifest lists each file with its generation, length and checksum
 * ({@link Manifest.Entry}): a file of another index, of an older commit or a copy of another file
 * of the same index is told apart by its header and checksum, never read as if it belonged.
 * {@link Output} writes the layout and fsyncs; {@link #verify} checks magic, version, footer and
 * checksum before anything of the body is trusted, and fails with {@link CorruptIndexException}.
 */
final class IndexFile {
    /**
     * Format version of every file this build writes and reads. Format 3 added the index id,
     * generation and file number to the header (and 3-byte packed ids); directories of formats 1
     * and 2 are refused with a message naming the version, never upgraded in place.
     */
    static final int FORMAT = 3;
    static final int HEADER = 44;
    static final int FOOTER = 12;
    static final int FOOTER_MAGIC = 0x4B444643; // "CFDK"
    private static final int CHUNK = 1 << 20;
    private static final long MAP_CHUNK = 1L << 28;

    private IndexFile() {}

    /** What binds a file to its index and commit: written into its header. */
    record Stamp(UUID index, long generation, long number) {}

    /** A verified file's header and checksum. */
    record Header(UUID index, long generation, long number, long body, long length, long checksum) {}

    /** A writer of one checksummed file; {@link #finish()} writes the footer and fsyncs. */
    static final class Output implements AutoCloseable {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        private final CRC32C crc = new CRC32C();
        private long written;

        /** Creates {@code file} (which must not exist unless {@code replace}) and writes the header. */
        Output(Path file, long magic, Stamp stamp, boolean replace) throws IOException {
            ch = replace
                    ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            buf.putLong(magic).putInt(FORMAT);
            buf.putLong(stamp.index().getMostSignificantBits()).putLong(stamp.index().getLeastSignificantBits());
            buf.putLong(stamp.generation()).putLong(stamp.number());
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
                written += ch.write(buf);
            }
            buf.clear();
        }

        /** Writes the footer and forces the contents to the device; returns the checksum. */
        long finish() throws IOException {
            room(4);
            buf.putInt(FOOTER_MAGIC);
            drain(true);
            long sum = crc.getValue();
            buf.putLong(sum);
            drain(false);
            ch.force(true);
            return sum;
        }

        /** Bytes written so far (the file's length once {@link #finish()} returned). */
        long length() {
            return written;
        }

        @Override
        public void close() throws IOException {
            // an unfinished file is never named by a manifest: the next open or commit deletes it
            ch.close();
        }
    }

    /**
     * Opens {@code file} for reading; fails with {@link CorruptIndexException} if it is not a regular
     * file. Checked before opening: a directory fails only when read, with a bare "No such device",
     * and opening a named pipe would wait forever for a writer.
     */
    static FileChannel openToRead(Path file, String kind) throws IOException {
        if (!Files.isRegularFile(file) && Files.exists(file)) {
            throw new CorruptIndexException(file, "is not a regular file (a directory, a pipe or a device), not a "
                    + kind + " file");
        }
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    /**
     * Checks the header, footer and checksum of an open file and returns its header (the body
     * starts at {@link #HEADER}). Fails on a wrong magic number or format version, a missing footer
     * or a checksum that does not match the contents.
     */
    static Header verify(FileChannel ch, Path file, long magic, String kind) throws IOException {
        long size = ch.size();
        if (size < 12) {
            throw new CorruptIndexException(file, "truncated " + kind + " file: " + size + " bytes");
        }
        ByteBuffer head = map(ch, 0, 12);
        long m = head.getLong();
        if (m != magic) {
            throw new CorruptIndexException(file, "not a " + kind + " file (magic " + Long.toHexString(m) + ")");
        }
        int v = head.getInt();
        if (v != FORMAT) {
            throw new CorruptIndexException(file, "unsupported " + kind + " format version " + v
                    + (v < FORMAT ? ", written by an older BBFlow" : ", written by a newer BBFlow")
                    + " (this build reads format " + FORMAT + " only and upgrades nothing: rebuild the index"
                    + " from its source data, or open it with the version that wrote it)");
        }
        if (size < HEADER + FOOTER) {
            throw new CorruptIndexException(file, "truncated " + kind + " file: " + size + " bytes");
        }
        ByteBuffer stamp = map(ch, 12, HEADER - 12);
        UUID index = new UUID(stamp.getLong(), stamp.getLong());
        long generation = stamp.getLong();
        long number = stamp.getLong();
        ByteBuffer foot = map(ch, size - FOOTER, FOOTER);
        int fm = foot.getInt();
        long stored = foot.getLong();
        if (fm != FOOTER_MAGIC) {
            throw new CorruptIndexException(file, "no footer: truncated or overwritten " + kind + " file");
        }
        long computed = checksum(ch, size);
        if (computed != stored) {
            throw new CorruptIndexException(file, "checksum mismatch (stored " + Long.toHexString(stored)
                    + ", computed " + Long.toHexString(computed) + ")");
        }
        return new Header(index, generation, number, size - HEADER - FOOTER, size, stored);
    }

    /**
     * {@link #verify} and then checks that the file is the one {@code entry} of a commit point of
     * index {@code index} names: same index id, file number, generation, length and checksum.
     */
    static Header verify(FileChannel ch, Path file, long magic, String kind, UUID index, Manifest.Entry entry)
            throws IOException {
        Header h = verify(ch, file, magic, kind);
        if (!h.index().equals(index)) {
            throw new CorruptIndexException(file, "belongs to another index (id " + h.index() + ", this index is "
                    + index + ")");
        }
        if (h.number() != entry.number()) {
            throw new CorruptIndexException(file, "is " + kind + " file number " + h.number()
                    + " of this index, not " + entry.number() + ": a copied or renamed file");
        }
        if (h.generation() != entry.generation()) {
            throw new CorruptIndexException(file, "was written by commit " + h.generation()
                    + ", the commit point lists the one of commit " + entry.generation() + ": a file of another commit");
        }
        if (h.length() != entry.length() || h.checksum() != entry.checksum()) {
            throw new CorruptIndexException(file, "has " + h.length() + " bytes and checksum "
                    + Long.toHexString(h.checksum()) + ", the commit point lists " + entry.length() + " bytes and "
                    + Long.toHexString(entry.checksum()));
        }
        return h;
    }

    private static long checksum(FileChannel ch, long size) throws IOException {
        CRC32C crc = new CRC32C();
        long end = size - 8;
        for (long pos = 0; pos < end; pos += MAP_CHUNK) {
            crc.update(ch.map(FileChannel.MapMode.READ_ONLY, pos, Math.min(MAP_CHUNK, end - pos)));
        }
        return crc.getValue();
    }

    static ByteBuffer map(FileChannel ch, long pos, long bytes) throws IOException {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, pos, bytes);
        return m.order(ByteOrder.LITTLE_ENDIAN);
    }
}
