package org.bbflow.core;

/** A {@link ClosableMpscQueue}'s producer index, claimed by every offer with one CAS. */
abstract class ClosableMpscQueueProducerIndex extends ClosableMpscQueuePad1 {
    /**
     * The slots ever claimed, with {@link ClosableMpscQueue#CLOSED} set once the queue is closed.
     * Accessed only through {@link ClosableMpscQueue}'s VarHandle.
     */
    long producerIndex;

    ClosableMpscQueueProducerIndex(int capacity) {
        super(capacity);
    }
}
