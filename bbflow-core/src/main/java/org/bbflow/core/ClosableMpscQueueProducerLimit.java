package org.bbflow.core;

/**
 * A {@link ClosableMpscQueue}'s producer limit: a cache of consumer index + capacity, so that an offer
 * reads the consumer's line only when the queue looks full by it (JCTools' MpscArrayQueue keeps one too).
 */
abstract class ClosableMpscQueueProducerLimit extends ClosableMpscQueuePad2 {
    /** Producer indices below it have a free slot. Accessed only through {@link ClosableMpscQueue}'s VarHandle. */
    long producerLimit;

    ClosableMpscQueueProducerLimit(int capacity) {
        super(capacity);
        this.producerLimit = mask + 1L;
    }
}
