package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The commit point of an index directory: the file {@code MANIFEST} lists every file of the last
 * commit (its trees and, if there are tombstones, one tombstone file) with the generation of the
 * commit that wrote it, its length and its checksum, together with the index id, the sequence
 * clock and the commit's generation (one more per commit). It is checksummed like every file
 * ({@link IndexFile}) and replaced only by {@link #write}: temp file, fsync, atomic rename, fsync of
 * the directory. A new index writes its first (empty) manifest when it is created, so a directory
 * holding index files but no manifest is damaged, never a new index.
 */
record Manifest(UUID index, int dims, long generation, long sequence, List<Entry> files) {
    static final String NAME = "MANIFEST";
    static final String TEMP = "MANIFEST.tmp";
    private static final long MAGIC = 0x464E414D444B4242L; // "BBKDMANF"
    private static final byte TREE = 'T';
    private static final byte TOMBSTONES = 'D';

    /**
     * One file of a commit.
     *
     * @param name       the file's name in the directory
     * @param tree       a tree file (else the tombstone file)
     * @param number     the file number in its name and header
     * @param generation the commit that wrote it
     * @param length     its length in bytes
     * @param checksum   the CRC32C in its footer
     */
    record Entry(String name, boolean tree, long number, long generation, long length, long checksum) {}

    /** The tree files. */
    List<Entry> trees() {
        List<Entry> t = new ArrayList<>();
        for (Entry e : files) {
            if (e.tree()) {
                t.add(e);
            }
        }
        return t;
    }

    /** The tombstone file, or null if the commit has no tombstones. */
    Entry tombstones() {
        for (Entry e : files) {
            if (!e.tree()) {
                return e;
            }
        }
        return null;
    }

    /** Makes this manifest the directory's commit point; durable when this returns. */
    void write(Path dir) throws IOException {
        write(dir, null);
    }

    /** As {@link #write(Path)}; {@code step} (a test hook, may be null) is told when the temp file is durable. */
    void write(Path dir, java.util.function.Consumer<String> step) throws IOException {
        Path tmp = dir.resolve(TEMP);
        try (IndexFile.Output out = new IndexFile.Output(tmp, MAGIC, new IndexFile.Stamp(index, generation, 0), true)) {
            out.putInt(dims).putLong(sequence).putInt(files.size());
            for (Entry e : files) {
                byte[] b = e.name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.putInt(e.tree() ? TREE : TOMBSTONES).putInt(b.length).putBytes(b);
                out.putLong(e.number()).putLong(e.generation()).putLong(e.length()).putLong(e.checksum());
            }
            out.finish();
        }
        // the new files' directory entries must be durable before the manifest that names them
        syncDirectory(dir);
        if (step != null) {
            step.accept("manifest written");
        }
        Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(dir);
    }

    /** Reads and verifies the manifest of {@code dir}; null if the directory has none. */
    static Manifest read(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file)) {
            return null;
        }
        try (FileChannel ch = IndexFile.openToRead(file, "manifest")) {
            IndexFile.Header h = IndexFile.verify(ch, file, MAGIC, "manifest");
            if (h.number() != 0) {
                throw new CorruptIndexException(file, "header names file number " + h.number() + ", not a manifest");
            }
            ByteBuffer b = IndexFile.map(ch, IndexFile.HEADER, h.body());
            try {
                int dims = b.getInt();
                long sequence = b.getLong();
                int n = b.getInt();
                if (n < 0 || n > b.remaining() / 40) {
                    throw new CorruptIndexException(file, "bad file count " + n);
                }
                List<Entry> files = new ArrayList<>(n);
                Set<String> names = new HashSet<>();
                Set<Long> numbers = new HashSet<>();
                boolean tombs = false;
                for (int i = 0; i < n; i++) {
                    int kind = b.getInt();
                    if (kind != TREE && kind != TOMBSTONES) {
                        throw new CorruptIndexException(file, "bad file kind " + kind);
                    }
                    String name = getName(b, file);
                    Entry e = new Entry(name, kind == TREE, b.getLong(), b.getLong(), b.getLong(), b.getLong());
                    if (!name.equals(fileName(e.tree(), e.number()))) {
                        throw new CorruptIndexException(file, "lists " + name + " as file number " + e.number());
                    }
                    if (!names.add(name) || !numbers.add(e.number())) {
                        throw new CorruptIndexException(file, "lists " + name + " twice");
                    }
                    if (!e.tree() && tombs) {
                        throw new CorruptIndexException(file, "lists two tombstone files");
                    }
                    tombs |= !e.tree();
                    if (e.generation() < 1 || e.generation() > h.generation()) {
                        throw new CorruptIndexException(file, "lists " + name + " from commit " + e.generation()
                                + ", beyond its own commit " + h.generation());
                    }
                    files.add(e);
                }
                if (b.hasRemaining()) {
                    throw new CorruptIndexException(file, b.remaining() + " unexpected bytes after the file list");
                }
                return new Manifest(h.index(), dims, h.generation(), sequence, List.copyOf(files));
            } catch (java.nio.BufferUnderflowException e) {
                throw new CorruptIndexException(file, "body shorter than its contents");
            }
        }
    }

    /** The name of file {@code number}: {@code tree-N.bkd} or {@code tombstones-N.bin}. */
    static String fileName(boolean tree, long number) {
        return String.format(tree ? "tree-%08d.bkd" : "tombstones-%08d.bin", number);
    }

    private static String getName(ByteBuffer b, Path file) throws IOException {
        int len = b.getInt();
        if (len <= 0 || len > 255 || len > b.remaining()) {
            throw new CorruptIndexException(file, "bad file name length " + len);
        }
        byte[] name = new byte[len];
        b.get(name);
        return new String(name, java.nio.charset.StandardCharsets.UTF_8);
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
