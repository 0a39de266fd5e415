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
