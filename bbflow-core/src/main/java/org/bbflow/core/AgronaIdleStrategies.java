package org.bbflow.core;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;

/**
 * Makes the Agrona idle strategies of {@link WaitStrategy#newIdleStrategy()}. Kept apart so that
 * Agrona's classes (and its jar) are loaded only when an idle strategy is asked for, not by every
 * flow: the verifier loads {@link IdleStrategy} for any method that returns one of its
 * implementations.
 */
final class AgronaIdleStrategies {
    private AgronaIdleStrategies() {
    }

    static IdleStrategy busySpin() {
        return new BusySpinIdleStrategy();
    }

    static IdleStrategy backoff(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        return new BackoffIdleStrategy(maxSpins, maxYields, minParkNanos, maxParkNanos);
    }

    static IdleStrategy sleeping(long parkNanos) {
        return new SleepingIdleStrategy(parkNanos);
    }
}
