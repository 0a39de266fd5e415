package org.bbflow.core;

import java.util.concurrent.atomic.AtomicLong;

/** A feedback loop: its members, its head(s) and the count of items inside it. */
final class Loop {
    final String owner;
    final Vertex head;
    /** Every head (the first is {@link #head}): the members with input from outside, who end it together. */
    final LoopHeads heads = new LoopHeads();
    final AtomicLong inFlight = new AtomicLong();
    /** Set by the head once it has decided to end; a send back after that is a bug in the user's node. */
    volatile boolean headDone;

    Loop(String owner, Vertex head) {
        this.owner = owner;
        this.head = head;
        heads.add(head);
    }
}
