package org.bbflow.core;

/**
 * The read-only fields of a {@link ClosableMpscQueue}, read by its producers and its consumer on every
 * operation and written only by the constructor.
 */
abstract class ClosableMpscQueueCold extends ClosableMpscQueuePad0 {
    /**
     * Elements at least 128 bytes (32 references, of 4 or 8 bytes) from either end of the array, so
     * that no slot shares a cache line with the array's header or with a neighbouring object.
     */
    static final int ARRAY_PAD = 32;

    /** The slots: slot {@code i} of the queue is element {@code ARRAY_PAD + i}. */
    final Object[] buffer;
    /** Capacity - 1 (capacity is a power of two, 1 included: then every index maps to the one slot). */
    final int mask;

    ClosableMpscQueueCold(int capacity) {
        if (capacity < 1 || capacity > 1 << 30) {
            throw new IllegalArgumentException("capacity must be in 1..2^30, got " + capacity);
        }
        int slots = capacity == 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1;
        this.buffer = new Object[slots + 2 * ARRAY_PAD];
        this.mask = slots - 1;
    }
}
