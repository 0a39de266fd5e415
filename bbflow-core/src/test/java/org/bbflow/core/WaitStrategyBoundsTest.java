package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A backoff's park periods given as durations too long to count in nanoseconds (above ~292 years,
 * as {@code ChronoUnit.FOREVER.getDuration()}): the strategy threw an ArithmeticException from the
 * conversion. They are refused with an IllegalArgumentException naming the period (not saturated:
 * the longest park bounds how late a missed wake-up is noticed); a long but countable one is kept.
 */
@Timeout(60)
class WaitStrategyBoundsTest {

    private static void refused(String argument, Duration minPark, Duration maxPark) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WaitStrategy.backoff(0, 0, minPark, maxPark));
        assertTrue(e.getMessage().contains(argument), e.getMessage());
    }

    @Test
    void parkPeriodsBeyondNanosecondsAreRefusedByName() {
        refused("maxPark", Duration.ofNanos(1), ChronoUnit.FOREVER.getDuration());
        refused("maxPark", Duration.ofNanos(1), Duration.ofSeconds(Long.MAX_VALUE));
        refused("minPark", Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE));
        refused("minPark", Duration.ofSeconds(Long.MIN_VALUE), Duration.ofMillis(1));
        refused("minPark", Duration.ZERO, Duration.ofMillis(1));
        refused("minPark", Duration.ofMillis(2), Duration.ofMillis(1));
        // countable, however unwise (a missed wake-up would wait that long): accepted as given
        assertTrue(WaitStrategy.backoff(4, 4, Duration.ofNanos(1), Duration.ofDays(365 * 100)).toString()
                .contains(".." + Duration.ofDays(365 * 100).toNanos() + "ns"));
    }
}
