package org.bbflow.core;

/** 128 bytes of padding between a {@link ClosableMpscQueue}'s read-only fields and its producer index. */
abstract class ClosableMpscQueuePad1 extends ClosableMpscQueueCold {
    long p100;
    long p101;
    long p102;
    long p103;
    long p104;
    long p105;
    long p106;
    long p107;
    long p108;
    long p109;
    long p110;
    long p111;
    long p112;
    long p113;
    long p114;
    long p115;

    ClosableMpscQueuePad1(int capacity) {
        super(capacity);
    }
}
