package org.bbflow.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The heads of one feedback loop: the members that take items from outside the loop and decide
 * together when it ends. A pipeline's or a farm's loop has one head (its first stage, its emitter);
 * an all-to-all with feedback has one per left member. A loop ends once every head's outside inputs
 * have ended and no item is in flight inside it: then no item can ever enter it again.
 */
final class LoopHeads {
    private final List<Vertex> vertices = new ArrayList<>();
    /** The heads' waiters, woken when the loop may have drained; set before threads start. */
    private Waiter[] waiters = new Waiter[0];
    /** Heads whose outside inputs have not all ended yet. */
    private final AtomicInteger withInput = new AtomicInteger();

    /** Adds a head (while the graph is built). */
    void add(Vertex v) {
        if (!vertices.contains(v)) {
            vertices.add(v);
            withInput.incrementAndGet();
        }
    }

    boolean contains(Vertex v) {
        return vertices.contains(v);
    }

    /** Registers a head's waiter (while the flow is wired, before threads start). */
    void attach(Waiter w) {
        waiters = Arrays.copyOf(waiters, waiters.length + 1);
        waiters[waiters.length - 1] = w;
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
