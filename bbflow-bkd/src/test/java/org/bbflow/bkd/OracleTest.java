package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

class OracleTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 1234, 99991})
    void singleThreadedRandomScheduleMatchesOracle(long seed) throws Exception {
        Random r = new Random(TestSeed.mix(seed));
        int dims = 1 + r.nextInt(3);
        int grid = 5 + r.nextInt(40);
        try (BkdTree tree = BkdTree.builder(dims).leafSize(2 + r.nextInt(16)).bufferSize(1 + r.nextInt(64))
                .mergeFactor(2 + r.nextInt(3)).plainThreadMerges(seed % 2 == 0).pageShift(r.nextInt(6)).build()) {
            Oracle oracle = new Oracle();
            List<Oracle.Pt> inserted = new ArrayList<>();
            long nextId = 0;
            for (int step = 0; step < 4000; step++) {
                int op = r.nextInt(100);
                if (op < 60) {
                    double[] p = Oracle.gridPoint(r, dims, grid);
                    long id = r.nextInt(4) == 0 && !inserted.isEmpty()
                            ? inserted.get(r.nextInt(inserted.size())).id() : nextId++;
                    tree.insert(p, id);
                    oracle.insert(p, id);
                    inserted.add(new Oracle.Pt(p, id));
                } else if (op < 75 && !inserted.isEmpty()) {
                    Oracle.Pt x = inserted.get(r.nextInt(inserted.size()));
                    tree.delete(x.p(), x.id());
                    oracle.delete(x.p(), x.id());
                } else if (op < 80 && !inserted.isEmpty()) {
                    Oracle.Pt x = inserted.get(r.nextInt(inserted.size()));
                    tree.insert(x.p(), x.id());
                    oracle.insert(x.p(), x.id());
                } else if (op < 85) {
                    tree.refresh();
                } else if (op < 87) {
                    tree.awaitMerges();
                } else if (op < 88) {
                    tree.forceMerge();
                } else {
                    tree.refresh();
                    Box box = Oracle.randomBox(r, dims, grid);
                    assertArrayEquals(oracle.ids(box), Oracle.ids(tree, box), "seed " + seed + " step " + step + " " + box);
                    assertEquals(oracle.ids(box).length, tree.count(box), "seed " + seed + " step " + step);
                }
                if (op >= 88 && !inserted.isEmpty()) {
                    Oracle.Pt x = inserted.get(r.nextInt(inserted.size()));
                    boolean expected = oracle.live.stream().anyMatch(y -> y.id() == x.id() && Arrays.equals(y.p(), x.p()));
                    assertEquals(expected, tree.contains(x.p(), x.id()), "seed " + seed + " step " + step);
                }
            }
            tree.refresh();
            tree.awaitMerges();
            for (int i = 0; i < 50; i++) {
                Box box = Oracle.randomBox(r, dims, grid);
                assertArrayEquals(oracle.ids(box), Oracle.ids(tree, box), "seed " + seed + " final " + box);
            }
            assertEquals(oracle.live.size(), tree.count(Box.all(dims)), "seed " + seed);
        }
    }

    /**
     * Inserters, deleters (which delete announced points and re-insert some) and readers run
     * concurrently; after every writer refreshed, all queries equal the oracle.
     */
    @ParameterizedTest
    @ValueSource(longs = {7, 8, 9})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentWritersDeletersReadersMatchOracle(long seed) throws Exception {
        int dims = 2;
        int grid = 64;
        int inserters = 3;
        int deleters = 2;
        int readers = 2;
        int perInserter = 20_000;
        Random master = new Random(TestSeed.mix(seed));
        try (BkdTree tree = BkdTree.builder(dims).leafSize(16).bufferSize(500).mergeFactor(2)
                .mergeBacklog(2).pageShift(6).build()) {
            ConcurrentLinkedQueue<Long> announced = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Long> deleted = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Long> reinserted = new ConcurrentLinkedQueue<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean insertersDone = new AtomicBoolean();
            CountDownLatch insertersLatch = new CountDownLatch(inserters);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < inserters; w++) {
                long s = master.nextLong();
                int writer = w;
                threads.add(new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        for (int i = 0; i < perInserter; i++) {
                            long id = (long) writer * perInserter + i;
                            tree.insert(Oracle.pointOf(id, dims, grid), id);
                            if (r.nextInt(4) == 0) {
                                announced.add(id);
                            }
                            if (r.nextInt(3000) == 0) {
                                tree.refresh();
                            }
                        }
                        tree.refresh();
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        insertersLatch.countDown();
                    }
                }));
            }
            for (int w = 0; w < deleters; w++) {
                long s = master.nextLong();
                threads.add(new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        while (true) {
                            Long id = announced.poll();
                            if (id == null) {
                                if (insertersLatch.getCount() == 0 && announced.isEmpty()) {
                                    break;
                                }
                                Thread.onSpinWait();
                                continue;
                            }
                            double[] p = Oracle.pointOf(id, dims, grid);
                            tree.delete(p, id);
                            deleted.add(id);
                            if (r.nextInt(3) == 0) {
                                tree.insert(p, id);
                                reinserted.add(id);
                            }
                        }
                        tree.refresh();
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            for (int w = 0; w < readers; w++) {
                long s = master.nextLong();
                threads.add(new Thread(() -> {
                    Random r = new Random(s);
                    try {
                        while (!insertersDone.get()) {
                            Box box = Oracle.randomBox(r, dims, grid);
                            // visibility bounds of concurrent queries: VisibilityBoundsTest
                            tree.query(box, (id, p) -> {
                                if (!Arrays.equals(p, Oracle.pointOf(id, dims, grid)) || !box.contains(p)) {
                                    throw new AssertionError("wrong point for id " + id + ": " + Arrays.toString(p));
                                }
                            });
                            if (r.nextInt(16) == 0) {
                                try (Snapshot snap = tree.snapshot()) {
                                    long a = snap.count(box);
                                    long b = snap.count(box);
                                    if (a != b) {
                                        throw new AssertionError("snapshot not repeatable: " + a + " vs " + b);
                                    }
                                }
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (int i = 0; i < inserters + deleters; i++) {
                threads.get(i).join();
            }
            insertersDone.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed, failure.get());
            }
            Oracle oracle = new Oracle();
            for (long id = 0; id < (long) inserters * perInserter; id++) {
                oracle.insert(Oracle.pointOf(id, dims, grid), id);
            }
            for (long id : deleted) {
                oracle.delete(Oracle.pointOf(id, dims, grid), id);
            }
            for (long id : reinserted) {
                oracle.insert(Oracle.pointOf(id, dims, grid), id);
            }
            Random r = new Random(TestSeed.mix(seed));
            for (int i = 0; i < 40; i++) {
                Box box = Oracle.randomBox(r, dims, grid);
                assertArrayEquals(oracle.ids(box), Oracle.ids(tree, box), "seed " + seed + " " + box);
            }
            tree.awaitMerges();
            assertEquals(oracle.live.size(), tree.count(Box.all(dims)), "seed " + seed);
            assertTrue(tree.stats().merges() > 0, "seed " + seed + " merges happened");
        }
    }
}
