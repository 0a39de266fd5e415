package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() right after another inserting thread terminated: docs/bkd.md promises that a terminated
 * thread's buffer is published (by the scheduler thread) and that close() discards only buffers of
 * other live threads, so the points of a thread that terminated before close() began are committed.
 * Before, they were kept only if the scheduler thread happened to run in the microseconds between
 * the thread's end and close() (it polls every 2 ms), and lost otherwise.
 */
class TerminatedThreadCloseTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closeKeepsThePointsOfAThreadThatTerminatedBeforeIt(@TempDir Path dir) throws Exception {
        int points = 5;
        for (int round = 0; round < 20; round++) {
            BkdTree t = BkdTree.builder(2).directory(dir).build();
            long before = t.count(Box.all(2));
            int base = round * points;
            Thread w = new Thread(() -> {
                for (int i = 0; i < points; i++) {
                    t.insert(new double[] {base + i, round(base)}, base + i);
                }
            }, "inserter-" + round);
            w.start();
            w.join();                   // terminated: not a live thread when close() begins
            t.close();
            try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
                assertEquals(before + points, again.count(Box.all(2)),
                        "round " + round + ": the points of the terminated thread were lost by close()");
            }
        }
    }

    private static double round(int base) {
        return base % 7;
    }
}
