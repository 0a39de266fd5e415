package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code LocalJob.result(group, timeout)} takes any duration: one beyond what a {@code long} of
 * nanoseconds holds (about 292 years, {@code ChronoUnit.FOREVER}) means "wait for as long as it
 * takes", as the rest of BBFlow reads such a duration, not an {@code ArithmeticException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalJobResultTimeoutTest {

    @Test
    void aTimeoutBeyondALongOfNanosecondsWaitsForTheResult() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m").peerTimeout(Duration.ofSeconds(10)).build();
        try (LocalJob<Long> local = LocalJob.start(spec, job -> 42L)) {
            assertEquals(42L, local.result("m", ChronoUnit.FOREVER.getDuration()));
            assertEquals(42L, local.result("m", Duration.ofDays(365L * 300)));
            assertEquals(42L, local.result("m", Duration.ofSeconds(Long.MAX_VALUE)));
        }
    }

    /** A timeout of zero or below does not wait: a group still running is "did not end within". */
    @Test
    void aTimeoutOfZeroDoesNotWait() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m").peerTimeout(Duration.ofSeconds(10)).build();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try (LocalJob<Long> local = LocalJob.start(spec, job -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 7L;
        })) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> local.result("m", Duration.ZERO));
            assertTrue(e.getMessage().contains("did not end within"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> local.result("m", Duration.ofSeconds(-1)));
            release.countDown();
            assertEquals(7L, local.result("m"));
        }
    }
}
