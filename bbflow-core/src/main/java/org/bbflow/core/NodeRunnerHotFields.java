package org.bbflow.core;

/**
 * The fields a {@link NodeRunner} writes per item, between two paddings of 128 bytes: a flow allocates
 * its runners, outboxes and dispatchers one after the other, so without the paddings a consumer's
 * per-item writes shared a cache line with what its producer reads per item (its outbox and
 * dispatcher), and every item cost both threads a cache miss (found with async-profiler: the
 * producer's offer and the consumer's deliver stalled on loads of fields neither wrote).
 */
abstract class NodeRunnerHotFields extends NodeRunnerPad0 {
    // statistics (single writer: the node's thread; read opaque by stats())
    long itemsIn;
    long itemsOut;
    // context state: the current item's, -1 and false outside onItem
    int inputIndex = -1;
    boolean fromFeedback;
    // fill the class to a multiple of 8 bytes, so that no field of a subclass is laid out in its gap
    short pHotFill0;
    byte pHotFill1;
}
