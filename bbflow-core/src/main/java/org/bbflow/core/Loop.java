package org.bbflow.core;

import java.util.concurrent.atomic.AtomicLong;

/** A feedback loop: its members, its head and the count of items inside it. */
final class Loop {
    final String owner;
    final Vertex head;
    final AtomicLong inFlight = new AtomicLong();
    /** Set by the head once it has decided to end; a send back after that is a bug in the user's node. */
    volatile boolean headDone;
    Waiter headWaiter;

    Loop(String owner, Vertex head) {
        this.owner = owner;
        this.head = head;
    }
}
