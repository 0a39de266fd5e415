package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread whose interrupt flag is set (a cancelled task, an executor shut down with
 * {@code shutdownNow()}) commits, closes and opens an index like any other thread, and keeps its
 * flag. Before, FileChannel I/O on such a thread failed with a ClosedByInterruptException: commit()
 * and build() failed with "...: null", and close() lost every insert since the last commit.
 */
@Timeout(60)
class InterruptedCallerTest {

    @Test
    void commitCloseAndOpenOnAnInterruptedThreadWorkAndKeepTheFlag(@TempDir Path dir) throws Exception {
        for (boolean threads : new boolean[] {false, true}) {
            Path d = dir.resolve("merges-on-" + (threads ? "threads" : "flow"));
            BkdTree t = BkdTree.builder(2).directory(d).bufferSize(5).mergeFactor(2).plainThreadMerges(threads).build();
            try {
                for (int i = 0; i < 50; i++) {
                    t.insert(new double[] {i, i}, i);
                }
                t.commit();
                for (int i = 50; i < 60; i++) {
                    t.insert(new double[] {i, i}, i);
                }
                t.delete(new double[] {0, 0}, 0);
                Thread.currentThread().interrupt();
                t.commit();
                assertTrue(Thread.interrupted(), "commit() keeps the interrupt flag");
                for (int i = 60; i < 70; i++) {
                    t.insert(new double[] {i, i}, i);
                }
                Thread.currentThread().interrupt();
                t.close();
                assertTrue(Thread.interrupted(), "close() keeps the interrupt flag");
                Thread.currentThread().interrupt();
                try (BkdTree again = BkdTree.builder(2).directory(d).build()) {
                    assertTrue(Thread.interrupted(), "build() keeps the interrupt flag");
                    assertEquals(69, again.count(Box.all(2)), "every insert and delete before close()");
                }
                assertTrue(IndexCheck.run(d).ok());
            } finally {
                Thread.interrupted();
                t.close();
            }
        }
    }
}
