package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge backlog the merge stage cannot hold is refused by the builder with a message naming the
 * setting and its range. Before, mergeBacklog(Integer.MAX_VALUE) was accepted, and build() then
 * failed inside the flow's ticket channel ("There is no larger power of 2 int for
 * value:2147483647 since it exceeds 2^31") after it had taken the directory's write.lock, which it
 * never released: every later build() on that directory in this JVM failed with "locked".
 */
class FailedBuildReleasesTest {
    private static final int MAX = BkdTree.MAX_MERGE_BACKLOG;

    @Test
    void aMergeBacklogBeyondTheLimitIsRefusedByTheBuilderAndTheLimitBuilds(@TempDir Path dir) throws Exception {
        for (boolean plain : new boolean[] {false, true}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(2)
                    .directory(dir).plainThreadMerges(plain).mergeBacklog(Integer.MAX_VALUE).build());
            assertTrue(e.getMessage().contains("mergeBacklog must be 1 to " + MAX),
                    e.getMessage());
            try (BkdTree t = BkdTree.builder(2).directory(dir).plainThreadMerges(plain)
                    .mergeBacklog(MAX).build()) {
                t.insert(new double[] {1, 2}, 3);
            }
            try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {   // the write.lock was released
                assertEquals(plain ? 3 : 1, again.count(Box.all(2)));
                again.insert(new double[] {plain ? 5 : 4, 2}, 4);
            }
        }
    }
}
