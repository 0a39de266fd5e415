package org.bbflow.core;

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

    void wakeIfParked() {
        Thread t = parked;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
