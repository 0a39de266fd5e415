package org.bbflow.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime state of one feedback loop of a running flow (its {@link LoopPlan} says which nodes
 * head it and which channels it counts): the count of items in flight inside it, and its heads.
 */
final class Loop {
    /** Every head: the members with input from outside, who end it together. */
    final LoopHeads heads;
    final AtomicLong inFlight = new AtomicLong();
    /** Set by a head once it has decided to end; a send back after that is a bug in the user's node. */
    volatile boolean headDone;

    Loop(Waiter[] headWaiters) {
        this.heads = new LoopHeads(headWaiters);
    }
}
