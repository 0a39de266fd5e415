package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * Two features at a time: deletes against each place a point can be (buffer, tree, a running
 * merge) with kNN and distance queries, tombstones and double edge values through commit and
 * reopen, snapshots across commit, merge, delete and close, a query in flight across close, failed
 * and empty commits, a held directory, and a failing background merge (flow and threads). Every
 * answer is compared with {@link Oracle}.
 */
@Timeout(60)
class FeatureCombinationsTest {

    private static void sameAsOracle(String at, Oracle o, BkdTree t, Random r, int grid) {
        for (int i = 0; i < 20; i++) {
            Box box = Oracle.randomBox(r, 2, grid);
            assertArrayEquals(o.ids(box), Oracle.ids(t, box), at + " " + box);
        }
        assertEquals(o.live.size(), t.count(Box.all(2)), at);
        for (int i = 0; i < 5; i++) {
            double[] q = Oracle.gridPoint(r, 2, grid);
            double radius = r.nextInt(grid / 2);
            long expected = o.live.stream().filter(x -> Math.sqrt(Oracle.dist2(x.p(), q)) <= radius).count();
            assertEquals(expected, t.countWithinDistance(q, radius), at + " distance " + radius);
            int k = 1 + r.nextInt(10);
            List<Double> want = o.live.stream().map(x -> Math.sqrt(Oracle.dist2(x.p(), q))).sorted()
                    .limit(k).toList();
            List<Double> got = t.nearest(q, k).stream().map(Neighbor::distance).toList();
            assertEquals(want, got, at + " kNN k=" + k);
        }
    }

    @Test
    void deleteInBufferFlushedAndDuringMergeThenReinsert() throws Exception {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        String at = "seed " + seed;
        Oracle o = new Oracle();
        try (BkdTree t = BkdTree.builder(2).bufferSize(40).leafSize(4).mergeFactor(2).poisonReclaimed(true)
                .mergeWhenIdle(Duration.ZERO).build()) {
            // still in the buffer
            double[] a = {1, 1};
            t.insert(a, 1);
            t.delete(a, 1);
            t.refresh();
            assertFalse(t.contains(a, 1), at);
            t.insert(a, 1);
            o.insert(a, 1);
            t.refresh();
            assertTrue(t.contains(a, 1), at + ": a re-insert after the delete survives");
            // flushed into a tree
            o.fill(t, r, 2, 30, 200, 7);
            t.refresh();
            t.awaitMerges();
            sameAsOracle(at + " flushed", o, t, r, 30);
            // during a merge: the merge waits until points of its inputs were deleted
            CountDownLatch merging = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            t.merger.beforeMerge = () -> {
                merging.countDown();
                try {
                    go.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            o.fill(t, r, 2, 30, 120, 0);
            t.refresh();
            assertTrue(merging.await(20, TimeUnit.SECONDS), at + ": no merge started");
            t.merger.beforeMerge = null;
            for (int i = 0; i < 30; i++) {
                o.deleteRandom(t, r);
            }
            Oracle.Pt back = o.live.get(0);
            t.delete(back.p(), back.id());
            t.insert(back.p(), back.id());      // deleted and re-inserted while the merge runs
            t.refresh();
            sameAsOracle(at + " while merging", o, t, r, 30);
            go.countDown();
            t.awaitMerges();
            t.forceMerge();
            sameAsOracle(at + " merged", o, t, r, 30);
            assertTrue(t.contains(back.p(), back.id()), at);
        }
    }

    @Test
    void tombstonesAndDoubleEdgesSurviveCommitMergeAndReopen(@TempDir Path dir) throws Exception {
        double inf = Double.POSITIVE_INFINITY;
        double[][] pts = {{0.0, 0.0}, {-0.0, 0.0}, {0.0, -0.0}, {-0.0, -0.0}, {inf, 1}, {-inf, 1}, {1, inf},
            {Double.MAX_VALUE, -Double.MAX_VALUE}, {Double.MIN_VALUE, -Double.MIN_VALUE}, {3, 4}};
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(3).leafSize(2).mergeFactor(2).build()) {
            for (int i = 0; i < pts.length; i++) {
                t.insert(pts[i], i);
            }
            t.refresh();
            t.delete(new double[] {-0.0, 0.0}, 1);           // only the point at -0.0, 0.0
            t.delete(new double[] {inf, 1}, 4);
            t.delete(new double[] {3, 4}, 999);              // no such point: hides nothing
            t.commit();
            t.awaitMerges();
        }
        for (int round = 0; round < 2; round++) {
            try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
                String at = "reopen " + round;
                assertTrue(t.contains(new double[] {0.0, 0.0}, 0), at);
                assertFalse(t.contains(new double[] {-0.0, 0.0}, 1), at);
                assertTrue(t.contains(new double[] {0.0, -0.0}, 2), at);
                assertTrue(t.contains(new double[] {-0.0, -0.0}, 3), at);
                assertFalse(t.contains(new double[] {inf, 1}, 4), at);
                assertTrue(t.contains(new double[] {-inf, 1}, 5), at);
                assertEquals(1, t.count(Box.of(new double[] {0.0, 0.0}, new double[] {0.0, 0.0})), at);
                assertEquals(3, t.count(Box.of(new double[] {-0.0, -0.0}, new double[] {0.0, 0.0})), at);
                assertEquals(8, t.count(Box.all(2)), at);
                // every live point, the infinite ones at distance infinity, nearest first
                List<Neighbor> all = t.nearest(new double[] {0, 0}, 20);
                assertEquals(8, all.size(), at + " " + all);
                for (int i = 1; i < all.size(); i++) {
                    assertTrue(all.get(i - 1).distance() <= all.get(i).distance(), at + " " + all);
                }
                assertEquals(inf, all.get(7).distance(), at + " " + all);
                assertEquals(inf, all.get(6).distance(), at + " " + all);
                assertEquals(8, t.countWithinDistance(new double[] {0, 0}, inf), at);
                assertEquals(5, t.countWithinDistance(new double[] {0, 0}, Double.MAX_VALUE), at);   // MAX, -MAX lies beyond
                assertEquals(5, t.countWithinDistance(new double[] {0, 0}, 5.0), at);
                if (round == 0) {
                    t.insert(new double[] {inf, 1}, 4);       // re-insert after the reopened tombstone
                    t.delete(new double[] {0.0, -0.0}, 2);
                    t.forceMerge();
                    t.commit();
                    t.delete(new double[] {0.0, 0.0}, 0);     // not committed: close() commits it
                    t.insert(new double[] {0.0, 0.0}, 0);
                }
            }
            if (round == 0) {
                // the first reopen changed: point 4 is back, point 2 is gone, point 0 deleted and re-inserted
                try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
                    assertTrue(t.contains(new double[] {inf, 1}, 4));
                    assertFalse(t.contains(new double[] {0.0, -0.0}, 2));
                    assertTrue(t.contains(new double[] {0.0, 0.0}, 0));
                    t.delete(new double[] {inf, 1}, 4);
                    t.insert(new double[] {0.0, -0.0}, 2);
                }
            }
        }
        assertTrue(IndexCheck.run(dir).ok());
    }

    @Test
    void snapshotHeldAcrossCommitMergeDeleteAndClose(@TempDir Path dir) throws Exception {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        String at = "seed " + seed;
        Oracle o = new Oracle();
        BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(25).leafSize(3).mergeFactor(2)
                .poisonReclaimed(true).build();
        o.fill(t, r, 2, 20, 300, 5);
        t.refresh();
        Snapshot s = t.snapshot();
        List<Box> boxes = new ArrayList<>();
        List<long[]> want = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Box b = Oracle.randomBox(r, 2, 20);
            boxes.add(b);
            want.add(o.ids(b));
        }
        Oracle.Pt some = o.live.get(0);
        // delete every point the snapshot sees, merge them away, purge, commit
        for (Oracle.Pt x : new ArrayList<>(o.live)) {
            t.delete(x.p(), x.id());
        }
        int before = o.live.size();
        o.fill(t, r, 2, 20, 50, 0);
        // The 50 new points reuse ids 0..49 on a 20 x 20 grid, so one of them can be `some` itself (same
        // coordinates and id: one seed in a few hundred), which the tree then holds again.
        boolean someAgain = o.live.subList(before, o.live.size()).stream()
                .anyMatch(x -> x.id() == some.id() && java.util.Arrays.equals(x.p(), some.p()));
        t.refresh();
        t.commit();
        t.awaitMerges();
        t.forceMerge();
        t.commit();
        t.reclaimNow();
        for (int i = 0; i < boxes.size(); i++) {
            assertArrayEquals(want.get(i), Oracle.ids(s, boxes.get(i)), at + " " + boxes.get(i));
        }
        assertTrue(s.contains(some.p(), some.id()), at);
        assertEquals(50, t.count(Box.all(2)), at);
        t.close();
        assertThrows(IllegalStateException.class, () -> s.count(Box.all(2)));
        s.close();
        s.close();
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(50, again.count(Box.all(2)), at);
            assertEquals(someAgain, again.contains(some.p(), some.id()), at + (someAgain ? ": inserted again" : ": deleted"));
        }
    }

    @Test
    void queryInFlightAcrossCloseOnAnotherThreadFinishesWithTheWholeAnswer() throws Exception {
        for (boolean merging : new boolean[] {true, false}) {
            BkdTree t = BkdTree.builder(2).bufferSize(10).leafSize(2).mergeFactor(2).merging(merging)
                    .poisonReclaimed(true).build();
            int n = 400;
            for (int i = 0; i < n; i++) {
                t.insert(Oracle.pointOf(i, 2, 100), i);
            }
            t.refresh();
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] seen = new long[2];
            Thread reader = new Thread(() -> {
                try {
                    seen[1] = t.query(Box.all(2), (id, p) -> {
                        if (seen[0]++ == 0) {
                            inside.countDown();
                            try {
                                closed.await(20, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    });
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            reader.start();
            assertTrue(inside.await(20, TimeUnit.SECONDS));
            t.close();
            closed.countDown();
            reader.join(20_000);
            assertFalse(reader.isAlive());
            if (failure.get() != null) {
                throw new AssertionError("the query in flight failed", failure.get());
            }
            assertEquals(n, seen[0], "merging " + merging);
            assertEquals(n, seen[1], "merging " + merging);
        }
    }

    @Test
    void closeFromInsideAVisitorEndsTheQueryCleanly(@TempDir Path dir) throws Exception {
        BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(10).leafSize(2).poisonReclaimed(true).build();
        for (int i = 0; i < 100; i++) {
            t.insert(Oracle.pointOf(i, 2, 100), i);
        }
        t.refresh();
        long[] seen = new long[1];
        long n = t.query(Box.all(2), (id, p) -> {
            if (seen[0]++ == 0) {
                t.close();
            }
        });
        assertEquals(100, n);
        assertEquals(100, seen[0]);
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(100, again.count(Box.all(2)));
        }
    }

    @Test
    void aSecondIndexOnAHeldDirectoryIsRefusedAndTheFirstKeepsWorking(@TempDir Path dir) throws Exception {
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            t.insert(new double[] {1, 2}, 1);
            t.commit();
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> BkdTree.builder(2).directory(dir).build());
            assertInstanceOf(IndexLockedException.class, e.getCause());
            assertThrows(UncheckedIOException.class, () -> BkdTree.builder(3).directory(dir).build());   // locked first
            t.insert(new double[] {3, 4}, 2);
            t.commit();
            t.commit();                                  // nothing changed: still a good commit
            assertEquals(2, t.count(Box.all(2)));
        }
        assertTrue(IndexCheck.run(dir).ok());
        BkdTree t = BkdTree.builder(2).directory(dir).build();
        assertEquals(2, t.count(Box.all(2)));
        t.close();
        assertThrows(IllegalStateException.class, t::commit);
        t.close();
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(2, again.count(Box.all(2)));
        }
    }

    @Test
    void aFailedCommitLeavesThePreviousOneAndTheNextCommitWorks(@TempDir Path dir) throws Exception {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        Oracle o = new Oracle();
        Path blocker = dir.resolve(Manifest.TEMP);
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(30).leafSize(4).build()) {
            o.fill(t, r, 2, 20, 100, 6);
            t.commit();
            int committed = o.live.size();
            o.fill(t, r, 2, 20, 100, 6);
            t.refresh();
            // the temp manifest's name is taken by a directory that cannot be deleted: the commit fails
            Files.createDirectories(blocker.resolve("x"));
            assertThrows(UncheckedIOException.class, t::commit);
            assertEquals(o.live.size(), t.count(Box.all(2)));
            assertTrue(IndexCheck.run(dir).ok());
            Files.delete(blocker.resolve("x"));
            Files.delete(blocker);
            o.fill(t, r, 2, 20, 50, 6);
            t.awaitMerges();
            t.commit();
            assertTrue(committed < o.live.size());
        }
        assertTrue(IndexCheck.run(dir).ok(), IndexCheck.run(dir).toString());
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            sameAsOracle("seed " + seed, o, t, r, 20);
        }
    }

    @Test
    void aFailingBackgroundMergeIsReportedAndLosesNothing() throws Exception {
        for (boolean threads : new boolean[] {false, true}) {
            long seed = TestSeed.current();
            Random r = new Random(seed);
            String at = "seed " + seed + (threads ? " threads" : " flow");
            Oracle o = new Oracle();
            try (BkdTree t = BkdTree.builder(2).bufferSize(20).leafSize(3).mergeFactor(2)
                    .plainThreadMerges(threads).mergeWhenIdle(Duration.ZERO).poisonReclaimed(true).build()) {
                int[] left = {3};
                t.merger.beforeMerge = () -> {
                    synchronized (left) {
                        if (left[0] > 0) {
                            left[0]--;
                            throw new IllegalStateException("injected merge failure");
                        }
                    }
                };
                o.fill(t, r, 2, 20, 300, 4);
                t.refresh();
                IllegalStateException e = assertThrows(IllegalStateException.class, t::awaitMerges, at);
                assertNotNull(e.getCause(), at);
                assertTrue(e.getCause().getMessage().contains("injected"), at + " " + e);
                // reported once (MergeFailureTest); the merges still queued go on: wait for them (bounded)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while ((t.stats().backlog() > 0 || t.merger.hasWork()) && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertEquals(0, t.stats().backlog(), at);
                sameAsOracle(at, o, t, r, 20);
                t.forceMerge();                       // the trees of the failed merges are not stuck claimed
                assertEquals(1, t.stats().trees(), at + " " + t.stats());
                sameAsOracle(at + " force-merged", o, t, r, 20);
            }
        }
    }

    @Test
    void openAndCloseLeaveNoFileOrThread(@TempDir Path dir) throws Exception {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return;
        }
        for (int i = 0; i < 3; i++) {
            try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(5).build()) {
                t.insert(new double[] {i, i}, i);
            }
        }
        long before = countFds(fds);
        int threads = Thread.activeCount();
        for (int i = 0; i < 20; i++) {
            try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(5).build()) {
                for (int j = 0; j < 12; j++) {
                    t.insert(new double[] {i, j}, j);
                }
                t.delete(new double[] {i, 0}, 0);
                t.commit();
            }
            assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(3).directory(dir).build());
        }
        long after = countFds(fds);
        assertTrue(after <= before + 2, "file descriptors " + before + " -> " + after);
        assertTrue(Thread.activeCount() <= threads + 2, "threads " + threads + " -> " + Thread.activeCount());
    }

    private static long countFds(Path fds) throws Exception {
        try (var s = Files.list(fds)) {
            return s.count();
        }
    }
}
