package org.bbflow.core;

/** A {@link ClosableMpscQueue}'s consumer index, written by its one consumer. */
abstract class ClosableMpscQueueConsumerIndex extends ClosableMpscQueuePad3 {
    /** The slots ever consumed. Accessed only through {@link ClosableMpscQueue}'s VarHandle. */
    long consumerIndex;

    ClosableMpscQueueConsumerIndex(int capacity) {
        super(capacity);
    }
}
