package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which group runs each worker. */
class PlacementTest {
    @Test
    void spreadPlacesWorkersGroupByGroup() {
        assertEquals(List.of("a", "a", "b", "b"), Placement.spread(2, "a", "b").groups());
    }

    /**
     * Hunt 2: the count of a spread overflowed an int: 2^30 workers over 4 groups made a placement of
     * no worker at all, 2^31-1 over 2 a NegativeArraySizeException.
     */
    /**
     * A placement's workers are the distributed farm's workers: more than Parallelism.MAX is refused when
     * the placement is made (it failed later, when the job built its farm; spread(2^29, ...) first made an
     * array of 2^30 names).
     */
    @Test
    void morePlacedWorkersThanAFarmMayHaveAreRefused() {
        int max = org.bbflow.core.Parallelism.MAX;
        assertEquals(max, Placement.spread(max / 2, "a", "b").workers());
        String m = assertThrows(IllegalArgumentException.class, () -> Placement.spread(max / 2 + 1, "a", "b")).getMessage();
        assertTrue(m.contains("Parallelism.MAX = " + max), m);
        String[] many = new String[max + 1];
        java.util.Arrays.fill(many, "w");
        m = assertThrows(IllegalArgumentException.class, () -> Placement.of(many)).getMessage();
        assertTrue(m.contains((max + 1) + " workers") && m.contains("Parallelism.MAX"), m);
        assertEquals(max, Placement.of(java.util.Arrays.copyOf(many, max)).workers());
    }

    @Test
    void aSpreadTooLargeToCountIsRefused() {
        for (int[] c : new int[][] {{1 << 30, 4}, {Integer.MAX_VALUE, 2}}) {
            String[] groups = new String[c[1]];
            java.util.Arrays.fill(groups, "w");
            String m = assertThrows(IllegalArgumentException.class, () -> Placement.spread(c[0], groups)).getMessage();
            assertTrue(m.contains(c[0] + " workers per group") && m.contains(c[1] + " groups"), m);
        }
    }
}
