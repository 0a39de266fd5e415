package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tombstone purge searches the trees of the forest it read. A merge installed meanwhile
 * retires those trees; if the purge did not pin its forest, the reclaimer could poison (or pool
 * and reuse) their arrays while the purge still searches them, the purge would find no matching
 * point and drop a tombstone that still hides that point in the merged tree: a completed delete
 * would come undone (seen as VisibilityBoundsTest failing on a snapshot).
 */
class PurgePinTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aMergeInstalledDuringThePurgeDoesNotUndoADelete() {
        double[] p = {3, 4};
        try (BkdTree tree = BkdTree.builder(2).leafSize(4).bufferSize(64).merging(false)
                .poisonReclaimed(true).build()) {
            tree.insert(p, 7);
            tree.insert(new double[] {1, 1}, 8);
            tree.refresh();
            tree.insert(new double[] {2, 2}, 9);
            tree.refresh();
            KdTree[] job = tree.forest().trees.clone();
            Merger.claimAll(job);
            KdTree merged = tree.merger.merge(job);     // built before the delete: still holds p
            tree.delete(p, 7);
            assertFalse(tree.contains(p, 7), "deleted");
            tree.merger.afterPurgeReads = () -> {
                tree.merger.afterPurgeReads = null;
                tree.install(job, merged);              // a merge finishing during the purge
                tree.reclaimNow();                      // reclaims the inputs unless the purge pinned them
            };
            tree.merger.purgeTombstones();
            tree.reclaimNow();                          // runs the tombstone removal, if any
            assertFalse(tree.contains(p, 7), "a delete came undone after a purge raced with a merge");
            try (Snapshot s = tree.snapshot()) {
                assertFalse(s.contains(p, 7), "snapshot sees a deleted point");
            }
        }
    }
}
