package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The on-disk form of an index directory: one file per tree ({@code tree-N.bkd}), one tombstone
 * file per commit ({@code tombstones-N.bin}) and the {@link Manifest} naming the files of the last
 * commit. Every file has the checksummed layout of {@link IndexFile}; tree files are written once
 * and never changed. A file is deleted only when no durable manifest names it: after a newer
 * manifest is durable ({@link #commit}), or on open if no manifest names it (the leftover of a
 * commit that did not finish). Trees are read back through read-only memory mappings into heap
 * arrays, so deleting a file never affects a reader.
 */
final class TreeFiles {
    private static final long TREE_MAGIC = 0x3245455254444B42L;  // "BKDTREE2"
    private static final long TOMB_MAGIC = 0x424D4F5454444B42L;  // "BKDTTOMB"
    /**
     * Version 2 packs ids and sequence numbers ({@link PackedLongs}); version 1 (8 bytes each)
     * is refused with a {@link CorruptIndexException} naming the version.
     */
    static final int TREE_VERSION = 2;
    private static final int VERSION = 1;
    /** dims, size, level, nodes, minSeq, id base, id width, seq base, seq width. */
    private static final int TREE_FIELDS = 48;
    private static final int TOMB_FIELDS = 12;
    private static final String PATTERN = "{tree-*.bkd,tombstones-*.bin}";

    private TreeFiles() {}

    /** What a manifest describes, loaded and verified. */
    record Contents(Manifest manifest, List<KdTree> trees, List<Tombstones.Entry> tombstones) {}

    static void writeTree(KdTree t, Path file) throws IOException {
        int nodes = t.nodeFrom.length;
        try (IndexFile.Output out = new IndexFile.Output(file, TREE_MAGIC, TREE_VERSION, false)) {
            out.putInt(t.dims).putInt(t.size).putInt(t.level).putInt(nodes).putLong(t.minSeq);
            out.putLong(t.ids.base).putInt(t.ids.width).putLong(t.seqs.base).putInt(t.seqs.width);
            out.putLongs(t.coords, t.size * t.dims);
            t.ids.writeTo(out);
            t.seqs.writeTo(out);
            out.putInts(t.nodeFrom);
            out.putInts(t.nodeTo);
            out.putInts(t.nodeRight);
            out.putLongs(t.nodeMin, nodes * t.dims);
            out.putLongs(t.nodeMax, nodes * t.dims);
            out.finish();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    static KdTree readTree(Path file, int dims, ArrayPool pool) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long body = IndexFile.verify(ch, file, TREE_MAGIC, TREE_VERSION, "tree");
            if (body < TREE_FIELDS) {
                throw new CorruptIndexException(file, "tree header cut short");
            }
            ByteBuffer head = IndexFile.map(ch, IndexFile.HEADER, TREE_FIELDS);
            int fileDims = head.getInt();
            int size = head.getInt();
            int level = head.getInt();
            int nodes = head.getInt();
            long minSeq = head.getLong();
            long idBase = head.getLong();
            int idWidth = head.getInt();
            long seqBase = head.getLong();
            int seqWidth = head.getInt();
            if (fileDims != dims) {
                throw new CorruptIndexException(file, "holds " + fileDims + "-dimensional points, expected " + dims);
            }
            if (!validWidth(idWidth) || !validWidth(seqWidth)) {
                throw new CorruptIndexException(file, "invalid packed widths " + idWidth + "/" + seqWidth);
            }
            long expected = TREE_FIELDS + 8L * ((long) size * dims + 2L * nodes * dims)
                    + (long) (idWidth + seqWidth) * size + 12L * nodes;
            if (size < 0 || nodes < 0 || level < 0 || body != expected) {
                throw new CorruptIndexException(file, "body has " + body + " bytes, its header implies " + expected);
            }
            long pos = IndexFile.HEADER + TREE_FIELDS;
            long[] coords = pool.take(size * dims);
            pos = getLongs(ch, pos, coords, size * dims);
            PackedLongs ids = readPacked(ch, pos, idBase, idWidth, size, pool);
            pos += (long) idWidth * size;
            PackedLongs seqs = readPacked(ch, pos, seqBase, seqWidth, size, pool);
            pos += (long) seqWidth * size;
            if (size > 0 && seqs.base != minSeq && seqWidth != 8) {
                throw new CorruptIndexException(file, "sequence base " + seqs.base + " differs from the minimum " + minSeq);
            }
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

    private static boolean validWidth(int w) {
        return w == 0 || w == 1 || w == 2 || w == 4 || w == 8;
    }

    private static PackedLongs readPacked(FileChannel ch, long pos, long base, int width, int size, ArrayPool pool)
            throws IOException {
        byte[] b = null;
        short[] s = null;
        int[] i = null;
        long[] l = null;
        if (size > 0) {
            switch (width) {
                case 1:
                    b = new byte[size];
                    IndexFile.map(ch, pos, size).get(b);
                    break;
                case 2:
                    s = new short[size];
                    IndexFile.map(ch, pos, 2L * size).asShortBuffer().get(s);
                    break;
                case 4:
                    i = new int[size];
                    getInts(ch, pos, i);
                    break;
                case 8:
                    l = pool.take(size);
                    getLongs(ch, pos, l, size);
                    break;
                default:
                    break;
            }
        } else if (width == 8) {
            l = new long[0];
        }
        return PackedLongs.of(base, width, size, b, s, i, l);
    }

    private static long getLongs(FileChannel ch, long pos, long[] dst, int n) throws IOException {
        int done = 0;
        while (done < n) {
            int k = Math.min(n - done, 1 << 26);
            IndexFile.map(ch, pos, 8L * k).asLongBuffer().get(dst, done, k);
            pos += 8L * k;
            done += k;
        }
        return pos;
    }

    private static long getInts(FileChannel ch, long pos, int[] dst) throws IOException {
        if (dst.length > 0) {
            IndexFile.map(ch, pos, 4L * dst.length).asIntBuffer().get(dst);
        }
        return pos + 4L * dst.length;
    }

    static void writeTombstones(Path file, int dims, List<Tombstones.Entry> tombstones) throws IOException {
        try (IndexFile.Output out = new IndexFile.Output(file, TOMB_MAGIC, VERSION, false)) {
            out.putInt(dims).putLong(tombstones.size());
            for (Tombstones.Entry e : tombstones) {
                out.putLongs(e.key().coords, dims);
                out.putLong(e.key().id).putLong(e.seq());
            }
            out.finish();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    static List<Tombstones.Entry> readTombstones(Path file, int dims) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long body = IndexFile.verify(ch, file, TOMB_MAGIC, VERSION, "tombstone");
            if (body < TOMB_FIELDS) {
                throw new CorruptIndexException(file, "tombstone header cut short");
            }
            ByteBuffer b = IndexFile.map(ch, IndexFile.HEADER, body);
            int fileDims = b.getInt();
            long count = b.getLong();
            if (fileDims != dims) {
                throw new CorruptIndexException(file, "holds " + fileDims + "-dimensional tombstones, expected " + dims);
            }
            if (count < 0 || body != TOMB_FIELDS + count * 8L * (dims + 2)) {
                throw new CorruptIndexException(file, "body has " + body + " bytes for " + count + " tombstones");
            }
            List<Tombstones.Entry> out = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                long[] key = new long[dims];
                for (int d = 0; d < dims; d++) {
                    key[d] = b.getLong();
                }
                long id = b.getLong();
                long seq = b.getLong();
                out.add(new Tombstones.Entry(new Tombstones.Key(key, id, Coordinates.hash(key, 0, dims, id)), seq));
            }
            return out;
        }
    }

    /**
     * One commit: writes (and fsyncs) a file for every tree that has none, the tombstones, then
     * the manifest (temp file, fsync, atomic rename, directory fsync); only then deletes the files
     * no manifest names any more. Callers serialize commits; nothing else writes files.
     */
    static Manifest commit(Path dir, int dims, long generation, long sequence, KdTree[] trees,
                           List<Tombstones.Entry> tombstones, LongSupplier nextFileNumber) throws IOException {
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
        writeTombstones(dir.resolve(tombName), dims, tombstones);
        Manifest m = new Manifest(dims, generation, sequence, tombName, List.copyOf(names));
        m.write(dir);
        deleteUnlisted(dir, m);
        return m;
    }

    /**
     * Reads and verifies the last commit of {@code dir} (null if there is none) and deletes the
     * files it does not name. The caller holds the directory's lock.
     *
     * @throws CorruptIndexException if a file named by the manifest fails verification
     * @throws java.nio.file.NoSuchFileException if a file named by the manifest is missing
     * @throws IllegalArgumentException if the directory holds an index of another dimension count
     */
    static Contents open(Path dir, int dims, ArrayPool pool) throws IOException {
        Manifest m = Manifest.read(dir);
        if (m == null) {
            deleteUnlisted(dir, null);
            return null;
        }
        if (m.dims() != dims) {
            throw new IllegalArgumentException("directory " + dir + " holds a " + m.dims()
                    + "-dimensional index, the builder asks for " + dims);
        }
        List<KdTree> trees = new ArrayList<>();
        for (String n : m.trees()) {
            trees.add(readTree(dir.resolve(n), dims, pool));
        }
        List<Tombstones.Entry> tombs = readTombstones(dir.resolve(m.tombstones()), dims);
        for (Tombstones.Entry e : tombs) {
            if (e.seq() > m.sequence()) {
                throw new CorruptIndexException(dir.resolve(m.tombstones()), "tombstone sequence " + e.seq()
                        + " is beyond the committed clock " + m.sequence());
            }
        }
        deleteUnlisted(dir, m);
        return new Contents(m, trees, tombs);
    }

    /** Highest file number used in {@code dir}. */
    static long maxFileNumber(Path dir) throws IOException {
        long max = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PATTERN)) {
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

    /**
     * Deletes the tree and tombstone files {@code m} (null: no manifest) does not name, and a stale
     * temp manifest. Best effort: a file that cannot be deleted now (say, still mapped on Windows)
     * is not needed by any commit and is retried by the next commit or open.
     */
    private static void deleteUnlisted(Path dir, Manifest m) throws IOException {
        Set<String> keep = new HashSet<>();
        if (m != null) {
            keep.addAll(m.trees());
            keep.add(m.tombstones());
        }
        List<Path> doomed = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PATTERN)) {
            for (Path p : s) {
                if (!keep.contains(p.getFileName().toString())) {
                    doomed.add(p);
                }
            }
        }
        doomed.add(dir.resolve(Manifest.TEMP));
        for (Path p : doomed) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // left for the next commit or open
            }
        }
    }
}
