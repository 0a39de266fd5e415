package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A close() whose commit fails with something other than an IOException (an OutOfMemoryError
 * while the commit allocates its write buffers, a RuntimeException of a file system provider)
 * still releases everything, as it does after an IOException: before, the exception left the
 * index marked closed (so a second close() did nothing) with its write.lock held and its
 * scheduler thread running, and the directory could not be opened again in this JVM
 * ("another BkdTree in this JVM has it open").
 */
class CloseFailureReleasesTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCloseWhoseCommitThrowsAnErrorReleasesTheLockAndItsThread(@TempDir Path dir) throws Exception {
        int reclaimersBefore = liveThreads("bkd-reclaimer");
        BkdTree t = BkdTree.builder(2).directory(dir).build();
        t.insert(new double[] {1, 1}, 1);
        t.commit();
        t.insert(new double[] {2, 2}, 2);
        t.commitSteps = step -> {
            if (step.equals("trees written")) {
                throw new OutOfMemoryError("simulated: no heap left for the commit of close()");
            }
        };
        OutOfMemoryError e = assertThrows(OutOfMemoryError.class, t::close);
        assertTrue(e.getMessage().startsWith("simulated"), e.getMessage());
        assertTrue(t.isClosed());
        t.close();                                  // idempotent, and nothing left to do
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {   // the write.lock was released
            assertEquals(1, again.count(Box.all(2)), "the last completed commit");
        }
        assertEquals(reclaimersBefore, liveThreads("bkd-reclaimer"), "the scheduler thread of the closed index ended");
    }

    private static int liveThreads(String name) {
        int n = 0;
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th.getName().equals(name) && th.isAlive()) {
                n++;
            }
        }
        return n;
    }
}
