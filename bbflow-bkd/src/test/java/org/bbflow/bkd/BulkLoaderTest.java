package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

class BulkLoaderTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void treeIsBalancedWithFullLeavesAndExactBoxes(int dims) {
        Random r = new Random(TestSeed.mix(dims));
        int n = 10_007;
        int leaf = 32;
        long[] c = new long[n * dims];
        long[] ids = new long[n];
        long[] seqs = new long[n];
        for (int i = 0; i < n; i++) {
            for (int d = 0; d < dims; d++) {
                c[i * dims + d] = Coordinates.encode(r.nextInt(3) == 0 ? 5.0 : r.nextGaussian() * 100);
            }
            ids[i] = i;
            seqs[i] = i + 1;
        }
        long[] sortedIds = ids.clone();
        KdTree t = new BulkLoader(dims, leaf, 7).build(c, ids, seqs, n, 0);   // pages of 128 points
        long[] after = new long[n];
        t.ids.copyTo(after, 0);
        Arrays.sort(after);
        assertTrue(Arrays.equals(sortedIds, after), "a permutation of the input");
        int leaves = 0;
        for (int node = 0; node < t.nodeFrom.length; node++) {
            int from = t.nodeFrom[node];
            int to = t.nodeTo[node];
            for (int d = 0; d < dims; d++) {
                long lo = Long.MAX_VALUE;
                long hi = Long.MIN_VALUE;
                for (int i = from; i < to; i++) {
                    lo = Math.min(lo, t.coord(i, d));
                    hi = Math.max(hi, t.coord(i, d));
                }
                assertEquals(lo, t.nodeMin[node * dims + d]);
                assertEquals(hi, t.nodeMax[node * dims + d]);
            }
            if (t.nodeRight[node] < 0) {
                leaves++;
                assertTrue(to - from <= leaf && to - from > 0);
                if (to != n) {
                    assertEquals(leaf, to - from, "all leaves but the last are full");
                }
            } else {
                int left = node + 1;
                int right = t.nodeRight[node];
                assertEquals(from, t.nodeFrom[left]);
                assertEquals(t.nodeTo[left], t.nodeFrom[right]);
                assertEquals(to, t.nodeTo[right]);
                boolean separated = false;
                for (int d = 0; d < dims; d++) {
                    separated |= t.nodeMax[left * dims + d] <= t.nodeMin[right * dims + d];
                }
                assertTrue(separated, "children separated by a split plane");
            }
            assertTrue(t.seqs.get(from) > 0);
        }
        assertEquals((n + leaf - 1) / leaf, leaves);
    }
}
