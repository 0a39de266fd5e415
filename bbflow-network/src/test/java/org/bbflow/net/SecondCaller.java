package org.bbflow.net;

import java.util.concurrent.TimeUnit;

/** What the close-race tests share: the point at which a second closing thread has shown what it does. */
final class SecondCaller {
    private SecondCaller() {
    }

    /**
     * Returns once {@code second} has ended (a close that returned at once: the defect) or waits
     * (a close waiting for the first, timed), or after 5 s: whichever, the test then releases the
     * first close and judges the outcome, never the time taken.
     */
    static void awaitReturnedOrWaiting(Thread second) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (second.isAlive() && second.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
