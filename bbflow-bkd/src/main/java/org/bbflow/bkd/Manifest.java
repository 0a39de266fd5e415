package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The commit point of an index directory: the file {@code MANIFEST} names the tree files and
 * the tombstone file of the last commit, with the sequence clock and a generation number that
 * grows by one per commit. It is checksummed like every file ({@link IndexFile}) and replaced
 * only by {@link #write}: temp file, fsync, atomic rename, fsync of the directory.
 */
record Manifest(int dims, long generation, long sequence, String tombstones, List<String> trees) {
    static final String NAME = "MANIFEST";
    static final String TEMP = "MANIFEST.tmp";
    private static final long MAGIC = 0x464E414D444B4242L; // "BBKDMANF"
    private static final int VERSION = 1;

    /** Makes this manifest the directory's commit point; durable when this returns. */
    void write(Path dir) throws IOException {
        Path tmp = dir.resolve(TEMP);
        try (IndexFile.Output out = new IndexFile.Output(tmp, MAGIC, VERSION, true)) {
            out.putInt(dims).putLong(generation).putLong(sequence);
            putName(out, tombstones);
            out.putInt(trees.size());
            for (String t : trees) {
                putName(out, t);
            }
            out.finish();
        }
        // the new files' directory entries must be durable before the manifest that names them
        syncDirectory(dir);
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(dir);
    }

    private static void putName(IndexFile.Output out, String name) throws IOException {
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.putInt(b.length).putBytes(b);
    }

    /** Reads and verifies the manifest of {@code dir}; null if the directory has none (a new index). */
    static Manifest read(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long body = IndexFile.verify(ch, file, MAGIC, VERSION, "manifest");
            ByteBuffer b = IndexFile.map(ch, IndexFile.HEADER, body);
            try {
                int dims = b.getInt();
                long generation = b.getLong();
                long sequence = b.getLong();
                String tombs = getName(b, file);
                int n = b.getInt();
                if (n < 0 || n > b.remaining() / 5) {
                    throw new CorruptIndexException(file, "bad tree count " + n);
                }
                List<String> trees = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    trees.add(getName(b, file));
                }
                if (b.hasRemaining()) {
                    throw new CorruptIndexException(file, b.remaining() + " unexpected bytes after the tree list");
                }
                return new Manifest(dims, generation, sequence, tombs, List.copyOf(trees));
            } catch (java.nio.BufferUnderflowException e) {
                throw new CorruptIndexException(file, "body shorter than its contents");
            }
        }
    }

    private static String getName(ByteBuffer b, Path file) throws IOException {
        int len = b.getInt();
        if (len <= 0 || len > 255 || len > b.remaining()) {
            throw new CorruptIndexException(file, "bad file name length " + len);
        }
        byte[] name = new byte[len];
        b.get(name);
        String s = new String(name, java.nio.charset.StandardCharsets.UTF_8);
        if (s.contains("/") || s.contains("\\") || s.startsWith(".")) {
            throw new CorruptIndexException(file, "bad file name " + s);
        }
        return s;
    }

    /** Forces the directory's entries (created, renamed and deleted files) to the device. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Windows cannot open a directory as a channel; NTFS journals the metadata itself
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("windows")) {
                throw e;
            }
        }
    }
}
