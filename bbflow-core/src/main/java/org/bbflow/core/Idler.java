package org.bbflow.core;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The per-thread state of a {@link WaitStrategy}: one instance per waiting thread, never shared.
 * {@link #idle} performs one step of waiting; {@link #reset} is called after useful work.
 */
abstract class Idler {
    /** One waiting step. Implementations that park must publish the thread in {@code self}, re-check
     * {@code condition} and only then park, so that a peer's wake-up cannot be lost. */
    abstract void idle(Waiter self, WaitCondition condition);

    abstract void reset();

    static void park(Waiter self, WaitCondition condition, long nanos) {
        self.parked = Thread.currentThread();
        VarHandle.fullFence(); // the re-check below must not move before the publication above
        try {
            if (!condition.ready()) {
                LockSupport.parkNanos(nanos);
            }
        } finally {
            self.parked = null;
        }
    }
}
