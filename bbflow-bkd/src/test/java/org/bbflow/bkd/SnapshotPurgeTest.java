package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An open snapshot holds back only the tombstones it can use: those of deletes completed before
 * it was opened. Before, any open snapshot stalled every tombstone purge (the removal waited for it,
 * and every later purge waited for that removal), so a long-lived snapshot made the tombstones of
 * all later deletes pile up in memory.
 */
class SnapshotPurgeTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anOpenSnapshotKeepsOnlyTheTombstonesOfDeletesBeforeIt() {
        try (BkdTree t = BkdTree.builder(2).leafSize(4).merging(false).poisonReclaimed(true).build()) {
            double[] a = {1, 1};
            t.insert(a, 1);
            t.insert(new double[] {2, 2}, 2);
            t.refresh();
            t.delete(a, 1);                                 // before the snapshot: it needs this tombstone
            try (Snapshot s = t.snapshot()) {
                t.forceMerge();                             // drops a, so the purge would drop its tombstone
                t.reclaimNow();
                int n = 200;
                for (int round = 0; round < 4; round++) {   // deletes after the snapshot, merged away
                    for (int i = 0; i < n; i++) {
                        t.insert(new double[] {10 + i, round}, 100 + i);
                    }
                    t.refresh();
                    for (int i = 0; i < n; i++) {
                        t.delete(new double[] {10 + i, round}, 100 + i);
                    }
                    t.forceMerge();
                    t.reclaimNow();
                }
                assertEquals(1, t.stats().tombstones(), "only the tombstone the open snapshot can use is kept");
                assertFalse(s.contains(a, 1), "the snapshot still hides the point deleted before it");
                assertEquals(1, s.count(Box.all(2)));
                assertEquals(1, t.count(Box.all(2)));
            }
            t.insert(new double[] {3, 3}, 3);
            t.refresh();
            t.forceMerge();                                 // the snapshot is closed: its tombstone goes too
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones());
            assertFalse(t.contains(a, 1));
            assertTrue(t.contains(new double[] {2, 2}, 2));
        }
    }
}
