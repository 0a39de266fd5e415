package org.bbflow.core;

import java.util.concurrent.locks.LockSupport;

/**
 * The parking slot of one thread. A thread that is about to park publishes itself here, re-checks
 * its wait condition and parks; the peer that changes the condition reads the slot and unparks it.
 * One waiter per node thread serves all of that node's channels (a thread parks in one place at a
 * time), so a spurious unpark is possible and harmless: every wait loop re-checks its condition.
 */
final class Waiter {
    // Padding keeps the parked slot, written only when a thread parks, off the lines of its neighbours.
    long p01, p02, p03, p04, p05, p06, p07;
    volatile Thread parked;
    long p11, p12, p13, p14, p15, p16, p17;

    void wakeIfParked() {
        Thread t = parked;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
