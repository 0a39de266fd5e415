package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background thread that cannot start after build() locked the directory (an OutOfMemoryError
 * "unable to create native thread", a thread factory that throws) fails build() with that
 * failure and leaves nothing behind: the write.lock is released and no thread of the failed index
 * runs on. Before, the lock stayed held for the JVM's life (every later build() of the directory
 * failed with "another BkdTree in this JVM has it open") and a scheduler thread already started
 * kept running.
 */
class BuildThreadFailureTest {

    /** Call 1 makes the scheduler thread, the calls after it the merge stage's threads. */
    private static ThreadFactory failingAt(int call, boolean failStart, List<Thread> made) {
        return r -> {
            int n;
            synchronized (made) {
                n = made.size() + 1;
            }
            if (n != call) {
                Thread t = new Thread(r);
                synchronized (made) {
                    made.add(t);
                }
                return t;
            }
            if (!failStart) {
                throw new OutOfMemoryError("simulated: factory cannot create thread " + n);
            }
            return new Thread(r) {
                @Override
                public synchronized void start() {
                    throw new OutOfMemoryError("simulated: unable to create native thread " + n);
                }
            };
        };
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aThreadThatCannotStartReleasesTheLockAndStopsTheOtherThreads(@TempDir Path dir) throws Exception {
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            t.insert(new double[] {1, 1}, 1);
        }
        int round = 0;
        for (boolean plain : new boolean[] {false, true}) {
            // 1: the scheduler thread; 2: the first merge thread (the flow makes all its threads
            // before it starts one); 3: a later merge thread, after one started (plain threads)
            for (int call : new int[] {1, 2, 3}) {
                for (boolean failStart : new boolean[] {false, true}) {
                    round++;
                    String what = "plain=" + plain + " call=" + call + " failStart=" + failStart;
                    List<Thread> made = new ArrayList<>();
                    OutOfMemoryError e = assertThrows(OutOfMemoryError.class, () -> BkdTree.builder(2)
                            .directory(dir).plainThreadMerges(plain).mergeWorkers(2)
                            .threadFactory(failingAt(call, failStart, made)).build(), what);
                    assertTrue(e.getMessage().startsWith("simulated"), e.getMessage());
                    synchronized (made) {
                        assertEquals(call - 1, made.size(), what);
                        for (Thread th : made) {        // build() stopped (joined) every thread it had started
                            assertFalse(th.isAlive(), what + ": " + th.getName() + " still runs");
                        }
                    }
                    try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {   // write.lock was released
                        assertEquals(round, again.count(Box.all(2)), "the last commit");
                        again.insert(new double[] {round + 1, 1}, round + 1);
                    }
                }
            }
        }
        // a failure of the merge flow's start keeps its type and message
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException nul = assertThrows(IllegalStateException.class, () -> BkdTree.builder(2)
                .directory(dir).threadFactory(r -> calls.incrementAndGet() == 2 ? null : new Thread(r)).build());
        assertTrue(nul.getMessage().contains("returned null"), nul.getMessage());
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(round + 1, again.count(Box.all(2)));
        }
    }
}
