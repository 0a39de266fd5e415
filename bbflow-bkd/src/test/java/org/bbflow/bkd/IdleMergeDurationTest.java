package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * mergeWhenIdle accepts every non-negative Duration, as its Javadoc says: one too long for a long of
 * nanoseconds (ChronoUnit.FOREVER, Duration.ofSeconds(Long.MAX_VALUE), 300 years) means an idle
 * merge that never comes. Before, Duration.toNanos() threw "ArithmeticException: long overflow".
 */
class IdleMergeDurationTest {

    @Test
    void aDurationBeyondALongOfNanosecondsMeansNever() throws Exception {
        for (Duration d : new Duration[] {ChronoUnit.FOREVER.getDuration(), Duration.ofSeconds(Long.MAX_VALUE),
                Duration.ofDays(300 * 366)}) {
            try (BkdTree t = BkdTree.builder(1).bufferSize(1).mergeFactor(4).mergeWhenIdle(d).build()) {
                for (int i = 0; i < 3; i++) {
                    t.insert(new double[] {i}, i);  // three one-point trees: no tier has four
                }
                t.awaitMerges();
                assertEquals(3, t.stats().trees(), d + ": no idle merge");
                assertEquals(Long.MAX_VALUE, t.idleMergeNanos, d.toString());
            }
        }
    }
}
