package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;

/**
 * close() (sometimes two at once) racing every other operation, in seeded rounds with poisoned
 * reclamation, in memory and in a directory: each operation either works or fails with an
 * IllegalStateException saying the index is closed (never another exception, never a hang), a
 * snapshot stays repeatable, no thread is left behind, and the directory passes the check and
 * reopens. It found a forceMerge() overlapping close() failing with a NegativeArraySizeException.
 * Rounds: 30 in the default tier, 200 in the long one (about 2.2 s and 11 s), or {@code -Dbkd.race.rounds}.
 */
@Timeout(300)
class CloseRacingOperationsTest {

    @Test
    void everyOperationRacingCloseWorksOrSaysTheIndexClosed(@TempDir Path tmp) throws Exception {
        long seed = TestSeed.current();
        int rounds = Integer.getInteger("bkd.race.rounds", TestTier.pick(30, 200));
        System.out.println("CloseRacingOperationsTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), "
                + rounds + " rounds (-Dbkd.race.rounds)");
        Random master = new Random(seed);
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        ConcurrentLinkedQueue<String> bad = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < rounds && bad.isEmpty(); round++) {
            String at = "seed " + seed + " round " + round + ": ";
            Path dir = tmp.resolve("index-" + round);
            boolean persistent = master.nextBoolean();
            BkdTree.Builder b = BkdTree.builder(2).bufferSize(1 + master.nextInt(200)).leafSize(2 + master.nextInt(20))
                    .mergeFactor(2 + master.nextInt(3)).poisonReclaimed(true)
                    .mergeWhenIdle(Duration.ofMillis(master.nextInt(3) * 5L));
            if (persistent) {
                b.directory(dir);
            }
            BkdTree t = b.build();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong ops = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 6; w++) {
                long s = master.nextLong();
                int role = w;
                threads.add(new Thread(() -> operate(t, new Random(s), role, stop, ops, bad, at), "racer-" + w));
            }
            threads.forEach(Thread::start);
            long target = 100 + master.nextInt(3_000);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ops.get() < target && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            try {
                if (master.nextBoolean()) {
                    Thread second = new Thread(t::close, "second-close");
                    second.start();
                    t.close();
                    second.join(30_000);
                } else {
                    t.close();
                }
            } catch (Throwable e) {
                bad.add(at + "close: " + e);
            }
            long after = ops.get();
            while (ops.get() < after + 50 && System.nanoTime() < deadline) {
                Thread.onSpinWait();             // let the racers run into the closed index a while
            }
            stop.set(true);
            for (Thread th : threads) {
                th.join(30_000);
                if (th.isAlive()) {
                    bad.add(at + th.getName() + " hangs: " + java.util.Arrays.toString(th.getStackTrace()));
                }
            }
            if (persistent) {
                IndexCheck c = IndexCheck.run(dir);
                if (!c.ok()) {
                    bad.add(at + "check: " + c);
                }
                try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
                    again.count(Box.all(2));
                } catch (Throwable e) {
                    bad.add(at + "reopen: " + e);
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> left;
        do {
            left = new ArrayList<>();
            for (Thread th : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(th) && th.isAlive() && !th.getName().startsWith("ForkJoinPool.commonPool")) {
                    left.add(th.getName());
                }
            }
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        if (!left.isEmpty()) {
            bad.add("seed " + seed + ": threads left behind: " + left);
        }
        bad.forEach(System.out::println);
        assertTrue(bad.isEmpty(), bad.size() + " problems, first: " + bad.peek());
    }

    /** One racer: a mix of operations by role until stopped (or a while after the index closed). */
    private static void operate(BkdTree t, Random r, int role, AtomicBoolean stop, AtomicLong ops,
                                ConcurrentLinkedQueue<String> bad, String at) {
        BkdWriter writer = null;
        while (!stop.get()) {
            double[] p = {r.nextInt(50), r.nextInt(50)};
            try {
                switch ((role + r.nextInt(3)) % 8) {
                    case 0 -> {
                        t.insert(p, r.nextInt(1000));
                        if (r.nextInt(10) == 0) {
                            t.refresh();
                        }
                    }
                    case 1 -> t.delete(p, r.nextInt(1000));
                    case 2 -> {
                        t.count(Box.of(new double[] {0, 0}, new double[] {r.nextInt(50), 49}));
                        t.nearest(p, 1 + r.nextInt(20));
                        t.countWithinDistance(p, r.nextInt(20));
                    }
                    case 3 -> {
                        try (Snapshot s = t.snapshot()) {
                            long a = s.count(Box.all(2));
                            long c = s.count(Box.all(2));
                            if (a != c) {
                                bad.add(at + "a snapshot counted " + a + ", then " + c);
                            }
                        }
                    }
                    case 4 -> {
                        if (r.nextInt(20) == 0) {
                            t.forceMerge();
                        } else {
                            t.stats();
                        }
                    }
                    case 5 -> {
                        if (r.nextInt(10) == 0) {
                            t.commit();
                        } else {
                            t.contains(p, 1);
                        }
                    }
                    case 6 -> {
                        if (writer == null) {
                            writer = t.writer();
                        }
                        writer.insert(p, 5);
                        if (r.nextInt(20) == 0) {
                            writer.close();
                            writer = null;
                        }
                    }
                    default -> {
                        if (r.nextInt(30) == 0) {
                            t.awaitMerges();
                        } else {
                            t.withinDistance(p, 3, (id, q) -> { });
                        }
                    }
                }
            } catch (IllegalStateException e) {
                if (!t.isClosed() || e.getMessage() == null || !e.getMessage().contains("closed")) {
                    bad.add(at + "racer " + role + ": " + e);
                }
            } catch (Throwable e) {
                bad.add(at + "racer " + role + ": " + e);
            }
            ops.incrementAndGet();
        }
        if (writer != null) {
            try {
                writer.close();
            } catch (Throwable e) {
                bad.add(at + "writer close: " + e);
            }
        }
    }
}
