package org.bbflow.core.reactive;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One thread (a node's) waits until a condition holds; the threads that can make it hold (a
 * publisher's signals, a subscriber's requests) ring after they did. The waiter announces itself
 * before its last look at the condition and a ringer looks for a waiter only after its change, both
 * behind a full fence, so a change is either seen by that last look or followed by an unpark.
 */
final class Doorbell {
    private static final int SPINS = 64;
    private volatile Thread waiter;

    /** Wakes the waiter, if any; call after the change that may make its condition hold. */
    void ring() {
        VarHandle.fullFence();
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Returns once {@code ready} holds or the calling thread is interrupted (a cancelled flow
     * interrupts its nodes): the caller checks which.
     */
    void await(BooleanSupplier ready) {
        for (int i = 0; i < SPINS; i++) {
            if (ready.getAsBoolean()) {
                return;
            }
            Thread.onSpinWait();
        }
        Thread me = Thread.currentThread();
        waiter = me;
        VarHandle.fullFence();
        try {
            while (!ready.getAsBoolean() && !me.isInterrupted()) {
                LockSupport.park(this);
            }
        } finally {
            waiter = null;
        }
    }
}
