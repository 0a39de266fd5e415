package org.bbflow.core;

/**
 * The fields a {@link NodeRunner} writes per item, between two paddings of 128 bytes: a flow allocates
 * its runners, outboxes and dispatchers one after the other, so without the paddings a consumer's
 * per-item writes could share a cache line with what its producer reads per item (its outbox and
 * dispatcher), a miss per item on both threads (async-profiler showed the producer's offer and the
 * consumer's deliver stalling on loads of fields neither wrote).
 */
abstract class NodeRunnerHotFields extends NodeRunnerPad0 {
    // statistics (single writer: the node's thread; itemsIn written with release by countIn, both read
    // with acquire by Flow.stats(), items in first)
    long itemsIn;
    long itemsOut;
    // context state: the current item's, -1 and false outside onItem
    int inputIndex = -1;
    boolean fromFeedback;
    // fill the class to a multiple of 8 bytes, so that no field of a subclass is laid out in its gap
    short pHotFill0;
    byte pHotFill1;
}
