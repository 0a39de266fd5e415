package org.bbflow.core;

/** 128 bytes of padding between a {@link ClosableMpscQueue}'s producer index and its producer limit. */
abstract class ClosableMpscQueuePad2 extends ClosableMpscQueueProducerIndex {
    long p200;
    long p201;
    long p202;
    long p203;
    long p204;
    long p205;
    long p206;
    long p207;
    long p208;
    long p209;
    long p210;
    long p211;
    long p212;
    long p213;
    long p214;
    long p215;

    ClosableMpscQueuePad2(int capacity) {
        super(capacity);
    }
}
