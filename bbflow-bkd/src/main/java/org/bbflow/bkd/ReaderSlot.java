package org.bbflow.bkd;

/** Padding before the hot field, so slots of different readers never share a cache line. */
abstract class ReaderSlotPadBefore {
    long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** The announced forest version of one reader. */
abstract class ReaderSlotValue extends ReaderSlotPadBefore {
    /** Forest version this reader may be reading, or {@link ReaderSlot#IDLE}. */
    volatile long version = ReaderSlot.IDLE;
}

/**
 * A per-reader epoch slot (per thread for plain queries, per snapshot for snapshots). The reader
 * announces the version of the forest it pinned; the reclaimer never frees a tree visible in an
 * announced version. Padded on both sides of {@link #version}.
 */
final class ReaderSlot extends ReaderSlotValue {
    static final long IDLE = -1;
    long p11, p12, p13, p14, p15, p16, p17, p18;
    /** Thread-confined: 1 while a read uses this slot (a read nested in its visitor takes another slot). */
    int depth;
    /** Thread-confined: the forest the current read pinned. */
    Forest pinned;
    /**
     * The largest tombstone sequence this reader's queries use: a snapshot's limit, set once after
     * it pinned its forest; {@code Long.MAX_VALUE} (every tombstone) for every other reader and until
     * the snapshot set it. The reclaimer removes purged tombstones above it without waiting for this
     * reader (see {@link Reclaimer#retireTombstones}).
     */
    volatile long limit = Long.MAX_VALUE;
    /** Owner of a per-thread slot (null for snapshots); the slot is dropped once it terminates. */
    final Thread thread;

    ReaderSlot(Thread thread) {
        this.thread = thread;
    }
}
