package org.bbflow.bkd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks an index directory without opening it for writing, as Lucene's {@code CheckIndex}: it
 * takes no lock and never writes, renames or deletes a file. For the commit point ({@code MANIFEST})
 * and every file it lists it verifies the header (magic, format version, index id, commit
 * generation, file number), the length and checksum the commit point lists, the footer checksum and
 * then the contents: each tree's structure (every node's point range split exactly by its children
 * in preorder, every box exactly the bounds of its points, sequence numbers within the tree's
 * minimum and the commit's clock) and each tombstone's sequence number. Files the commit point does
 * not name are reported as leftovers. Without a manifest every file is still checked on its own.
 * A directory without a manifest and without any index file holds no index: that is not ok
 * ({@link #found()} tells it apart from a damaged index).
 *
 * <pre>{@code
 * IndexCheck check = IndexCheck.run(Path.of("/data/index"));
 * check.files().forEach(System.out::println);
 * if (!check.ok()) { ... }
 * }</pre>
 *
 * <p>Run it on a directory no writer is committing to (a concurrent commit may delete files the
 * check is reading; it then reports them missing).
 */
public final class IndexCheck {
    private final Path directory;
    private final List<CheckedFile> files;
    private final boolean ok;
    private final String summary;
    private final boolean found;

    private IndexCheck(Path directory, List<CheckedFile> files, String summary, boolean found) {
        this.directory = directory;
        this.files = List.copyOf(files);
        boolean all = true;
        for (CheckedFile f : files) {
            all &= f.ok();
        }
        this.ok = all;
        this.summary = summary;
        this.found = found;
    }

    /**
     * Checks {@code dir}.
     *
     * @param dir the index directory
     * @return what was found, per file
     * @throws IOException if the directory cannot be listed
     * @throws IllegalArgumentException if {@code dir} is null or not a directory
     */
    public static IndexCheck run(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("not a directory: " + dir);
        }
        List<CheckedFile> out = new ArrayList<>();
        Manifest m = null;
        Path mf = dir.resolve(Manifest.NAME);
        List<String> present = TreeFiles.indexFiles(dir);
        if (!Files.exists(mf)) {
            // no manifest and no index file: no index at all, which is no intact index (a wrong path, a
            // directory not yet committed to) and must not pass for one
            out.add(new CheckedFile(Manifest.NAME, "manifest", false, present.isEmpty()
                    ? "missing: no index here (no MANIFEST and no index file)" : "missing, but " + present.size()
                    + " index files are here: the commit point was deleted or renamed", 0));
        } else {
            try {
                m = Manifest.read(dir);
                out.add(new CheckedFile(Manifest.NAME, "manifest", true, String.format(Locale.ROOT,
                        "commit %d of index %s, %d-D, clock %d, %d files listed", m.generation(), m.index(), m.dims(),
                        m.sequence(), m.files().size()), m.files().size()));
            } catch (CorruptIndexException e) {
                out.add(new CheckedFile(Manifest.NAME, "manifest", false, detail(e), 0));
            }
        }
        Set<String> listed = new HashSet<>();
        long points = 0;
        long tombs = 0;
        if (m != null) {
            for (Manifest.Entry e : m.files()) {
                listed.add(e.name());
                CheckedFile f = e.tree() ? tree(dir, e.name(), m, e) : tombstones(dir, e.name(), m, e);
                out.add(f);
                if (f.ok()) {
                    if (e.tree()) {
                        points += f.points();
                    } else {
                        tombs += f.points();
                    }
                }
            }
        }
        for (String name : present) {
            if (listed.contains(name)) {
                continue;
            }
            if (m != null) {
                out.add(new CheckedFile(name, "leftover", true,
                        "not in the commit point: left by an unfinished commit, deleted by the next open", 0));
            } else {
                out.add(name.startsWith("tree-") ? tree(dir, name, null, null) : tombstones(dir, name, null, null));
            }
        }
        if (Files.exists(dir.resolve(Manifest.TEMP))) {
            out.add(new CheckedFile(Manifest.TEMP, "leftover", true,
                    "a commit point that was never renamed into place, deleted by the next open", 0));
        }
        boolean found = m != null || !present.isEmpty() || Files.exists(mf);
        String summary = !found ? "no MANIFEST and no index file in " + dir
                : m == null ? "no readable commit point"
                : String.format(Locale.ROOT, "commit %d: %d trees, %,d points, %,d tombstones",
                        m.generation(), m.trees().size(), points, tombs);
        return new IndexCheck(dir, out, summary, found);
    }

    private static String detail(Exception e) {
        if (e instanceof CorruptIndexException c) {
            String msg = c.getMessage();
            String prefix = "corrupt index file " + c.file() + ": ";
            return msg.startsWith(prefix) ? msg.substring(prefix.length()) : msg;
        }
        if (e instanceof NoSuchFileException) {
            return "missing: the commit point lists it";
        }
        return e.toString();
    }

    private static CheckedFile tree(Path dir, String name, Manifest m, Manifest.Entry e) {
        Path file = dir.resolve(name);
        try {
            KdTree t = TreeFiles.readTree(file, m == null ? 0 : m.dims(), -1, m == null ? null : m.index(), e);
            String wrong = invariants(t, m == null ? Long.MAX_VALUE : m.sequence());
            if (wrong != null) {
                return new CheckedFile(name, "tree", false, wrong, t.size);
            }
            return new CheckedFile(name, "tree", true, String.format(Locale.ROOT,
                    "%,d points, %d nodes, %s%s", t.size, t.nodeFrom.length,
                    e == null ? "checksum verified (no commit point to bind it to)" : "commit " + e.generation(),
                    ", structure and boxes verified"), t.size);
        } catch (IOException | RuntimeException ex) {
            return new CheckedFile(name, "tree", false, detail(ex), 0);
        }
    }

    private static CheckedFile tombstones(Path dir, String name, Manifest m, Manifest.Entry e) {
        Path file = dir.resolve(name);
        try {
            List<Tombstones.Entry> list = TreeFiles.readTombstones(file, m == null ? 0 : m.dims(),
                    m == null ? null : m.index(), e);
            long clock = m == null ? Long.MAX_VALUE : m.sequence();
            for (Tombstones.Entry t : list) {
                if (t.seq() > clock) {
                    return new CheckedFile(name, "tombstones", false, "tombstone sequence " + t.seq()
                            + " is beyond the committed clock " + clock, list.size());
                }
            }
            return new CheckedFile(name, "tombstones", true, String.format(Locale.ROOT, "%,d tombstones, %s",
                    list.size(), e == null ? "checksum verified (no commit point to bind it to)"
                            : "commit " + e.generation()), list.size());
        } catch (IOException | RuntimeException ex) {
            return new CheckedFile(name, "tombstones", false, detail(ex), 0);
        }
    }

    /** The first broken invariant of {@code t}, or null. */
    static String invariants(KdTree t, long clock) {
        int nodes = t.nodeFrom.length;
        if (t.size == 0) {
            return nodes <= 1 ? null : "an empty tree with " + nodes + " nodes";
        }
        long min = Long.MAX_VALUE;
        for (int i = 0; i < t.size; i++) {
            long s = t.seqs.get(i);
            if (s > clock) {
                return "point " + i + " has sequence " + s + ", beyond the committed clock " + clock;
            }
            min = Math.min(min, s);
        }
        if (min != t.minSeq) {
            return "the smallest sequence is " + min + ", the header says " + t.minSeq;
        }
        int[] next = {0};
        String wrong = node(t, 0, 0, t.size, next);
        if (wrong == null && next[0] != nodes) {
            wrong = "the preorder reaches " + next[0] + " of " + nodes + " nodes";
        }
        return wrong;
    }

    /** Checks node {@code n} over points {@code [from, to)}; advances {@code next} past its subtree. */
    private static String node(KdTree t, int n, int from, int to, int[] next) {
        if (n != next[0] || n >= t.nodeFrom.length) {
            return "node " + n + " is not where the preorder puts it";
        }
        next[0]++;
        if (t.nodeFrom[n] != from || t.nodeTo[n] != to || from >= to) {
            return "node " + n + " covers [" + t.nodeFrom[n] + ", " + t.nodeTo[n] + "), its parent gives it ["
                    + from + ", " + to + ")";
        }
        int dims = t.dims;
        long[] lo = new long[dims];
        long[] hi = new long[dims];
        int right = t.nodeRight[n];
        if (right < 0) {
            java.util.Arrays.fill(lo, Long.MAX_VALUE);
            java.util.Arrays.fill(hi, Long.MIN_VALUE);
            for (int i = from; i < to; i++) {
                for (int d = 0; d < dims; d++) {
                    long v = t.coord(i, d);
                    if (Double.isNaN(Coordinates.decode(v))) {
                        return "point " + i + " has a NaN coordinate";
                    }
                    lo[d] = Math.min(lo[d], v);
                    hi[d] = Math.max(hi[d], v);
                }
            }
        } else {
            int left = n + 1;
            if (left >= t.nodeFrom.length || right <= left || right >= t.nodeFrom.length) {
                return "node " + n + " has children " + left + " and " + right + " outside the tree";
            }
            int mid = t.nodeTo[left];
            if (mid <= from || mid >= to) {
                return "node " + n + " splits [" + from + ", " + to + ") at " + mid;
            }
            String w = node(t, left, from, mid, next);
            if (w == null) {
                w = node(t, right, mid, to, next);
            }
            if (w != null) {
                return w;
            }
            for (int d = 0; d < dims; d++) {
                lo[d] = Math.min(t.nodeMin[left * dims + d], t.nodeMin[right * dims + d]);
                hi[d] = Math.max(t.nodeMax[left * dims + d], t.nodeMax[right * dims + d]);
            }
        }
        for (int d = 0; d < dims; d++) {
            if (t.nodeMin[n * dims + d] != lo[d] || t.nodeMax[n * dims + d] != hi[d]) {
                return "the box of node " + n + " is not the bounds of its points (dimension " + d + ")";
            }
        }
        return null;
    }

    /**
     * Whether every file passed (leftovers of an unfinished commit do not count against it). A
     * directory that holds no index at all (no {@code MANIFEST} and no index file) is not ok: see
     * {@link #found()}.
     *
     * @return whether the index is intact
     */
    public boolean ok() {
        return ok;
    }

    /**
     * Whether the directory holds an index at all: a {@code MANIFEST} or an index file (a tree or
     * tombstone file). When false, {@link #ok()} is false too and the report's verdict reads
     * {@code NO INDEX}.
     *
     * @return whether there is an index (intact or not) in the directory
     */
    public boolean found() {
        return found;
    }

    /**
     * What was found, one entry per file: the manifest first, then the files it lists, then the rest.
     *
     * @return the checked files
     */
    public List<CheckedFile> files() {
        return files;
    }

    /**
     * The report: a header line, one line per file and a verdict.
     *
     * @return the report's lines
     */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add("checking index directory " + directory + " (read only)");
        for (CheckedFile f : files) {
            lines.add(f.toString());
        }
        int damaged = 0;
        for (CheckedFile f : files) {
            if (!f.ok()) {
                damaged++;
            }
        }
        lines.add((!found ? "NO INDEX: " : ok ? "OK: " : "DAMAGED: " + damaged + " of " + files.size()
                + " files failed; ") + summary);
        return lines;
    }

    @Override
    public String toString() {
        return String.join(System.lineSeparator(), report());
    }
}
