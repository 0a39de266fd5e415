package org.bbflow.bkd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The on-disk form of an index directory: one file per tree ({@code tree-N.bkd}), one tombstone
 * file per commit that has tombstones ({@code tombstones-N.bin}) and the {@link Manifest} listing
 * the files of the last commit. Every file has the checksummed, stamped layout of
 * {@link IndexFile}; tree files are written once and never changed. A file is deleted only when no
 * durable manifest names it: after a newer manifest is durable ({@link #commit}), or on open if
 * the verified manifest does not name it (the leftover of a commit that did not finish). A
 * directory holding index files but no manifest is refused, never emptied. Trees are read back
 * through read-only memory mappings into heap arrays, so deleting a file never affects a reader.
 */
final class TreeFiles {
    static final long TREE_MAGIC = 0x3245455254444B42L;  // "BKDTREE2"
    static final long TOMB_MAGIC = 0x424D4F5454444B42L;  // "BKDTTOMB"
    /** dims, size, level, nodes, minSeq, id base, id width, seq base, seq width. */
    private static final int TREE_FIELDS = 48;
    private static final int TOMB_FIELDS = 12;
    private static final String PATTERN = "{tree-*.bkd,tombstones-*.bin}";

    private TreeFiles() {}

    /** What a manifest describes, loaded and verified. */
    record Contents(Manifest manifest, List<KdTree> trees, List<Tombstones.Entry> tombstones) {}

    /** Writes (and fsyncs) tree file {@code stamp.number()} of {@code dir}; returns its manifest entry. */
    static Manifest.Entry writeTree(KdTree t, Path dir, IndexFile.Stamp stamp) throws IOException {
        int nodes = t.nodeFrom.length;
        String name = Manifest.fileName(true, stamp.number());
        Path file = dir.resolve(name);
        try (IndexFile.Output out = new IndexFile.Output(file, TREE_MAGIC, stamp, false)) {
            out.putInt(t.dims).putInt(t.size).putInt(t.level).putInt(nodes).putLong(t.minSeq);
            out.putLong(t.ids.base).putInt(t.ids.width).putLong(t.seqs.base).putInt(t.seqs.width);
            for (long[] page : t.coords) {
                out.putLongs(page, page.length);
            }
            t.ids.writeTo(out);
            t.seqs.writeTo(out);
            out.putInts(t.nodeFrom);
            out.putInts(t.nodeTo);
            out.putInts(t.nodeRight);
            out.putLongs(t.nodeMin, nodes * t.dims);
            out.putLongs(t.nodeMax, nodes * t.dims);
            long sum = out.finish();
            return new Manifest.Entry(name, true, stamp.number(), stamp.generation(), out.length(), sum);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Reads and verifies a tree file: its checksum and, if {@code entry} is not null, that it is
     * the file {@code entry} of index {@code index} names. Points are read into {@link Pages}.
     * {@code dims} 0 takes the dimension count from the file (the check tool, without a manifest);
     * {@code shift} is the index's page size ({@link Pages}), -1 for the default.
     */
    static KdTree readTree(Path file, int dims, int shift, UUID index, Manifest.Entry entry) throws IOException {
        try (FileChannel ch = IndexFile.openToRead(file, "tree")) {
            long body = (entry == null ? IndexFile.verify(ch, file, TREE_MAGIC, "tree")
                    : IndexFile.verify(ch, file, TREE_MAGIC, "tree", index, entry)).body();
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
            if (dims == 0 && fileDims >= 1 && fileDims <= BkdTree.MAX_DIMS) {
                dims = fileDims;                // the check tool without a manifest: the file says
            }
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
            if (shift < 0) {
                shift = Pages.shift(dims);
            }
            long[][] coords = Pages.allocate(size, dims, shift);
            pos = readPages(ch, pos, coords, null);
            PackedLongs ids = readPacked(ch, pos, idBase, idWidth, size, shift);
            pos += (long) idWidth * size;
            PackedLongs seqs = readPacked(ch, pos, seqBase, seqWidth, size, shift);
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
            KdTree t = new KdTree(dims, size, level, coords, shift, ids, seqs, minSeq, from, to, right, min, max);
            t.file = entry;
            return t;
        }
    }

    private static boolean validWidth(int w) {
        return w == 0 || w == 1 || w == 2 || w == 3 || w == 4 || w == 8;
    }

    private static PackedLongs readPacked(FileChannel ch, long pos, long base, int width, int size, int shift)
            throws IOException {
        byte[][] pages = PackedLongs.allocate(width, size, shift);
        readPages(ch, pos, null, pages);
        return PackedLongs.of(base, width, size, shift, pages);
    }

    /**
     * Reads consecutive pages (either {@code longPages} or {@code bytePages}) starting at {@code pos}
     * through mappings of up to 512 MiB each, not one per page; returns the position after them.
     */
    private static long readPages(FileChannel ch, long pos, long[][] longPages, byte[][] bytePages) throws IOException {
        int count = longPages != null ? longPages.length : bytePages.length;
        long total = 0;
        for (int p = 0; p < count; p++) {
            total += longPages != null ? 8L * longPages[p].length : bytePages[p].length;
        }
        ByteBuffer map = null;
        long end = pos + total;
        for (int p = 0; p < count; p++) {
            int len = longPages != null ? 8 * longPages[p].length : bytePages[p].length;
            if (map == null || map.remaining() < len) {
                map = IndexFile.map(ch, pos, Math.min(end - pos, Math.max(len, 1L << 29)));
            }
            if (longPages != null) {
                map.asLongBuffer().get(longPages[p]);
                map.position(map.position() + len);
            } else {
                map.get(bytePages[p]);
            }
            pos += len;
        }
        return pos;
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

    /** Writes (and fsyncs) tombstone file {@code stamp.number()} of {@code dir}; returns its manifest entry. */
    static Manifest.Entry writeTombstones(Path dir, int dims, List<Tombstones.Entry> tombstones, IndexFile.Stamp stamp)
            throws IOException {
        String name = Manifest.fileName(false, stamp.number());
        Path file = dir.resolve(name);
        try (IndexFile.Output out = new IndexFile.Output(file, TOMB_MAGIC, stamp, false)) {
            out.putInt(dims).putLong(tombstones.size());
            for (Tombstones.Entry e : tombstones) {
                out.putLongs(e.key().coords, dims);
                out.putLong(e.key().id).putLong(e.seq());
            }
            long sum = out.finish();
            return new Manifest.Entry(name, false, stamp.number(), stamp.generation(), out.length(), sum);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** Reads and verifies a tombstone file (bound to {@code entry} of index {@code index} unless null). */
    static List<Tombstones.Entry> readTombstones(Path file, int dims, UUID index, Manifest.Entry entry)
            throws IOException {
        try (FileChannel ch = IndexFile.openToRead(file, "tombstone")) {
            long body = (entry == null ? IndexFile.verify(ch, file, TOMB_MAGIC, "tombstone")
                    : IndexFile.verify(ch, file, TOMB_MAGIC, "tombstone", index, entry)).body();
            if (body < TOMB_FIELDS) {
                throw new CorruptIndexException(file, "tombstone header cut short");
            }
            ByteBuffer b = IndexFile.map(ch, IndexFile.HEADER, body);
            int fileDims = b.getInt();
            long count = b.getLong();
            if (dims == 0 && fileDims >= 1 && fileDims <= BkdTree.MAX_DIMS) {
                dims = fileDims;
            }
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
     * One commit: writes (and fsyncs) a file for every tree that has none and one for the
     * tombstones (if any), then the manifest listing them all (temp file, fsync, atomic rename,
     * directory fsync); only then deletes the files no manifest names any more. Callers serialize
     * commits; nothing else writes files.
     */
    static Manifest commit(Path dir, UUID index, int dims, long generation, long sequence, KdTree[] trees,
                           List<Tombstones.Entry> tombstones, LongSupplier nextFileNumber,
                           java.util.function.Consumer<String> step) throws IOException {
        List<Manifest.Entry> files = new ArrayList<>();
        for (KdTree t : trees) {
            if (t.file == null) {
                t.file = writeTree(t, dir, new IndexFile.Stamp(index, generation, nextFileNumber.getAsLong()));
            }
            files.add(t.file);
        }
        step(step, "trees written");
        if (!tombstones.isEmpty()) {
            files.add(writeTombstones(dir, dims, tombstones,
                    new IndexFile.Stamp(index, generation, nextFileNumber.getAsLong())));
        }
        step(step, "tombstones written");
        Manifest m = new Manifest(index, dims, generation, sequence, List.copyOf(files));
        m.write(dir, s -> step(step, s));
        step(step, "manifest renamed");
        deleteUnlisted(dir, m);
        step(step, "old files deleted");
        return m;
    }

    /** Runs the test hook {@code step} (null in production) at a named point of a commit. */
    static void step(java.util.function.Consumer<String> step, String where) {
        if (step != null) {
            step.accept(where);
        }
    }

    /**
     * Creates a new index in {@code dir}, which holds no index file: writes its first, empty
     * commit point (generation 1, a fresh index id) and deletes a stale temp manifest.
     */
    static Manifest create(Path dir, int dims) throws IOException {
        Manifest m = new Manifest(UUID.randomUUID(), dims, 1, 0, List.of());
        m.write(dir);
        deleteUnlisted(dir, m);
        return m;
    }

    /**
     * Reads and verifies the last commit of {@code dir} and deletes the files it does not name;
     * null if the directory holds no index at all (no manifest and no index file). The caller
     * holds the directory's lock.
     *
     * @throws CorruptIndexException if the manifest is missing while index files are there, or a
     *         file it names fails verification or is not the file it names (another index's, another
     *         commit's, a copy)
     * @throws java.nio.file.NoSuchFileException if a file named by the manifest is missing
     * @throws IllegalArgumentException if the directory holds an index of another dimension count
     */
    static Contents open(Path dir, int dims, int shift) throws IOException {
        Manifest m = Manifest.read(dir);
        if (m == null) {
            List<String> stray = indexFiles(dir);
            if (!stray.isEmpty()) {
                throw new CorruptIndexException(dir.resolve(Manifest.NAME), "missing, but the directory holds "
                        + stray.size() + " index files (" + String.join(", ", stray.subList(0, Math.min(3, stray.size())))
                        + (stray.size() > 3 ? ", ..." : "") + "): the commit point was deleted or renamed."
                        + " Nothing was deleted; restore the MANIFEST, or remove the files to start a new index");
            }
            return null;
        }
        if (m.dims() != dims) {
            throw new IllegalArgumentException("directory " + dir + " holds a " + m.dims()
                    + "-dimensional index, the builder asks for " + dims);
        }
        List<KdTree> trees = new ArrayList<>();
        for (Manifest.Entry e : m.trees()) {
            trees.add(readTree(dir.resolve(e.name()), dims, shift, m.index(), e));
        }
        Manifest.Entry te = m.tombstones();
        List<Tombstones.Entry> tombs = te == null ? List.of()
                : readTombstones(dir.resolve(te.name()), dims, m.index(), te);
        for (Tombstones.Entry e : tombs) {
            if (e.seq() > m.sequence()) {
                throw new CorruptIndexException(dir.resolve(te.name()), "tombstone sequence " + e.seq()
                        + " is beyond the committed clock " + m.sequence());
            }
        }
        deleteUnlisted(dir, m);
        return new Contents(m, trees, tombs);
    }

    /** The names of the tree and tombstone files in {@code dir}, sorted. */
    static List<String> indexFiles(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PATTERN)) {
            for (Path p : s) {
                names.add(p.getFileName().toString());
            }
        }
        java.util.Collections.sort(names);
        return names;
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
     * Deletes the tree and tombstone files the verified manifest {@code m} does not name, and a stale
     * temp manifest. Best effort: a file that cannot be deleted now (say, still mapped on Windows)
     * is not needed by any commit and is retried by the next commit or open.
     */
    private static void deleteUnlisted(Path dir, Manifest m) throws IOException {
        Set<String> keep = new HashSet<>();
        if (m != null) {
            for (Manifest.Entry e : m.files()) {
                keep.add(e.name());
            }
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
