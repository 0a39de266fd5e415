package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The Bloom filter in front of the tombstones is sized from expectedTombstones at 16 bits each, in
 * long arithmetic and at most 2^28 bits. Before, 16 * expected overflowed an int above 2^27: the
 * filter got 2,048 bits (every tombstone lookup then went to the map), and the builder took any int.
 */
class ExpectedTombstonesTest {

    @Test
    void theFilterGrowsWithTheExpectationUpToItsCapAndNeverWraps() {
        assertEquals(1 << 11, new Tombstones.Bloom(1).bits(), "the smallest filter");
        assertEquals(1 << 20, new Tombstones.Bloom(1 << 16).bits(), "the default: 16 bits per tombstone");
        assertEquals(1 << 21, new Tombstones.Bloom((1 << 16) + 1).bits(), "rounded up to a power of two");
        int max = BkdTree.MAX_EXPECTED_TOMBSTONES;
        assertEquals(Tombstones.Bloom.MAX_BITS, new Tombstones.Bloom(max).bits());
        for (int expected : new int[] {(1 << 27) + 1, 3 << 26, (1 << 28) + 5, Integer.MAX_VALUE}) {
            assertEquals(Tombstones.Bloom.MAX_BITS, new Tombstones.Bloom(expected).bits(), "expected " + expected);
        }
    }

    @Test
    void theBuilderRefusesAnExpectationTheFilterCannotHonour() {
        for (int n : new int[] {0, -1, BkdTree.MAX_EXPECTED_TOMBSTONES + 1, (1 << 27) + 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BkdTree.builder(2).expectedTombstones(n));
            assertTrue(e.getMessage().contains("expectedTombstones must be 1 to 16777216"), e.getMessage());
        }
        try (BkdTree t = BkdTree.builder(2).expectedTombstones(BkdTree.MAX_EXPECTED_TOMBSTONES).build()) {
            t.insert(new double[] {1, 2}, 3);
            t.delete(new double[] {1, 2}, 3);
            assertEquals(0, t.count(Box.all(2)));
            assertEquals(Tombstones.Bloom.MAX_BITS, t.tombstones.bloomBits());
        }
    }
}
