package org.bbflow.core;

/** 128 bytes of padding after a {@link ClosableMpscQueue}'s consumer index. */
abstract class ClosableMpscQueuePad4 extends ClosableMpscQueueConsumerIndex {
    long p400;
    long p401;
    long p402;
    long p403;
    long p404;
    long p405;
    long p406;
    long p407;
    long p408;
    long p409;
    long p410;
    long p411;
    long p412;
    long p413;
    long p414;
    long p415;

    ClosableMpscQueuePad4(int capacity) {
        super(capacity);
    }
}
