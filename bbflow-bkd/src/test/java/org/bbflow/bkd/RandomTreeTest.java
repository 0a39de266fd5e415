package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Bkd-tree's generator: random configurations crossed with random programs of every operation,
 * each answer compared with a sequential model, as {@code RandomCompositionTest} does for flows
 * (docs/testing.md, "The generator of Bkd-tree programs", lists what it draws and checks).
 *
 * <p>A case draws a configuration (1 to 4 dimensions, leaf size, buffer size, merge factor, merge
 * workers, merge backlog, merging on or off, on a flow or plain threads, the idle merge, expected
 * tombstones, page size, in memory or in a directory, always with poisoned reclamation) and a
 * program: inserts (new ids, duplicates, re-inserts after a delete), deletes of present and absent
 * points (also of points still in a buffer), refresh, flush, commit, forceMerge, awaitMerges,
 * snapshots held across later writes, commits and merges, {@link BkdWriter}s (insert, flush,
 * buffered, close), the {@link BulkLoader} on its own, every read (count, query, contains, the
 * three forms of nearest, withinDistance, countWithinDistance), stats, close and reopen, a crash
 * image (the directory's files copied while the index is open, as a {@code kill -9} between commits
 * would leave them), a second build refused by the lock, concurrent phases (2 or 3 threads inserting and
 * deleting disjoint fresh ids while 1 or 2 threads query, each answer checked against the
 * visibility bounds of {@code VisibilityBoundsTest}) and close() racing an operation in flight.
 *
 * <p>The model is what docs/bkd.md promises: an insert is visible once its buffer is published
 * (full, refresh, flush, commit, a writer's flush or close); a delete hides at once every equal point
 * inserted before it, buffered ones too; a snapshot sees what was visible when it opened, for good; a
 * commit holds what was visible after the committing thread's buffer was published; close() publishes
 * the closing thread's buffer and commits, and discards unflushed writers; a reopened index (or a crash
 * image) is the last commit. Every answer is compared exactly (id and coordinates as a multiset, counts,
 * kNN distances in order, distance counts). After close no thread the index started is left, no file of
 * its directory is open, {@link IndexCheck} passes and the directory reopens.
 *
 * <p>{@code -Dbbflow.cases=N} runs N cases (default tier 40, long tier 400), following from the test's
 * seed ({@link TestSeed}, root {@code -Dbbflow.seed}); a failure names its case's seed, and
 * {@code -Dbbflow.shape=S} runs that case alone.
 */
@Timeout(3600)
class RandomTreeTest {
    static final int CASES = Integer.getInteger("bbflow.cases", TestTier.pick(40, 400));

    /** A point with its id; {@link #key} compares coordinates as {@link Double#compare} does (-0.0 apart). */
    record Entry(long id, double[] p) {
        String key() {
            return key(id, p);
        }

        static String key(long id, double[] p) {
            return id + "@" + Arrays.toString(p);
        }
    }

    /** The model of one insert buffer: its live points, and how many inserts it took since its last flush. */
    static final class Buf {
        final List<Entry> live = new ArrayList<>();
        int count;
    }

    /** A configuration of the index. */
    record Cfg(int dims, int leaf, int buffer, int factor, int workers, int backlog, boolean merging, boolean plain,
               Duration idle, int tombs, int pageShift, boolean persistent) {
        static Cfg random(Random r, int dims, boolean persistent) {
            int buffer = r.nextInt(6) == 0 ? 1 + r.nextInt(3) : 4 + r.nextInt(r.nextBoolean() ? 40 : 300);
            Duration idle = switch (r.nextInt(5)) {
                case 0 -> Duration.ZERO;
                case 1 -> Duration.ofMillis(1);
                case 2 -> Duration.ofMillis(5);
                case 3 -> Duration.ofMillis(50);
                default -> Duration.ofSeconds(1);
            };
            return new Cfg(dims, r.nextBoolean() ? 2 + r.nextInt(6) : 2 + r.nextInt(64), buffer, 2 + r.nextInt(7),
                    1 + r.nextInt(3), 1 + r.nextInt(r.nextBoolean() ? 3 : 16), r.nextInt(5) != 0, r.nextInt(3) == 0,
                    idle, r.nextInt(3) == 0 ? 1 + r.nextInt(64) : 65_536, r.nextInt(3) == 0 ? r.nextInt(5) : -1,
                    persistent);
        }

        BkdTree build(Path dir) {
            BkdTree.Builder b = BkdTree.builder(dims).leafSize(leaf).bufferSize(buffer).mergeFactor(factor)
                    .mergeWorkers(workers).mergeBacklog(backlog).merging(merging).plainThreadMerges(plain)
                    .mergeWhenIdle(idle).expectedTombstones(tombs).poisonReclaimed(true);
            if (pageShift >= 0) {
                b.pageShift(pageShift);
            }
            if (persistent) {
                b.directory(dir);
            }
            return b.build();
        }
    }

    @Test
    void randomProgramsMatchTheModel(@TempDir Path tmp) {
        Long one = Long.getLong("bbflow.shape");
        long base = one != null ? one : TestSeed.current();
        int cases = one != null ? 1 : CASES;
        System.out.println("RandomTreeTest: " + cases + " cases from seed " + base
                + " (one case again: -Dbbflow.shape=<its seed>)");
        Map<String, Integer> coverage = new TreeMap<>();
        long t0 = System.nanoTime();
        long ops = 0;
        for (int c = 0; c < cases; c++) {
            long seed = base + c;
            Case k = new Case(seed, tmp.resolve("case-" + c));
            try {
                k.run();
            } catch (Throwable e) {
                String msg = "case seed " + seed + " failed: " + e + "\n" + k.cfg + "\nlast operations:\n"
                        + String.join("\n", k.log) + "\nreproduce this case: ./mvnw -B verify -pl bbflow-bkd -am"
                        + " -Dtest=RandomTreeTest -Dsurefire.failIfNoSpecifiedTests=false -Dbbflow.shape=" + seed;
                System.err.println(msg);
                throw new AssertionError(msg, e);
            }
            ops += k.ops;
            k.tags.forEach(t -> coverage.merge(t, 1, Integer::sum));
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("RandomTreeTest: " + cases + " cases, " + ops + " operations in " + ms + " ms");
        System.out.println("RandomTreeTest coverage (cases per feature): " + coverage);
        if (cases >= 200) {     // the rarest feature runs in about 1 case of 8: none in 200 would be a generator bug
            Set<String> missing = new TreeSet<>(List.of("dims:1", "dims:2", "dims:3", "dims:4", "memory", "directory",
                    "merging-off", "plain-threads", "flow", "insert", "reinsert", "duplicate", "delete-present",
                    "delete-absent", "delete-buffered", "refresh", "flush", "commit", "forceMerge", "awaitMerges",
                    "snapshot", "snapshot-across-writes", "writer", "bulkloader", "count", "query", "contains",
                    "nearest-list", "nearest-neighbor-visitor", "nearest-point-visitor", "withinDistance",
                    "countWithinDistance", "stats", "reopen", "crash-image", "lock-refused", "concurrent",
                    "concurrent-commit", "terminated-unrefreshed", "close-race", "close-race-failed-op"));
            missing.removeAll(coverage.keySet());
            assertTrue(missing.isEmpty(), "features no case ran: " + missing);
        }
    }

    /** One case: a configuration, a program and the model. */
    static final class Case {
        final long seed;
        final Random r;
        final Path dir;
        Cfg cfg;
        final int dims;
        final int grid;
        BkdTree tree;
        final Set<String> tags = new TreeSet<>();
        final ArrayDeque<String> log = new ArrayDeque<>();
        long ops;
        int copies;

        // the model
        List<Entry> visible = new ArrayList<>();
        Buf main = new Buf();
        /** The last commit (null: not known, a concurrent thread committed since). */
        List<Entry> committed = new ArrayList<>();
        /** Points taken out of buffers since the index was built (stats().insertedPoints()). */
        long inserted;
        final List<Entry> deleted = new ArrayList<>();
        long nextId;
        final List<Object[]> snaps = new ArrayList<>();        // {Snapshot, List<Entry>}
        final List<Object[]> writers = new ArrayList<>();      // {BkdWriter, Buf}
        Set<Thread> threadsBefore;
        /** Ids below this are never inserted (deletes of absent points); fresh ids never reach them. */
        static final long NEVER = -(1L << 62);

        Case(long seed, Path dir) {
            this.seed = seed;
            this.r = new Random(mixBits(seed));     // java.util.Random's first draws of adjacent seeds agree
            this.dir = dir;
            this.dims = 1 + r.nextInt(4);
            this.grid = 3 + r.nextInt(r.nextBoolean() ? 8 : 40);
            this.cfg = Cfg.random(r, dims, r.nextBoolean());
            this.nextId = r.nextInt(3) == 0 ? Long.MAX_VALUE / 2 + r.nextInt(1000) : r.nextInt(1000) - 500;
        }

        /** The finalizer of SplittableRandom (Stafford's variant 13). */
        static long mixBits(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        void note(String s) {
            log.add(s);
            if (log.size() > 60) {
                log.removeFirst();
            }
        }

        void check(boolean ok, String what) {
            if (!ok) {
                throw new AssertionError(what);
            }
        }

        void same(Object want, Object got, String what) {
            if (!java.util.Objects.equals(want, got)) {
                throw new AssertionError(what + ": expected " + want + ", got " + got);
            }
        }

        void run() throws Exception {
            tags.add("dims:" + dims);
            open();
            int n = 20 + r.nextInt(r.nextInt(4) == 0 ? 300 : 100);
            for (int i = 0; i < n; i++) {
                step();
                ops++;
            }
            checkAll("end");
            if (r.nextInt(3) == 0) {
                closeRacing();
            } else {
                closeTree();
            }
            if (cfg.persistent) {
                reopen();
                checkAll("reopened at the end");
                closeTree();
            }
        }

        void open() {
            tags.add(cfg.persistent ? "directory" : "memory");
            tags.add(!cfg.merging ? "merging-off" : cfg.plain ? "plain-threads" : "flow");
            threadsBefore = new HashSet<>(Thread.getAllStackTraces().keySet());
            tree = cfg.build(dir);
            inserted = 0;
            note("build " + cfg);
        }

        // ---- drawing points, boxes, ids ----------------------------------------------------------

        double[] point() {
            double[] p = new double[dims];
            for (int d = 0; d < dims; d++) {
                int v = r.nextInt(grid);
                double x = v;
                if (r.nextInt(30) == 0) {
                    x += 0.5;
                }
                if (v == 0 && r.nextInt(4) == 0) {
                    x = -0.0;
                }
                if (r.nextInt(400) == 0) {
                    x = r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                }
                p[d] = x;
            }
            return p;
        }

        double[] center() {
            double[] p = new double[dims];
            for (int d = 0; d < dims; d++) {
                p[d] = r.nextInt(grid + 2) - 1 + (r.nextInt(5) == 0 ? 0.5 : 0);
                if (p[d] == 0 && r.nextInt(4) == 0) {
                    p[d] = -0.0;
                }
            }
            return p;
        }

        Box box() {
            int k = r.nextInt(10);
            if (k == 0) {
                return Box.all(dims);
            }
            if (k == 1) {
                return Box.point(point());
            }
            double[] lo = new double[dims];
            double[] hi = new double[dims];
            for (int d = 0; d < dims; d++) {
                double a = r.nextInt(grid + 2) - 1;
                double b = r.nextInt(grid + 2) - 1;
                if (r.nextInt(8) == 0) {
                    a += 0.5;
                }
                if (r.nextInt(20) == 0) {
                    a = Double.NEGATIVE_INFINITY;
                }
                if (r.nextInt(20) == 0) {
                    b = Double.POSITIVE_INFINITY;
                }
                lo[d] = Math.min(a, b);
                hi[d] = Math.max(a, b);
                if (lo[d] == 0 && r.nextInt(3) == 0) {
                    lo[d] = -0.0;
                }
                if (hi[d] == 0 && r.nextInt(3) == 0 && Double.compare(lo[d], -0.0) <= 0) {
                    hi[d] = -0.0;
                }
            }
            return Box.of(lo, hi);
        }

        // ---- the model's operations ----------------------------------------------------------

        List<Buf> bufs() {
            List<Buf> all = new ArrayList<>();
            all.add(main);
            for (Object[] w : writers) {
                all.add((Buf) w[1]);
            }
            return all;
        }

        void modelInsert(Buf b, Entry e) {
            b.live.add(e);
            b.count++;
            if (b.count == cfg.buffer) {
                modelFlush(b);
            }
        }

        void modelFlush(Buf b) {
            visible.addAll(b.live);
            inserted += b.count;
            b.live.clear();
            b.count = 0;
        }

        void modelDelete(double[] p, long id) {
            visible.removeIf(e -> e.id == id && Arrays.equals(e.p, p));
            for (Buf b : bufs()) {
                b.live.removeIf(e -> e.id == id && Arrays.equals(e.p, p));
            }
        }

        boolean anywhere(Entry e) {
            if (visible.stream().anyMatch(x -> x.key().equals(e.key()))) {
                return true;
            }
            return bufs().stream().anyMatch(b -> b.live.stream().anyMatch(x -> x.key().equals(e.key())));
        }

        Entry newEntry() {
            int k = r.nextInt(20);
            if (k == 0 && !deleted.isEmpty()) {
                tags.add("reinsert");
                return deleted.remove(r.nextInt(deleted.size()));
            }
            if (k == 1 && !visible.isEmpty()) {
                tags.add("duplicate");
                return visible.get(r.nextInt(visible.size()));
            }
            if (k == 2) {
                tags.add("duplicate");
                return new Entry(nextId - 1 - r.nextInt(5), point());      // an id again, maybe elsewhere
            }
            return new Entry(nextId++, point());
        }

        // ---- one step of the program ---------------------------------------------------------

        void step() throws Exception {
            int k = r.nextInt(100);
            if (k < 30) {
                Entry e = newEntry();
                note("insert " + e.key());
                tags.add("insert");
                tree.insert(e.p, e.id);
                modelInsert(main, e);
            } else if (k < 40) {
                delete();
            } else if (k < 45) {
                boolean flush = r.nextBoolean();
                note(flush ? "flush" : "refresh");
                tags.add(flush ? "flush" : "refresh");
                if (flush) {
                    tree.flush();
                } else {
                    tree.refresh();
                }
                modelFlush(main);
            } else if (k < 47) {
                note("commit");
                tags.add("commit");
                tree.commit();
                modelFlush(main);
                committed = new ArrayList<>(visible);
            } else if (k < 49) {
                note("forceMerge");
                tags.add("forceMerge");
                tree.forceMerge();
            } else if (k < 51) {
                note("awaitMerges");
                tags.add("awaitMerges");
                tree.awaitMerges();
                if (r.nextBoolean()) {
                    tree.forceMerge();
                    if (cfg.merging && !cfg.idle.isZero()) {
                        tree.awaitMerges();        // an idle merge may have taken some trees first
                    } else {
                        BkdStats s = tree.stats();
                        check(s.trees() <= 1, "after awaitMerges and forceMerge " + s.trees() + " trees: " + s);
                        same((long) visible.size(), s.points(), "points after awaitMerges and forceMerge " + s);
                    }
                }
            } else if (k < 56) {
                snapshotStep();
            } else if (k < 63) {
                writerStep();
            } else if (k < 80) {
                read();
            } else if (k < 83) {
                stats();
            } else if (k < 84) {
                bulkLoader();
            } else if (k < 86) {
                if (cfg.persistent && committed != null) {
                    crashImage();
                } else {
                    read();
                }
            } else if (k < 87) {
                if (cfg.persistent) {
                    lockRefused();
                }
            } else if (k < 89) {
                note("close and reopen");
                closeTree();
                reopen();
                checkAll("after reopen");
            } else if (k < 91) {
                concurrent();
            } else if (k < 92) {
                closeRacing();
                reopen();
                checkAll("after a racing close and reopen");
            } else {
                read();
            }
        }

        void delete() {
            int k = r.nextInt(4);
            Entry e;
            if (k == 0 && !visible.isEmpty()) {
                e = visible.get(r.nextInt(visible.size()));
                tags.add("delete-present");
            } else if (k == 1 && !main.live.isEmpty()) {
                e = main.live.get(r.nextInt(main.live.size()));
                tags.add("delete-buffered");
            } else if (k == 2 && !writers.isEmpty() && !((Buf) writers.get(0)[1]).live.isEmpty()) {
                Buf b = (Buf) writers.get(0)[1];
                e = b.live.get(r.nextInt(b.live.size()));
                tags.add("delete-buffered");
            } else {
                e = r.nextBoolean() && !deleted.isEmpty() ? deleted.get(r.nextInt(deleted.size()))
                        : new Entry(r.nextBoolean() ? nextId - 1 : NEVER - r.nextInt(100), point());
                tags.add(anywhere(e) ? "delete-present" : "delete-absent");
            }
            note("delete " + e.key());
            tree.delete(e.p, e.id);
            modelDelete(e.p, e.id);
            deleted.add(e);
        }

        void snapshotStep() {
            tags.add("snapshot");
            int k = r.nextInt(3);
            if (k == 0 && snaps.size() < 3) {
                note("snapshot open (" + visible.size() + " visible)");
                snaps.add(new Object[] {tree.snapshot(), new ArrayList<>(visible), ops});
            } else if (k == 1 && !snaps.isEmpty()) {
                Object[] s = snaps.remove(r.nextInt(snaps.size()));
                note("snapshot close");
                ((Snapshot) s[0]).close();
            } else if (!snaps.isEmpty()) {
                Object[] s = snaps.get(r.nextInt(snaps.size()));
                Snapshot snap = (Snapshot) s[0];
                @SuppressWarnings("unchecked")
                List<Entry> want = (List<Entry>) s[1];
                if ((long) s[2] < ops - 1) {
                    tags.add("snapshot-across-writes");
                }
                Box box = box();
                note("snapshot query " + box);
                List<String> got = new ArrayList<>();
                long n = snap.query(box, (id, p) -> got.add(Entry.key(id, p)));
                List<String> exp = keys(want, box);
                Collections.sort(got);
                same(exp, got, "snapshot query " + box);
                same((long) exp.size(), n, "snapshot query's count " + box);
                same((long) exp.size(), snap.count(box), "snapshot count " + box);
                Entry e = pick(want);
                same(want.stream().anyMatch(x -> x.key().equals(e.key())), snap.contains(e.p, e.id),
                        "snapshot contains " + e.key());
            }
        }

        Entry pick(List<Entry> from) {
            if (!from.isEmpty() && r.nextBoolean()) {
                return from.get(r.nextInt(from.size()));
            }
            if (!deleted.isEmpty() && r.nextBoolean()) {
                return deleted.get(r.nextInt(deleted.size()));
            }
            return new Entry(nextId - 1 - r.nextInt(3), point());
        }

        void writerStep() {
            tags.add("writer");
            int k = r.nextInt(10);
            if (writers.isEmpty() || (k == 0 && writers.size() < 2)) {
                note("writer open");
                writers.add(new Object[] {tree.writer(), new Buf()});
                return;
            }
            Object[] w = writers.get(r.nextInt(writers.size()));
            BkdWriter writer = (BkdWriter) w[0];
            Buf b = (Buf) w[1];
            if (k < 6) {
                int n = 1 + r.nextInt(8);
                for (int i = 0; i < n; i++) {
                    Entry e = newEntry();
                    note("writer insert " + e.key());
                    writer.insert(e.p, e.id);
                    modelInsert(b, e);
                }
                same(b.count, writer.buffered(), "writer.buffered()");
            } else if (k < 8) {
                note("writer flush");
                writer.flush();
                modelFlush(b);
            } else {
                note("writer close");
                writer.close();
                modelFlush(b);
                writers.remove(w);
            }
        }

        // ---- reads ---------------------------------------------------------------------------

        static List<String> keys(List<Entry> es, Box box) {
            List<String> out = new ArrayList<>();
            for (Entry e : es) {
                if (box.contains(e.p)) {
                    out.add(e.key());
                }
            }
            Collections.sort(out);
            return out;
        }

        static double dist(double[] a, double[] b) {
            return Math.sqrt(Oracle.dist2(a, b));
        }

        void read() {
            int k = r.nextInt(8);
            if (k == 0) {
                tags.add("count");
                Box box = box();
                note("count " + box);
                same((long) keys(visible, box).size(), tree.count(box), "count " + box);
            } else if (k <= 2) {
                tags.add("query");
                Box box = box();
                note("query " + box);
                List<String> got = new ArrayList<>();
                long n = tree.query(box, (id, p) -> got.add(Entry.key(id, p)));
                Collections.sort(got);
                List<String> want = keys(visible, box);
                same(want, got, "query " + box);
                same((long) want.size(), n, "query's count " + box);
            } else if (k == 3) {
                tags.add("contains");
                Entry e = pick(visible);
                note("contains " + e.key());
                same(visible.stream().anyMatch(x -> x.key().equals(e.key())), tree.contains(e.p, e.id),
                        "contains " + e.key());
            } else if (k <= 5) {
                nearest();
            } else {
                double[] c = center();
                double radius = switch (r.nextInt(10)) {
                    case 0 -> 0;
                    case 1 -> Double.POSITIVE_INFINITY;
                    default -> r.nextInt(grid) + (r.nextInt(4) == 0 ? 0.5 : 0);
                };
                note("withinDistance " + Arrays.toString(c) + " " + radius);
                List<String> want = new ArrayList<>();
                for (Entry e : visible) {
                    if (dist(e.p, c) <= radius) {
                        want.add(e.key());
                    }
                }
                Collections.sort(want);
                if (r.nextBoolean()) {
                    tags.add("withinDistance");
                    List<String> got = new ArrayList<>();
                    long n = tree.withinDistance(c, radius, (id, p) -> got.add(Entry.key(id, p)));
                    Collections.sort(got);
                    same(want, got, "withinDistance " + Arrays.toString(c) + " " + radius);
                    same((long) want.size(), n, "withinDistance's count");
                } else {
                    tags.add("countWithinDistance");
                    same((long) want.size(), tree.countWithinDistance(c, radius),
                            "countWithinDistance " + Arrays.toString(c) + " " + radius);
                }
            }
        }

        void nearest() {
            double[] q = center();
            int k = 1 + r.nextInt(r.nextBoolean() ? 4 : 30);
            int form = r.nextInt(3);
            note("nearest " + Arrays.toString(q) + " k=" + k + " form " + form);
            List<Double> want = visible.stream().map(e -> dist(e.p, q)).sorted().limit(k).toList();
            List<Object[]> got = new ArrayList<>();        // {key, point, distance}
            int n;
            if (form == 0) {
                tags.add("nearest-list");
                List<Neighbor> list = tree.nearest(q, k);
                for (Neighbor x : list) {
                    got.add(new Object[] {Entry.key(x.id(), x.point()), x.point(), x.distance()});
                }
                n = list.size();
            } else if (form == 1) {
                tags.add("nearest-neighbor-visitor");
                n = tree.nearest(q, k, (NeighborVisitor) (id, p, d) -> got.add(new Object[] {Entry.key(id, p), p.clone(), d}));
            } else {
                tags.add("nearest-point-visitor");
                n = tree.nearest(q, k, (PointVisitor) (id, p) -> got.add(new Object[] {Entry.key(id, p), p.clone(),
                        dist(p, q)}));
            }
            same(want.size(), n, "nearest's count k=" + k);
            List<Double> dists = new ArrayList<>();
            Map<String, Integer> multiplicity = new HashMap<>();
            visible.forEach(e -> multiplicity.merge(e.key(), 1, Integer::sum));
            for (Object[] g : got) {
                dists.add((Double) g[2]);
                same(dist((double[]) g[1], q), g[2], "the distance reported for " + g[0]);
                int left = multiplicity.merge((String) g[0], -1, Integer::sum);
                check(left >= 0, "nearest returned " + g[0] + " more often than it is live");
            }
            same(want, dists, "nearest distances k=" + k + " from " + Arrays.toString(q));
        }

        void stats() {
            tags.add("stats");
            BkdStats s = tree.stats();
            note("stats " + s);
            same(s.trees(), s.treesPerLevel().stream().mapToInt(Integer::intValue).sum(), "trees per level " + s);
            check(s.points() >= visible.size(), "stats points below the live points " + visible.size() + ": " + s);
            same(inserted, s.insertedPoints(), "insertedPoints " + s);
            same(!cfg.merging ? "none" : cfg.plain ? "threads" : "flow", s.mergeStage(), "merge stage");
            same(0L, s.failedMerges(), "failed merges");
            same(0L, s.schedulerFailures(), "scheduler failures");
            check(s.backlog() >= 0 && s.tombstones() >= 0 && s.treeBytes() >= 0 && s.bufferBytes() >= 0,
                    "stats negative: " + s);
            check(s.reclaimedTrees() <= s.retiredTrees(), "reclaimed more than retired: " + s);
        }

        /** The loader alone on random points: a permutation, exact boxes, full leaves. */
        void bulkLoader() {
            tags.add("bulkloader");
            int n = r.nextInt(300);
            note("bulk load " + n);
            long[] c = new long[n * dims];
            long[] ids = new long[n];
            long[] seqs = new long[n];
            for (int i = 0; i < n; i++) {
                Coordinates.encodePoint(point(), dims, c, i * dims);
                ids[i] = i;
                seqs[i] = 1 + r.nextInt(3);
            }
            int shift = cfg.pageShift >= 0 ? cfg.pageShift : Pages.shift(dims);
            KdTree t = new BulkLoader(dims, cfg.leaf, shift).build(c.clone(), ids.clone(), seqs.clone(), n, 0);
            long[] after = new long[n];
            t.ids.copyTo(after, 0);
            Arrays.sort(after);
            same(Arrays.toString(ids), Arrays.toString(after), "bulk-loaded ids");
            if (n == 0) {
                return;
            }
            for (int node = 0; node < t.nodeFrom.length; node++) {
                int from = t.nodeFrom[node];
                int to = t.nodeTo[node];
                for (int d = 0; d < dims; d++) {
                    long lo = Long.MAX_VALUE;
                    long hi = Long.MIN_VALUE;
                    for (int i = from; i < to; i++) {
                        lo = Math.min(lo, t.coord(i, d));
                        hi = Math.max(hi, t.coord(i, d));
                    }
                    same(lo, t.nodeMin[node * dims + d], "node " + node + " min");
                    same(hi, t.nodeMax[node * dims + d], "node " + node + " max");
                }
                if (t.nodeRight[node] < 0) {
                    check(to - from <= cfg.leaf && to > from, "leaf of " + (to - from));
                    check(to == n || to - from == cfg.leaf, "a leaf but the last not full");
                }
            }
        }

        /** The whole index against the model. */
        void checkAll(String when) {
            List<String> got = new ArrayList<>();
            long n = tree.query(Box.all(dims), (id, p) -> got.add(Entry.key(id, p)));
            Collections.sort(got);
            List<String> want = keys(visible, Box.all(dims));
            same(want, got, when + ": every point");
            same((long) want.size(), n, when + ": query's count");
            same((long) want.size(), tree.count(Box.all(dims)), when + ": count");
        }

        // ---- directories ---------------------------------------------------------------------

        /** The directory's files copied while the index is open (as a crash leaves them): the last commit. */
        void crashImage() throws IOException {
            tags.add("crash-image");
            Path copy = dir.resolveSibling(dir.getFileName() + "-image-" + copies++);
            note("crash image " + copy.getFileName() + " (" + committed.size() + " committed)");
            Files.createDirectories(copy);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    if (!f.getFileName().toString().equals("write.lock")) {
                        Files.copy(f, copy.resolve(f.getFileName()));
                    }
                }
            }
            IndexCheck ic = IndexCheck.run(copy);
            check(ic.ok(), "crash image check: " + ic);
            try (BkdTree again = Cfg.random(r, dims, true).build(copy)) {
                List<String> got = new ArrayList<>();
                again.query(Box.all(dims), (id, p) -> got.add(Entry.key(id, p)));
                Collections.sort(got);
                same(keys(committed, Box.all(dims)), got, "crash image: the last commit");
            }
        }

        void lockRefused() {
            tags.add("lock-refused");
            note("second build");
            try (BkdTree second = cfg.build(dir)) {
                throw new AssertionError("a second index opened the locked directory " + second);
            } catch (UncheckedIOException e) {
                check(e.getCause() instanceof IndexLockedException, "second build failed with " + e);
            }
        }

        /** close() as documented: the closing thread's buffer published and committed, writers discarded. */
        void closeTree() throws Exception {
            note("close");
            tree.close();
            afterClose();
        }

        void afterClose() throws Exception {
            modelFlush(main);
            for (Object[] w : writers) {
                BkdWriter writer = (BkdWriter) w[0];
                try {
                    writer.insert(point(), 1);
                    throw new AssertionError("a writer inserted into a closed index");
                } catch (IllegalStateException expected) {
                    // documented
                }
                writer.close();                    // discards, no exception
            }
            writers.clear();
            for (Object[] s : snaps) {
                try {
                    ((Snapshot) s[0]).count(Box.all(dims));
                    throw new AssertionError("a snapshot counted on a closed index");
                } catch (IllegalStateException expected) {
                    // documented
                }
                ((Snapshot) s[0]).close();
            }
            snaps.clear();
            try {
                tree.count(Box.all(dims));
                throw new AssertionError("count on a closed index");
            } catch (IllegalStateException expected) {
                // documented
            }
            BkdStats s = tree.stats();
            check(s.trees() == 0 && s.points() == 0 && s.backlog() == 0 && s.bufferBytes() == 0,
                    "a closed index's stats: " + s);
            committed = new ArrayList<>(visible);
            noThreadLeft();
            if (cfg.persistent) {
                noFileOpen();
                IndexCheck ic = IndexCheck.run(dir);
                check(ic.ok(), "check after close: " + ic);
            }
        }

        void reopen() {
            tags.add("reopen");
            if (cfg.persistent) {
                cfg = Cfg.random(r, dims, true);        // another configuration of the same directory
                visible = new ArrayList<>(committed);
            } else {
                visible = new ArrayList<>();
                committed = new ArrayList<>();
            }
            main = new Buf();
            open();
        }

        void noThreadLeft() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<String> left;
            do {
                left = new ArrayList<>();
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (!threadsBefore.contains(t) && t.isAlive() && !t.getName().startsWith("ForkJoinPool")) {
                        left.add(t.getName());
                    }
                }
                if (left.isEmpty()) {
                    return;
                }
                Thread.onSpinWait();
            } while (System.nanoTime() < deadline);
            throw new AssertionError("threads left after close: " + left);
        }

        void noFileOpen() throws IOException {
            Path fds = Path.of("/proc/self/fd");
            if (!Files.isDirectory(fds)) {
                return;
            }
            Path real = dir.toRealPath();
            List<String> open = new ArrayList<>();
            try (Stream<Path> s = Files.list(fds)) {
                for (Path fd : s.toList()) {
                    try {
                        Path target = Files.readSymbolicLink(fd);
                        if (target.startsWith(real)) {
                            open.add(target.toString());
                        }
                    } catch (IOException gone) {
                        // closed meanwhile (the listing's own descriptor)
                    }
                }
            }
            check(open.isEmpty(), "files of the directory still open after close: " + open);
        }

        // ---- close() racing an operation -----------------------------------------------------

        /**
         * close() while another thread runs one operation: it completes with an answer between the
         * index's states before and after close() published this thread's buffer, or fails with an
         * IllegalStateException saying the index is closed; never a wrong answer, never a hang.
         */
        void closeRacing() throws Exception {
            tags.add("close-race");
            int kind = r.nextInt(9);
            List<Entry> before = new ArrayList<>(visible);
            List<Entry> after = new ArrayList<>(visible);
            after.addAll(main.live);
            Entry victim = visible.isEmpty() ? null : visible.get(r.nextInt(visible.size()));
            Entry fresh = new Entry(nextId++, point());
            Box box = box();
            double[] q = center();
            int k = 1 + r.nextInt(10);
            note("close racing operation " + kind + " (victim " + (victim == null ? null : victim.key()) + ", fresh "
                    + fresh.key() + ", box " + box + ")");
            AtomicReference<Object> result = new AtomicReference<>();
            AtomicReference<String> wrong = new AtomicReference<>();
            BkdTree t = tree;
            // a read's answer must be the model's before close() published this thread's buffer, or after
            java.util.function.Function<Object, String> judge = got -> switch (kind) {
                case 0, 7 -> {
                    long lo = keys(before, box).size();
                    long hi = keys(after, box).size();
                    long n = (Long) got;
                    yield n >= lo && n <= hi ? null : "count racing close() " + n + " not in [" + lo + ", " + hi + "] " + box;
                }
                case 1 -> got.equals(keys(before, box)) || got.equals(keys(after, box)) ? null
                        : "query racing close(): " + got + ", expected " + keys(before, box)
                                + (after.size() > before.size() ? " or " + keys(after, box) : "");
                case 2 -> {
                    List<Double> a = before.stream().map(x -> dist(x.p, q)).sorted().limit(k).toList();
                    List<Double> b = after.stream().map(x -> dist(x.p, q)).sorted().limit(k).toList();
                    yield got.equals(a) || got.equals(b) ? null : "nearest racing close(): " + got + ", expected " + a
                            + (after.size() > before.size() ? " or " + b : "");
                }
                default -> null;
            };
            boolean read = kind <= 2 || kind == 7;
            // 1 to 3 threads at once: with more threads than cores one is preempted inside its operation
            int racers = 1 + r.nextInt(3);
            List<Thread> ops = new ArrayList<>();
            List<AtomicReference<Throwable>> failures = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger published = new java.util.concurrent.atomic.AtomicInteger();
            for (int w = 0; w < racers; w++) {
                AtomicReference<Throwable> failure = new AtomicReference<>();
                failures.add(failure);
                ops.add(new Thread(() -> {
                    try {
                        // a read goes on until close() stops it (bounded), each answer judged
                        for (int i = 0; i == 0 || (read && i < 1_000_000 && wrong.get() == null); i++) {
                            if (i == 1) {
                                running.incrementAndGet();
                            }
                            Object got = once(t, kind, box, q, k, fresh, victim, cfg.buffer, published);
                            result.set(got);
                            if (read) {
                                String why = judge.apply(got);
                                if (why != null) {
                                    wrong.compareAndSet(null, why);
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                }, "close-racer-" + w));
            }
            ops.forEach(Thread::start);
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            while (read && r.nextBoolean() && running.get() < racers && System.nanoTime() < until) {
                Thread.onSpinWait();        // sometimes close() comes while every reader is in its loop
            }
            int spin = r.nextInt(2000);
            for (int i = 0; i < spin; i++) {
                Thread.onSpinWait();
            }
            tree.close();
            int succeeded = 0;
            for (int w = 0; w < racers; w++) {
                Thread op = ops.get(w);
                op.join(TimeUnit.SECONDS.toMillis(30));
                check(!op.isAlive(), "the operation racing close() hangs: " + Arrays.toString(op.getStackTrace()));
                Throwable e = failures.get(w).get();
                note("racing operation " + kind + " (" + racers + " threads): " + (e != null ? e : result.get()));
                if (e != null) {
                    tags.add("close-race-failed-op");
                    if (!(e instanceof IllegalStateException) || e.getMessage() == null
                            || !e.getMessage().contains("closed")) {
                        throw new AssertionError("operation " + kind + " racing close() failed with " + e, e);
                    }
                } else {
                    succeeded++;
                }
            }
            check(wrong.get() == null, wrong.get());
            afterClose();           // the model: close published this thread's buffer; committed = visible
            if (kind == 3 || kind == 8) {
                // a refresh or flush that returned, or an insert that filled a buffer of 1 (it publishes
                // on the spot; the refresh or flush after it may then fail), is in the commit of close()
                for (int i = 0; i < published.get(); i++) {
                    visible.add(fresh);
                }
                committed = new ArrayList<>(visible);
            } else if (kind == 4 && succeeded > 0 && victim != null && cfg.persistent) {
                modelDelete(victim.p, victim.id);       // a delete that returned is in the commit of close()
                committed = new ArrayList<>(visible);
            }
        }

        /** One operation racing close(); what it answered. */
        static Object once(BkdTree t, int kind, Box box, double[] q, int k, Entry fresh, Entry victim, int buffer,
                           java.util.concurrent.atomic.AtomicInteger published) {
            return switch (kind) {
                case 0 -> t.count(box);
                case 1 -> {
                    List<String> got = new ArrayList<>();
                    t.query(box, (id, p) -> got.add(Entry.key(id, p)));
                    Collections.sort(got);
                    yield got;
                }
                case 2 -> t.nearest(q, k).stream().map(Neighbor::distance).toList();
                case 3 -> {
                    t.insert(fresh.p, fresh.id);
                    if (buffer == 1) {
                        published.incrementAndGet();        // the full buffer was published by the insert
                    }
                    t.refresh();
                    if (buffer != 1) {
                        published.incrementAndGet();
                    }
                    yield "inserted";
                }
                case 4 -> {
                    if (victim != null) {
                        t.delete(victim.p, victim.id);
                    }
                    yield "deleted";
                }
                case 5 -> {
                    t.commit();
                    yield "committed";
                }
                case 6 -> {
                    t.forceMerge();
                    yield "merged";
                }
                case 7 -> {
                    try (Snapshot s = t.snapshot()) {
                        yield s.count(box);
                    }
                }
                default -> {
                    try (BkdWriter w = t.writer()) {
                        w.insert(fresh.p, fresh.id);
                        if (buffer == 1) {
                            published.incrementAndGet();    // the full buffer was published by the insert
                        }
                        w.flush();
                        if (buffer != 1) {
                            published.incrementAndGet();
                        }
                    }
                    yield "inserted";
                }
            };
        }

        // ---- concurrent phases ---------------------------------------------------------------

        /**
         * 2 or 3 threads insert and delete fresh ids of their own (refreshing in batches, sometimes
         * committing) while 1 or 2 threads query; every answer must lie within the visibility bounds
         * taken with tickets, and hold every point visible before the phase exactly.
         */
        void concurrent() throws Exception {
            tags.add("concurrent");
            int nw = 2 + r.nextInt(2);
            int nr = 1 + r.nextInt(2);
            int per = 20 + r.nextInt(200);
            long base = nextId;
            nextId += (long) nw * per;
            int total = nw * per;
            double[][] pts = new double[total][];
            for (int i = 0; i < total; i++) {
                pts[i] = point();
            }
            checkAll("before the concurrent phase");
            List<Entry> stable = new ArrayList<>(visible);
            AtomicLong clock = new AtomicLong();
            AtomicLongArray insStart = new AtomicLongArray(total);
            AtomicLongArray insDone = new AtomicLongArray(total);
            AtomicLongArray delStart = new AtomicLongArray(total);
            AtomicLongArray delDone = new AtomicLongArray(total);
            boolean[] unrefreshed = new boolean[nw];
            boolean[] committedBy = new boolean[nw];
            AtomicBoolean writersDone = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> bad = new ConcurrentLinkedQueue<>();
            note("concurrent phase: " + nw + " writers x " + per + " ids from " + base + ", " + nr + " readers");
            List<Thread> threads = new ArrayList<>();
            BkdTree t = tree;
            for (int w = 0; w < nw; w++) {
                long s = r.nextLong();
                int wi = w;
                boolean leave = r.nextInt(4) == 0;
                unrefreshed[w] = leave;
                threads.add(new Thread(() -> {
                    Random wr = new Random(s);
                    try {
                        int i = 0;
                        List<Integer> mine = new ArrayList<>();
                        while (i < per && bad.isEmpty()) {
                            int batch = Math.min(per - i, 1 + wr.nextInt(30));
                            for (int j = 0; j < batch; j++) {
                                int x = wi * per + i + j;
                                insStart.set(x, clock.incrementAndGet());
                                t.insert(pts[x], base + x);
                                if (wr.nextInt(10) == 0) {               // a delete of a point still buffered
                                    delStart.set(x, clock.incrementAndGet());
                                    t.delete(pts[x], base + x);
                                    delDone.set(x, clock.incrementAndGet());
                                }
                            }
                            i += batch;
                            if (i == per && leave) {
                                break;          // the last batch left in the buffer of a terminating thread
                            }
                            if (cfg.persistent && wr.nextInt(8) == 0) {
                                committedBy[wi] = true;
                                t.commit();
                            } else {
                                t.refresh();
                            }
                            long done = clock.incrementAndGet();
                            for (int j = i - batch; j < i; j++) {
                                int x = wi * per + j;
                                insDone.set(x, done);
                                if (delStart.get(x) == 0) {
                                    mine.add(x);
                                }
                            }
                            if (!mine.isEmpty() && wr.nextInt(3) == 0) {
                                int x = mine.remove(wr.nextInt(mine.size()));
                                delStart.set(x, clock.incrementAndGet());
                                t.delete(pts[x], base + x);
                                delDone.set(x, clock.incrementAndGet());
                            }
                            if (wr.nextInt(20) == 0) {
                                t.forceMerge();
                            }
                        }
                    } catch (Throwable e) {
                        bad.add(e);
                    }
                }, "bkd-fuzz-writer-" + w));
            }
            for (int w = 0; w < nr; w++) {
                long s = r.nextLong();
                threads.add(new Thread(() -> {
                    Random rr = new Random(s);
                    try {
                        while (!writersDone.get() && bad.isEmpty()) {
                            Box box = boxFrom(rr);
                            int k = rr.nextInt(4);
                            long qs = clock.incrementAndGet();
                            if (k == 0) {
                                long n = t.count(box);
                                long qe = clock.incrementAndGet();
                                long lo = keys(stable, box).size();
                                long hi = lo;
                                for (int x = 0; x < total; x++) {
                                    if (!box.contains(pts[x])) {
                                        continue;
                                    }
                                    if (mustSee(x, qs, qe, insDone, delStart)) {
                                        lo++;
                                    }
                                    if (maySee(x, qs, qe, insStart, delDone)) {
                                        hi++;
                                    }
                                }
                                if (n < lo || n > hi) {
                                    throw new AssertionError("concurrent count " + n + " not in [" + lo + ", " + hi
                                            + "] " + box);
                                }
                            } else {
                                List<String> got = new ArrayList<>();
                                List<Long> phaseIds = new ArrayList<>();
                                long qe;
                                if (k == 1) {
                                    try (Snapshot snap = t.snapshot()) {
                                        qe = clock.incrementAndGet();
                                        List<String> first = new ArrayList<>();
                                        snap.query(box, (id, p) -> first.add(Entry.key(id, p)));
                                        Thread.yield();
                                        snap.query(box, (id, p) -> {
                                            got.add(Entry.key(id, p));
                                        });
                                        if (!first.equals(got)) {
                                            throw new AssertionError("a snapshot's query changed: " + first + " then "
                                                    + got);
                                        }
                                    }
                                } else {
                                    t.query(box, (id, p) -> got.add(Entry.key(id, p)));
                                    qe = clock.incrementAndGet();
                                }
                                List<String> old = new ArrayList<>();
                                for (String key : got) {
                                    long id = Long.parseLong(key.substring(0, key.indexOf('@')));
                                    if (id >= base && id < base + total) {
                                        phaseIds.add(id);
                                    } else {
                                        old.add(key);
                                    }
                                }
                                Collections.sort(old);
                                List<String> want = keys(stable, box);
                                if (!old.equals(want)) {
                                    throw new AssertionError("concurrent query: the points visible before the phase "
                                            + want + ", got " + old + " " + box);
                                }
                                Set<Long> seen = new HashSet<>();
                                for (long id : phaseIds) {
                                    int x = (int) (id - base);
                                    if (!seen.add(id)) {
                                        throw new AssertionError("concurrent query returned id " + id + " twice");
                                    }
                                    if (!box.contains(pts[x]) || !maySee(x, qs, qe, insStart, delDone)) {
                                        throw new AssertionError("concurrent query returned id " + id + " (insert start "
                                                + insStart.get(x) + ", delete done " + delDone.get(x) + ") in [" + qs
                                                + ", " + qe + "] " + box);
                                    }
                                }
                                for (int x = 0; x < total; x++) {
                                    if (box.contains(pts[x]) && mustSee(x, qs, qe, insDone, delStart)
                                            && !seen.contains(base + x)) {
                                        throw new AssertionError("concurrent query missed id " + (base + x)
                                                + " (insert done " + insDone.get(x) + ", delete start " + delStart.get(x)
                                                + ") in [" + qs + ", " + qe + "] " + box);
                                    }
                                }
                            }
                        }
                    } catch (Throwable e) {
                        bad.add(e);
                    }
                }, "bkd-fuzz-reader-" + w));
            }
            threads.forEach(Thread::start);
            for (int w = 0; w < nw; w++) {
                threads.get(w).join(TimeUnit.SECONDS.toMillis(60));
            }
            writersDone.set(true);
            for (Thread th : threads) {
                th.join(TimeUnit.SECONDS.toMillis(60));
                check(!th.isAlive(), th.getName() + " hangs: " + Arrays.toString(th.getStackTrace()));
            }
            if (!bad.isEmpty()) {
                Throwable first = bad.peek();
                throw new AssertionError("concurrent phase: " + first, first);
            }
            // the model: every insert not deleted is visible, but the buffers of threads that
            // terminated without a refresh, which the scheduler thread publishes shortly after
            for (int x = 0; x < total; x++) {
                if (delStart.get(x) == 0) {
                    inserted++;
                    visible.add(new Entry(base + x, pts[x]));
                } else {
                    inserted++;
                    deleted.add(new Entry(base + x, pts[x]));
                }
            }
            boolean anyCommit = false;
            for (int w = 0; w < nw; w++) {
                anyCommit |= committedBy[w];
                if (unrefreshed[w]) {
                    tags.add("terminated-unrefreshed");
                }
            }
            if (anyCommit) {
                tags.add("concurrent-commit");
                committed = null;       // other threads' buffers in it or not: not known
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (tree.count(Box.all(dims)) != visible.size() && System.nanoTime() < deadline) {
                Thread.onSpinWait();    // the scheduler thread publishes terminated threads' buffers
            }
            while (tree.stats().insertedPoints() != inserted && System.nanoTime() < deadline) {
                Thread.onSpinWait();    // and counts their points just after
            }
            checkAll("after the concurrent phase");
            if (committed == null) {
                note("commit after the concurrent phase");
                tree.commit();
                modelFlush(main);
                committed = new ArrayList<>(visible);
            }
        }

        Box boxFrom(Random rr) {
            if (rr.nextInt(6) == 0) {
                return Box.all(dims);
            }
            double[] lo = new double[dims];
            double[] hi = new double[dims];
            for (int d = 0; d < dims; d++) {
                double a = rr.nextInt(grid + 2) - 1;
                double b = rr.nextInt(grid + 2) - 1;
                lo[d] = Math.min(a, b);
                hi[d] = Math.max(a, b);
            }
            return Box.of(lo, hi);
        }

        /** The insert was published before the query began and no delete began before it ended. */
        static boolean mustSee(int x, long qs, long qe, AtomicLongArray insDone, AtomicLongArray delStart) {
            long done = insDone.get(x);
            long ds = delStart.get(x);
            return done != 0 && done < qs && (ds == 0 || ds > qe);
        }

        /** The insert began before the query ended and no delete completed before it began. */
        static boolean maySee(int x, long qs, long qe, AtomicLongArray insStart, AtomicLongArray delDone) {
            long s = insStart.get(x);
            long dd = delDone.get(x);
            return s != 0 && s < qe && (dd == 0 || dd > qs);
        }
    }
}
