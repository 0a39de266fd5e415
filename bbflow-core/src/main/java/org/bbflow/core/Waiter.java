package org.bbflow.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The parking slot of one thread. A thread that is about to park publishes itself here, re-checks
 * its wait condition and parks; the peer that changes the condition reads the slot and unparks it.
 * One waiter per node thread serves all of that node's channels (a thread parks in one place at a
 * time), so a spurious unpark is possible and harmless: every wait loop re-checks its condition.
 */
final class Waiter extends WaiterPad1 {
    // The parked slot (WaiterSlot), written only when a thread parks, is padded by 128 bytes on each
    // side (WaiterPad0, WaiterPad1) so that no other write shares its cache lines (nor the adjacent
    // line prefetched with it).

    private static final VarHandle PARKED;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(WaiterSlot.class, "parked", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Unparks the thread parked here, if any. The waker that takes the thread out of the slot unparks
     * it, any other finds the slot empty: one unpark per park, however many peers produce or consume
     * meanwhile (a parked farm collector would otherwise be unparked, a system call each, by every item
     * its workers send until it runs again). The thread re-publishes itself before it parks again,
     * and re-checks its condition after every park, so no wake-up is lost.
     */
    void wakeIfParked() {
        Thread t = takeParked();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The thread parked here, taken out of the slot (null if none, or another waker took it first). */
    Thread takeParked() {
        Thread t = parked;
        return t != null && PARKED.compareAndSet(this, t, null) ? t : null;
    }
}
