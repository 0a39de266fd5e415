package org.bbflow.bkd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The on-disk form of an index directory: one file per tree ({@code tree-N.bkd}: a 32-byte
 * header, then the point and node arrays, little-endian), a tombstone file and a text
 * {@code MANIFEST} naming the live files, replaced atomically on a clean {@link BkdTree#close()}.
 * Tree files are read back through a read-only memory mapping.
 */
final class TreeFiles {
    static final String MANIFEST = "MANIFEST";
    private static final long MAGIC = 0x424B445452454531L; // "BKDTREE1"
    private static final int HEADER = 32;
    private static final int CHUNK = 1 << 20;

    private TreeFiles() {}

    /** What a manifest describes. */
    record Contents(long sequence, List<KdTree> trees, List<Tombstones.Entry> tombstones) {}

    static void writeTree(KdTree t, Path file) throws IOException {
        int nodes = t.nodeFrom.length;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
            buf.putLong(MAGIC).putInt(t.dims).putInt(t.size).putInt(t.level).putInt(nodes).putLong(t.minSeq);
            buf = putLongs(ch, buf, t.coords, t.size * t.dims);
            buf = putLongs(ch, buf, t.ids, t.size);
            buf = putLongs(ch, buf, t.seqs, t.size);
            buf = putInts(ch, buf, t.nodeFrom);
            buf = putInts(ch, buf, t.nodeTo);
            buf = putInts(ch, buf, t.nodeRight);
            buf = putLongs(ch, buf, t.nodeMin, nodes * t.dims);
            buf = putLongs(ch, buf, t.nodeMax, nodes * t.dims);
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }

    private static ByteBuffer putLongs(FileChannel ch, ByteBuffer buf, long[] a, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            if (buf.remaining() < 8) {
                drain(ch, buf);
            }
            buf.putLong(a[i]);
        }
        return buf;
    }

    private static ByteBuffer putInts(FileChannel ch, ByteBuffer buf, int[] a) throws IOException {
        for (int v : a) {
            if (buf.remaining() < 4) {
                drain(ch, buf);
            }
            buf.putInt(v);
        }
        return buf;
    }

    private static void drain(FileChannel ch, ByteBuffer buf) throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
        buf.clear();
    }

    static KdTree readTree(Path file, int dims, ArrayPool pool) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = ch.size();
            ByteBuffer head = map(ch, 0, HEADER);
            if (length < HEADER || head.getLong() != MAGIC) {
                throw new IOException(file + " is not a bbflow-bkd tree file");
            }
            int fileDims = head.getInt();
            int size = head.getInt();
            int level = head.getInt();
            int nodes = head.getInt();
            long minSeq = head.getLong();
            if (fileDims != dims) {
                throw new IOException(file + " holds " + fileDims + "-dimensional points, expected " + dims);
            }
            long expected = HEADER + 8L * ((long) size * dims + 2L * size + 2L * nodes * dims) + 12L * nodes;
            if (length != expected) {
                throw new IOException(file + " has " + length + " bytes, expected " + expected);
            }
            long pos = HEADER;
            long[] coords = pool.take(size * dims);
            pos = getLongs(ch, pos, coords, size * dims);
            long[] ids = pool.take(size);
            pos = getLongs(ch, pos, ids, size);
            long[] seqs = pool.take(size);
            pos = getLongs(ch, pos, seqs, size);
            int[] from = new int[nodes];
            int[] to = new int[nodes];
            int[] right = new int[nodes];
            pos = getInts(ch, pos, from);
            pos = getInts(ch, pos, to);
            pos = getInts(ch, pos, right);
            long[] min = new long[nodes * dims];
            long[] max = new long[nodes * dims];
            pos = getLongs(ch, pos, min, min.length);
            getLongs(ch, pos, max, max.length);
            KdTree t = new KdTree(dims, size, level, coords, ids, seqs, minSeq, from, to, right, min, max);
            t.file = file;
            return t;
        }
    }

    private static ByteBuffer map(FileChannel ch, long pos, long bytes) throws IOException {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, pos, bytes);
        return m.order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long getLongs(FileChannel ch, long pos, long[] dst, int n) throws IOException {
        int done = 0;
        while (done < n) {
            int k = Math.min(n - done, 1 << 26);
            map(ch, pos, 8L * k).asLongBuffer().get(dst, done, k);
            pos += 8L * k;
            done += k;
        }
        return pos;
    }

    private static long getInts(FileChannel ch, long pos, int[] dst) throws IOException {
        if (dst.length > 0) {
            map(ch, pos, 4L * dst.length).asIntBuffer().get(dst);
        }
        return pos + 4L * dst.length;
    }

    /** Writes the files of trees that have none, the tombstones and then, atomically, the manifest. */
    static void checkpoint(Path dir, int dims, long sequence, KdTree[] trees, List<Tombstones.Entry> tombstones,
                           java.util.function.LongSupplier nextFileNumber) throws IOException {
        List<String> names = new ArrayList<>();
        for (KdTree t : trees) {
            if (t.file == null) {
                Path f = dir.resolve(String.format("tree-%08d.bkd", nextFileNumber.getAsLong()));
                writeTree(t, f);
                t.file = f;
            }
            names.add(t.file.getFileName().toString());
        }
        String tombName = String.format("tombstones-%08d.bin", nextFileNumber.getAsLong());
        try (FileChannel ch = FileChannel.open(dir.resolve(tombName), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
            buf.putLong(tombstones.size());
            for (Tombstones.Entry e : tombstones) {
                if (buf.remaining() < 8 * (dims + 2)) {
                    drain(ch, buf);
                }
                for (long c : e.key().coords) {
                    buf.putLong(c);
                }
                buf.putLong(e.key().id).putLong(e.seq());
            }
            drain(ch, buf);
            ch.force(true);
        }
        Path tmp = dir.resolve(MANIFEST + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("bbflow-bkd 1\ndims " + dims + "\nsequence " + sequence + "\ntombstones " + tombName + "\n");
            for (String n : names) {
                w.write("tree " + n + "\n");
            }
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        deleteUnlisted(dir, names, tombName);
    }

    /** Reads the manifest of {@code dir} (null if there is none) and deletes files it does not list. */
    static Contents open(Path dir, int dims, ArrayPool pool) throws IOException {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.exists(manifest)) {
            deleteUnlisted(dir, List.of(), null);
            return null;
        }
        long sequence = -1;
        String tombName = null;
        List<String> names = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(manifest, StandardCharsets.UTF_8)) {
            if (!"bbflow-bkd 1".equals(r.readLine())) {
                throw new IOException(manifest + " is not a bbflow-bkd manifest");
            }
            for (String line; (line = r.readLine()) != null; ) {
                String[] kv = line.split(" ", 2);
                switch (kv[0]) {
                    case "dims" -> {
                        int d = Integer.parseInt(kv[1]);
                        if (d != dims) {
                            throw new IllegalArgumentException("directory " + dir + " holds a " + d
                                    + "-dimensional index, the builder asks for " + dims);
                        }
                    }
                    case "sequence" -> sequence = Long.parseLong(kv[1]);
                    case "tombstones" -> tombName = kv[1];
                    case "tree" -> names.add(kv[1]);
                    default -> throw new IOException("unknown manifest line: " + line);
                }
            }
        }
        deleteUnlisted(dir, names, tombName);
        List<KdTree> trees = new ArrayList<>();
        for (String n : names) {
            trees.add(readTree(dir.resolve(n), dims, pool));
        }
        List<Tombstones.Entry> tombs = new ArrayList<>();
        if (tombName != null) {
            try (FileChannel ch = FileChannel.open(dir.resolve(tombName), StandardOpenOption.READ)) {
                ByteBuffer b = map(ch, 0, ch.size());
                long count = b.getLong();
                for (long i = 0; i < count; i++) {
                    long[] key = new long[dims];
                    for (int d = 0; d < dims; d++) {
                        key[d] = b.getLong();
                    }
                    long id = b.getLong();
                    long seq = b.getLong();
                    tombs.add(new Tombstones.Entry(new Tombstones.Key(key, id, Coordinates.hash(key, 0, dims, id)), seq));
                }
            }
        }
        return new Contents(sequence, trees, tombs);
    }

    /** Highest file number used in {@code dir}. */
    static long maxFileNumber(Path dir) throws IOException {
        long max = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "{tree-*.bkd,tombstones-*.bin}")) {
            for (Path p : s) {
                String n = p.getFileName().toString();
                String digits = n.substring(n.indexOf('-') + 1, n.indexOf('.'));
                try {
                    max = Math.max(max, Long.parseLong(digits));
                } catch (NumberFormatException ignored) {
                    // not ours
                }
            }
        }
        return max;
    }

    private static void deleteUnlisted(Path dir, List<String> trees, String tombName) throws IOException {
        Set<String> keep = new HashSet<>(trees);
        if (tombName != null) {
            keep.add(tombName);
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "{tree-*.bkd,tombstones-*.bin}")) {
            for (Path p : s) {
                if (!keep.contains(p.getFileName().toString())) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete reclaimed tree file " + file, e);
        }
    }
}
