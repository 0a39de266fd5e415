package org.bbflow.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The heads of one feedback loop at run time: the members that take items from outside the loop and
 * decide together when it ends. A pipeline's or a farm's loop has one head (its first stage, its
 * emitter); an all-to-all with feedback has one per left member. A loop ends once every head's outside
 * inputs have ended and no item is in flight inside it: then no item can ever enter it again.
 */
final class LoopHeads {
    /** The heads' waiters, woken when the loop may have drained. */
    private final Waiter[] waiters;
    /** Heads whose outside inputs have not all ended yet. */
    private final AtomicInteger withInput;

    LoopHeads(Waiter[] waiters) {
        this.waiters = waiters.clone();
        this.withInput = new AtomicInteger(waiters.length);
    }

    /** Called once by each head when all its inputs from outside the loop have ended. */
    void inputEnded() {
        if (withInput.decrementAndGet() == 0) {
            wakeAll();
        }
    }

    /** Whether every head's outside inputs have ended. */
    boolean allInputsEnded() {
        return withInput.get() == 0;
    }

    /** Wakes every head that may be parked (the loop may have drained). */
    void wakeAll() {
        for (Waiter w : waiters) {
            w.wakeIfParked();
        }
    }
}
