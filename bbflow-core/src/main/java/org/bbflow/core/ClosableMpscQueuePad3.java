package org.bbflow.core;

/** 128 bytes of padding between a {@link ClosableMpscQueue}'s producer limit and its consumer index. */
abstract class ClosableMpscQueuePad3 extends ClosableMpscQueueProducerLimit {
    long p300;
    long p301;
    long p302;
    long p303;
    long p304;
    long p305;
    long p306;
    long p307;
    long p308;
    long p309;
    long p310;
    long p311;
    long p312;
    long p313;
    long p314;
    long p315;

    ClosableMpscQueuePad3(int capacity) {
        super(capacity);
    }
}
