package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the close-race tests share: a first close held in its test hook ({@link #holdFirst}) until the
 * test has seen what a second close on another thread does ({@link #awaitReturnedOrWaiting}), then
 * let go ({@link #release}). The tests judge the outcome, never the time taken.
 */
final class CloseRace {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Called by the first close's hook: holds it (at most 20 s) until {@link #release}. */
    void holdFirst() {
        held.countDown();
        try {
            released.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the first close is held in its hook. */
    void awaitFirstHeld() throws InterruptedException {
        assertTrue(held.await(10, TimeUnit.SECONDS), "the first close did not start");
    }

    /** Lets the first close go on. */
    void release() {
        released.countDown();
    }

    /**
     * Returns once {@code second} has ended (a close that returned at once: the defect) or waits
     * (a close waiting for the first, timed), or after 5 s: whichever, the test then releases the
     * first close and judges the outcome.
     */
    static void awaitReturnedOrWaiting(Thread second) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (second.isAlive() && second.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
