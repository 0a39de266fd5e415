package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.bbflow.testing.TestSeed;

class TombstoneTest {
    private static final double[] P = {3, 4};

    private static BkdTree tree() {
        return BkdTree.builder(2).leafSize(8).bufferSize(64).merging(false).build();
    }

    @Test
    void deleteBeforeInsertDoesNotHideTheLaterPoint() {
        try (BkdTree t = tree()) {
            t.delete(P, 1);
            t.insert(P, 1);
            t.refresh();
            assertTrue(t.contains(P, 1));
            assertEquals(1, t.count(Box.point(P)));
            t.forceMerge();
            assertTrue(t.contains(P, 1));
        }
    }

    @Test
    void deleteHidesPointStillInTheBuffer() {
        try (BkdTree t = tree()) {
            t.insert(P, 1);
            t.delete(P, 1);
            t.refresh();
            assertFalse(t.contains(P, 1));
            assertEquals(0, t.count(Box.point(P)));
        }
    }

    @Test
    void deleteIsVisibleAtOnceAndOnlyForTheSameId() {
        try (BkdTree t = tree()) {
            t.insert(P, 1);
            t.insert(P, 2);
            t.insert(P, 1);
            t.refresh();
            assertEquals(3, t.count(Box.point(P)));
            t.delete(P, 1);
            assertEquals(1, t.count(Box.point(P)));
            assertTrue(t.contains(P, 2));
            assertFalse(t.contains(P, 1));
            t.delete(new double[] {3, 4.5}, 2);
            assertTrue(t.contains(P, 2));
        }
    }

    @Test
    void reinsertAfterDeleteSurvivesMerges() {
        try (BkdTree t = tree()) {
            t.insert(P, 1);
            t.refresh();
            t.delete(P, 1);
            t.forceMerge();
            t.insert(P, 1);
            t.refresh();
            assertTrue(t.contains(P, 1));
            t.forceMerge();
            assertTrue(t.contains(P, 1));
            assertEquals(1, t.stats().points());
        }
    }

    @Test
    void mergesDropDeadPointsAndPurgeTombstones() {
        long seed = TestSeed.mix(5);
        Random r = new Random(seed);
        try (BkdTree t = tree()) {
            Oracle oracle = new Oracle();
            for (int i = 0; i < 2000; i++) {
                double[] p = Oracle.gridPoint(r, 2, 30);
                t.insert(p, i);
                oracle.insert(p, i);
            }
            t.refresh();
            for (Oracle.Pt x : oracle.live.subList(0, 700).toArray(new Oracle.Pt[0])) {
                t.delete(x.p(), x.id());
                oracle.delete(x.p(), x.id());
            }
            assertEquals(2000, t.stats().points());
            assertEquals(700, t.stats().tombstones());
            t.forceMerge();
            assertEquals(1, t.stats().trees());
            assertEquals(1300, t.stats().points(), "dead points dropped by the merge");
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones(), "tombstones that can no longer match are purged");
            for (int i = 0; i < 30; i++) {
                Box box = Oracle.randomBox(r, 2, 30);
                assertArrayEquals(oracle.ids(box), Oracle.ids(t, box), "seed " + seed + " " + box);
            }
        }
    }

    @Test
    void tombstoneIsKeptWhileAnOlderPointIsStillBuffered() {
        try (BkdTree t = tree(); BkdWriter w = t.writer()) {
            w.insert(P, 1);
            t.insert(new double[] {1, 1}, 9);
            t.refresh();
            t.delete(P, 1);
            t.forceMerge();
            t.reclaimNow();
            assertEquals(1, t.stats().tombstones(), "the buffered point may still need it");
            w.flush();
            assertFalse(t.contains(P, 1));
            t.forceMerge();
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones());
            assertEquals(1, t.stats().points());
        }
    }

    @Test
    void snapshotIsRepeatableAcrossDeletesMergesAndPurges() {
        try (BkdTree t = tree()) {
            t.insert(P, 1);
            t.insert(P, 2);
            t.refresh();
            try (Snapshot before = t.snapshot()) {
                t.delete(P, 1);
                try (Snapshot after = t.snapshot()) {
                    t.forceMerge();
                    t.reclaimNow();
                    assertEquals(2, before.count(Box.point(P)));
                    assertEquals(1, after.count(Box.point(P)));
                    assertTrue(before.contains(P, 1));
                    assertFalse(after.contains(P, 1));
                    assertEquals(1, t.count(Box.point(P)));
                    assertEquals(1, t.stats().tombstones(), "purge waits for snapshots of the old forest");
                    t.insert(P, 3);
                    t.refresh();
                    assertEquals(1, after.count(Box.point(P)));
                    assertEquals(2, t.count(Box.point(P)));
                }
            }
            t.reclaimNow();
            assertEquals(0, t.stats().tombstones());
        }
    }
}
