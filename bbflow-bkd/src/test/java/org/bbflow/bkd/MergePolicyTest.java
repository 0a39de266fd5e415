package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

/** Issue 12.5 (size-tiered merges, write amplification) and 12.6 (exact-size tree arrays). */
class MergePolicyTest {

    /** Refresh every 10 points: every point is rewritten about once per size tier, not once per flush. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writeAmplificationStaysLogarithmicUnderFrequentRefresh(int mergeFactor) throws Exception {
        int n = 20_000;
        try (BkdTree t = BkdTree.builder(2).mergeFactor(mergeFactor).build()) {
            Random r = new Random(TestSeed.mix(mergeFactor));
            for (int i = 0; i < n; i++) {
                t.insert(new double[] {r.nextInt(1000), r.nextInt(1000)}, i);
                if (i % 10 == 9) {
                    t.refresh();
                }
            }
            t.refresh();
            t.awaitMerges();
            BkdStats s = t.stats();
            double bound = 2 * Math.log(n) / Math.log(mergeFactor);
            System.out.printf("mergeFactor %d: write amplification %.2f (bound %.2f), %d trees %s%n",
                    mergeFactor, s.writeAmplification(), bound, s.trees(), s.treesPerLevel());
            assertEquals(n, s.insertedPoints());
            assertTrue(s.writeAmplification() < bound, "write amplification " + s.writeAmplification()
                    + " >= " + bound + ": " + s);
            assertTrue(s.trees() <= (mergeFactor - 1) * (s.treesPerLevel().size()), "at most factor-1 trees per tier: " + s);
            assertEquals(n, t.count(Box.all(2)));
        }
    }

    /**
     * Trees hold exact-size arrays: about 20 bytes per 2-D point (two 8-byte coordinates, ids
     * packed to 4 bytes, sequence numbers to 0 bytes as no delete came between the inserts).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void treeArraysHaveExactSize() {
        int n = 300_000;
        try (BkdTree t = BkdTree.builder(2).build()) {
            Random r = new Random(TestSeed.mix(6));
            for (int i = 0; i < n; i++) {
                t.insert(new double[] {r.nextDouble() * 10_000, r.nextDouble() * 10_000}, i);
            }
            t.refresh();
            t.forceMerge();
            BkdStats s = t.stats();
            System.out.printf("2-D, %d points: %.2f bytes per point (%d bytes)%n", n, s.treeBytesPerPoint(), s.treeBytes());
            assertEquals(n, s.points());
            assertTrue(s.treeBytesPerPoint() < 21, "bytes per point " + s.treeBytesPerPoint());
            for (int i = 0; i < 1000; i++) {
                t.delete(new double[] {0, 0}, i);                // never-inserted points: nothing dropped
            }
            assertEquals(n, t.count(Box.all(2)));
        }
    }
}
