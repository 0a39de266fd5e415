package org.bbflow.examples.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * SquaresJob's check at the sizes where a {@code long} overflows: the closed form's product above
 * n = 1,664,510 (a correct run at n = 2,000,000 reported "DIFFERS" and exited 1), the sum itself
 * above n = 3,037,000.
 */
class SquaresJobTest {
    /** The sum of squares one by one, as the master's sink adds them, against a BigInteger oracle. */
    private static void sumsLikeTheSink(long n) {
        long[] sum = new long[2];
        BigInteger oracle = BigInteger.ZERO;
        for (long x = 1; x <= n; x++) {
            SquaresJob.add(sum, x * x);
            oracle = oracle.add(BigInteger.valueOf(x * x));
        }
        assertEquals(oracle, SquaresJob.exact(sum));
        assertEquals(oracle, SquaresJob.expectedSum(n));
        assertTrue(SquaresJob.matches(n, n, SquaresJob.exact(sum)), "a correct run at n = " + n);
        assertFalse(SquaresJob.matches(n, n - 1, SquaresJob.exact(sum)), "a result missing");
        assertFalse(SquaresJob.matches(n, n, SquaresJob.exact(sum).add(BigInteger.ONE)), "a wrong sum");
    }

    @Test
    void aCorrectRunAtTwoMillionMatches() {
        sumsLikeTheSink(2_000_000);
    }

    @Test
    void theSumMayLeaveALong() {
        sumsLikeTheSink(3_100_000);
        assertTrue(SquaresJob.expectedSum(3_100_000).bitLength() > 63);
    }
}
