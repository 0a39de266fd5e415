package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * {@code close()} racing {@code commit()} or another {@code close()}: a commit that lost the race fails with
 * an {@link IllegalStateException} and neither writes nor deletes a file; the index reopens at
 * close's commit.
 */
@Timeout(120)
class CloseCommitRaceTest {

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** The commit passed its open check, then close() ran to the end; the commit must not write. */
    @Test
    void aCommitThatResumesAfterCloseFailsAndLeavesTheDirectoryAlone(@TempDir Path dir) throws Exception {
        BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(10).merging(false).build();
        for (int i = 0; i < 100; i++) {
            t.insert(new double[] {i}, i);
        }
        t.commit();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        t.commitHook = () -> {
            entered.countDown();
            try {
                resume.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        AtomicReference<Throwable> racer = new AtomicReference<>();
        Thread committer = new Thread(() -> {
            try {
                t.commit();
            } catch (Throwable e) {
                racer.set(e);
            }
        }, "racing-commit");
        committer.start();
        assertTrue(entered.await(30, TimeUnit.SECONDS), "the racing commit started");
        t.commitHook = null;
        t.close();
        List<String> afterClose = listing(dir);
        resume.countDown();
        committer.join(30_000);
        assertTrue(!committer.isAlive(), "the racing commit returned");
        Throwable e = racer.get();
        assertNotNull(e, "a commit after close must fail, not report success");
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("closed"), String.valueOf(e));
        assertEquals(afterClose, listing(dir), "a refused commit writes and deletes nothing");
        try (BkdTree again = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(100, again.count(Box.all(1)), "close's commit is the durable one");
        }
    }

    /**
     * Two threads close at once, each while publishing its own buffer (held up by a delete being
     * recorded): one closes, the other waits for it and returns. Before, both ran close's commit and
     * the second failed with "write.lock was lost" and released the lock a second time.
     */
    @Test
    void twoClosesRacingBothReturnAndTheIndexReopens(@TempDir Path dir) throws Exception {
        BkdTree t = BkdTree.builder(1).directory(dir).merging(false).build();
        CountDownLatch recording = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        t.tombstones.afterMapPut = () -> {
            recording.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread deleter = new Thread(() -> t.delete(new double[] {-1}, -1), "deleter");
        deleter.start();
        assertTrue(recording.await(30, TimeUnit.SECONDS), "the delete is being recorded");
        t.tombstones.afterMapPut = null;
        List<AtomicReference<Throwable>> failures = List.of(new AtomicReference<>(), new AtomicReference<>());
        List<Thread> closers = new java.util.ArrayList<>();
        for (int c = 0; c < 2; c++) {
            AtomicReference<Throwable> failure = failures.get(c);
            int id = c;
            closers.add(new Thread(() -> {
                try {
                    t.insert(new double[] {id}, id);
                    t.close();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "closer-" + c));
        }
        closers.forEach(Thread::start);
        // each closer is either publishing its buffer (held up by the delete) or waiting for the other close
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread c : closers) {
            while (c.getState() != Thread.State.BLOCKED && !publishing(t, c)) {
                assertTrue(System.nanoTime() < deadline, c.getName() + " reached close(): " + c.getState());
                Thread.onSpinWait();
            }
        }
        finish.countDown();
        for (Thread c : closers) {
            c.join(30_000);
            assertTrue(!c.isAlive(), c.getName() + " returned");
        }
        deleter.join(30_000);
        for (AtomicReference<Throwable> f : failures) {
            assertEquals(null, f.get(), "a close() racing another must neither fail nor commit twice");
        }
        assertTrue(t.isClosed());
        try (BkdTree again = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(1, again.count(Box.all(1)), "the first close committed its thread's point");
        }
    }

    /** Whether {@code thread} is flushing its buffer of {@code t} (the buffer's generation is odd then). */
    private static boolean publishing(BkdTree t, Thread thread) {
        for (InsertBuffer b : t.buffers()) {
            if (b.thread == thread && (b.generation & 1) == 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * Seeded repetitions of a committing thread against close(): whoever wins, the reopened index
     * holds every point acknowledged by a commit (and nothing is lost to a late commit).
     */
    @Test
    void closeRacingCommitsNeverLosesTheIndex(@TempDir Path tmp) throws Exception {
        long seed = TestSeed.current();
        int rounds = Integer.getInteger("bkd.race.rounds", 20);
        System.out.println("CloseCommitRaceTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), " + rounds + " rounds (-Dbkd.race.rounds)");
        Random r = new Random(seed);
        for (int round = 0; round < rounds; round++) {
            Path dir = tmp.resolve("index-" + round);
            BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(50).merging(false).build();
            for (int i = 0; i < 500; i++) {
                t.insert(new double[] {i}, i);
            }
            t.commit();
            AtomicLong acked = new AtomicLong(500);
            int spin = r.nextInt(2_000);
            Thread committer = new Thread(() -> {
                long next = 1_000_000;
                try {
                    for (;;) {
                        for (int i = 0; i < 20; i++) {
                            t.insert(new double[] {next}, next);
                            next++;
                        }
                        t.commit();
                        acked.addAndGet(20);
                    }
                } catch (IllegalStateException closed) {
                    // close won: every later commit is refused
                }
            }, "committer-" + round);
            committer.start();
            for (int i = 0; i < spin; i++) {
                Thread.onSpinWait();
            }
            t.close();
            committer.join(30_000);
            assertTrue(!committer.isAlive(), "seed " + seed + " round " + round + ": the committer stopped");
            try (BkdTree again = BkdTree.builder(1).directory(dir).build()) {
                long n = again.count(Box.all(1));
                assertTrue(n >= acked.get(), "seed " + seed + " round " + round + ": reopened " + n
                        + " points, commits had acknowledged " + acked.get());
                assertEquals(500, again.count(Box.of(new double[] {0}, new double[] {499})),
                        "seed " + seed + " round " + round);
            }
        }
    }
}
