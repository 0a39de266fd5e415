package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

/**
 * Issue 12.9: a visibility-bounds oracle. Every operation takes a ticket from one global clock when
 * it starts and when it completes; a query takes one before and one after. A query (or a snapshot,
 * with the tickets around its opening) must return every point whose insert completed (its
 * {@code refresh} returned) before the query started and whose delete had not started before the
 * query ended, and no point whose insert started after the query ended or whose delete completed
 * before the query started. Ids are never reused, so each id has at most one insert and one delete.
 */
class VisibilityBoundsTest {
    private static final int DIMS = 2;
    private static final int GRID = 64;

    /** Tickets of every id; 0 means "not (yet) recorded". */
    private static final class Journal {
        final AtomicLong clock = new AtomicLong();
        final AtomicLongArray insStart;
        final AtomicLongArray insDone;
        final AtomicLongArray delStart;
        final AtomicLongArray delDone;

        Journal(int ids) {
            insStart = new AtomicLongArray(ids);
            insDone = new AtomicLongArray(ids);
            delStart = new AtomicLongArray(ids);
            delDone = new AtomicLongArray(ids);
        }

        long tick() {
            return clock.incrementAndGet();
        }

        /** Checks one query result (sorted ids) against the bounds of the window [qs, qe]. */
        void check(long seed, String what, Box box, long[] got, long qs, long qe) {
            for (long id : got) {
                int i = (int) id;
                long s = insStart.get(i);
                if (s == 0 || s > qe) {
                    throw new AssertionError("seed " + seed + " " + what + ": id " + id
                            + " whose insert started at " + s + " after the query ended at " + qe);
                }
                long dd = delDone.get(i);
                if (dd != 0 && dd < qs) {
                    throw new AssertionError("seed " + seed + " " + what + ": id " + id
                            + " deleted at " + dd + " before the query started at " + qs);
                }
                if (!box.contains(Oracle.pointOf(id, DIMS, GRID))) {
                    throw new AssertionError("seed " + seed + " " + what + ": id " + id + " outside " + box);
                }
            }
            for (int i = 0; i < insDone.length(); i++) {
                long done = insDone.get(i);
                if (done == 0 || done > qs) {
                    continue;
                }
                long ds = delStart.get(i);
                if (ds != 0 && ds < qe) {
                    continue;
                }
                if (box.contains(Oracle.pointOf(i, DIMS, GRID)) && Arrays.binarySearch(got, i) < 0) {
                    throw new AssertionError("seed " + seed + " " + what + ": id " + i + " inserted at "
                            + done + " before the query started at " + qs + " (delete start " + ds
                            + ", query end " + qe + ") is missing from " + box);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {101, 202, 303, 404, 505, 606})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void queriesAndSnapshotsStayWithinTheirVisibilityBounds(long seed) throws Exception {
        System.out.println("VisibilityBoundsTest seed " + seed);
        int inserters = 3;
        int perInserter = 4000;
        int readers = 2;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        Journal j = new Journal(inserters * perInserter);
        Random master = new Random(TestSeed.mix(seed));
        try (BkdTree tree = BkdTree.builder(DIMS).leafSize(4).bufferSize(32).mergeFactor(2)
                .poisonReclaimed(true).build()) {
            ConcurrentLinkedQueue<Integer> deletable = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean writersDone = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < inserters; w++) {
                long s = master.nextLong();
                int base = w * perInserter;
                writers.add(new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        int i = 0;
                        while (i < perInserter && failure.get() == null && System.nanoTime() < deadline) {
                            int batch = Math.min(perInserter - i, 1 + r.nextInt(40));
                            for (int k = 0; k < batch; k++) {
                                int id = base + i + k;
                                j.insStart.set(id, j.tick());
                                tree.insert(Oracle.pointOf(id, DIMS, GRID), id);
                                if (r.nextInt(12) == 0) {          // delete a point still in the buffer
                                    j.delStart.set(id, j.tick());
                                    tree.delete(Oracle.pointOf(id, DIMS, GRID), id);
                                    j.delDone.set(id, j.tick());
                                }
                            }
                            tree.refresh();
                            long done = j.tick();
                            for (int k = 0; k < batch; k++) {
                                int id = base + i + k;
                                j.insDone.set(id, done);
                                if (j.delStart.get(id) == 0 && r.nextInt(3) == 0) {
                                    deletable.add(id);
                                }
                            }
                            i += batch;
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            long ds = master.nextLong();
            Thread deleter = new Thread(() -> {
                Random r = new Random(ds);
                try {
                    while (failure.get() == null) {
                        Integer id = deletable.poll();
                        if (id == null) {
                            if (writersDone.get() && deletable.isEmpty()) {
                                return;
                            }
                            Thread.onSpinWait();
                            continue;
                        }
                        if (r.nextInt(4) == 0) {
                            tree.forceMerge();
                        }
                        j.delStart.set(id, j.tick());
                        tree.delete(Oracle.pointOf(id, DIMS, GRID), id);
                        j.delDone.set(id, j.tick());
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            List<Thread> readerThreads = new ArrayList<>();
            for (int w = 0; w < readers; w++) {
                long s = master.nextLong();
                readerThreads.add(new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        while (!writersDone.get() && failure.get() == null) {
                            Box box = Oracle.randomBox(r, DIMS, GRID);
                            if (r.nextInt(6) == 0) {
                                long qs = j.tick();
                                try (Snapshot snap = tree.snapshot()) {
                                    long qe = j.tick();
                                    Thread.yield();
                                    j.check(seed, "snapshot", box, Oracle.ids(snap, box), qs, qe);
                                    j.check(seed, "snapshot again", box, Oracle.ids(snap, box), qs, qe);
                                }
                            } else {
                                long qs = j.tick();
                                long[] got = Oracle.ids(tree, box);
                                long qe = j.tick();
                                j.check(seed, "query", box, got, qs, qe);
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            writers.forEach(Thread::start);
            deleter.start();
            readerThreads.forEach(Thread::start);
            for (Thread t : writers) {
                t.join();
            }
            writersDone.set(true);
            deleter.join();
            for (Thread t : readerThreads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed, failure.get());
            }
            tree.awaitMerges();
            tree.forceMerge();
            tree.reclaimNow();
            List<Long> live = new ArrayList<>();
            for (int i = 0; i < j.insDone.length(); i++) {
                if (j.insDone.get(i) != 0 && j.delStart.get(i) == 0) {
                    live.add((long) i);
                }
            }
            long[] expected = live.stream().mapToLong(Long::longValue).toArray();
            assertArrayEquals(expected, Oracle.ids(tree, Box.all(DIMS)), "seed " + seed + " after all writers");
        }
    }

    /**
     * A read nested in a visitor (count, contains, nearest, distance) starts after the visitor's own
     * refresh() returned, so it sees the refreshed point; the outer query meanwhile keeps reading
     * the trees it pinned, though the visitor merged them away and reclamation ran (poisoned).
     * Before, a nested read reused the outer read's forest and missed the point.
     */
    @org.junit.jupiter.api.Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReadNestedInAVisitorSeesWhatTheVisitorPublished() {
        try (BkdTree t = BkdTree.builder(1).bufferSize(10).merging(false).poisonReclaimed(true).build()) {
            for (int i = 0; i < 100; i++) {
                t.insert(new double[] {i}, i);
            }
            t.refresh();
            List<String> wrong = new ArrayList<>();
            long[] nested = {0};
            long outer = t.query(Box.all(1), (id, p) -> {
                long n = ++nested[0];
                t.insert(new double[] {1000 + n}, 1000 + n);
                t.refresh();
                if (!t.contains(new double[] {1000 + n}, 1000 + n)) {
                    wrong.add("contains missed point " + (1000 + n));
                }
                if (t.count(Box.all(1)) != 100 + n) {
                    wrong.add("count " + t.count(Box.all(1)) + " after " + n + " nested inserts");
                }
                if (t.nearest(new double[] {1000 + n}, 1).get(0).id() != 1000 + n) {
                    wrong.add("nearest missed point " + (1000 + n));
                }
                if (t.countWithinDistance(new double[] {1000 + n}, 0) != 1) {
                    wrong.add("distance query missed point " + (1000 + n));
                }
                if (n % 10 == 0) {
                    t.forceMerge();              // replaces the trees the outer query reads
                    t.reclaimNow();              // and would poison them if the outer read lost its pin
                }
            });
            assertArrayEquals(new String[0], wrong.toArray(new String[0]), wrong.toString());
            org.junit.jupiter.api.Assertions.assertEquals(100, outer, "the outer query sees its own forest");
            org.junit.jupiter.api.Assertions.assertEquals(200, t.count(Box.all(1)));
        }
    }
}
