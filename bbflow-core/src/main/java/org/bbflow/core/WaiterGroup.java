package org.bbflow.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The producers of an MPSC channel: each producer thread waits in its own {@link Waiter}, so no
 * producer can overwrite or clear another's parking slot (one shared slot lost wake-ups).
 *
 * <p>Handshake: a producer that is about to wait for room first increments {@link #waiting} (an
 * atomic read-modify-write, so a full fence), then publishes itself in its waiter and re-checks for
 * room before parking. The consumer frees a slot, fences (when the producers' strategy asks for
 * it), and reads {@code waiting}: if the count was still zero, the producer's re-check comes after
 * the freed slot and sees it; otherwise the consumer unparks every parked member. Waking all (not
 * one) matters: a producer unparked twice before it runs would otherwise absorb the wake-up of
 * another. The consumer's per-item cost is one volatile read while no producer waits.
 *
 * <p>Members are the producer nodes of a flow (added once, when the flow is wired) and, on a public
 * channel, each thread for the time of its wait (added before, removed after, so that a channel fed by
 * many short-lived threads keeps none of them); the array is copied on add and remove and read without
 * a lock.
 */
final class WaiterGroup {
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile Waiter[] members = new Waiter[0];

    /** Adds a producer's waiter if it is not a member yet. */
    void add(Waiter w) {
        for (Waiter m : members) {
            if (m == w) {
                return;
            }
        }
        synchronized (this) {
            Waiter[] current = members;
            for (Waiter m : current) {
                if (m == w) {
                    return;
                }
            }
            Waiter[] grown = Arrays.copyOf(current, current.length + 1);
            grown[current.length] = w;
            members = grown;
        }
    }

    /** Removes a producer's waiter (after its wait, {@link #endWait()} first). */
    void remove(Waiter w) {
        synchronized (this) {
            Waiter[] current = members;
            for (int i = 0; i < current.length; i++) {
                if (current[i] == w) {
                    Waiter[] shrunk = new Waiter[current.length - 1];
                    System.arraycopy(current, 0, shrunk, 0, i);
                    System.arraycopy(current, i + 1, shrunk, i, current.length - i - 1);
                    members = shrunk;
                    return;
                }
            }
        }
    }

    /** Called by a producer before its wait loop: from now on the consumer wakes the group. */
    void beginWait() {
        waiting.getAndIncrement();
    }

    /** Called by a producer after its wait loop. */
    void endWait() {
        waiting.getAndDecrement();
    }

    /** Unparks every parked member if any producer is waiting. */
    void wakeWaiting() {
        if (waiting.get() != 0) {
            for (Waiter m : members) {
                m.wakeIfParked();
            }
        }
    }

    int size() {
        return members.length;
    }
}
