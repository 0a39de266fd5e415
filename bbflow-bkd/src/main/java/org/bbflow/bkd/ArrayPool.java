package org.bbflow.bkd;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pool of {@code long[]} arrays in power-of-two size classes, fed by reclaimed trees and drained
 * by insert buffers and merges. At most {@code maxPerClass} arrays per class and {@code maxBytes}
 * in total are kept; the rest is left to the garbage collector. In poisoning mode
 * reclaimed arrays are filled with {@link Coordinates#POISON} and never reused.
 */
final class ArrayPool {
    private static final int CLASSES = 32;
    private final ConcurrentLinkedQueue<long[]>[] free;
    private final AtomicIntegerArray counts = new AtomicIntegerArray(CLASSES);
    private final int maxPerClass;
    private final boolean poison;
    private final long maxBytes;
    private final AtomicLong pooledBytes = new AtomicLong();
    final AtomicLong reused = new AtomicLong();

    @SuppressWarnings("unchecked")
    ArrayPool(int maxPerClass, long maxBytes, boolean poison) {
        this.maxPerClass = maxPerClass;
        this.maxBytes = maxBytes;
        this.poison = poison;
        this.free = new ConcurrentLinkedQueue[CLASSES];
        for (int i = 0; i < CLASSES; i++) {
            free[i] = new ConcurrentLinkedQueue<>();
        }
    }

    private static int sizeClass(int minLength) {
        return minLength <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(minLength - 1);
    }

    /** An array of at least {@code minLength} longs (contents unspecified). */
    long[] take(int minLength) {
        int c = sizeClass(minLength);
        if (c >= 31) {
            return new long[minLength];
        }
        long[] a = free[c].poll();
        if (a != null) {
            counts.decrementAndGet(c);
            pooledBytes.addAndGet(-8L * a.length);
            reused.incrementAndGet();
            return a;
        }
        return new long[1 << c];
    }

    /** Returns an array that nobody reads any more (or poisons it in debug mode). */
    void give(long[] a) {
        if (a == null) {
            return;
        }
        if (poison) {
            Arrays.fill(a, Coordinates.POISON);
            return;
        }
        int c = sizeClass(a.length);
        if (c >= 31 || a.length != (1 << c)) {
            return;
        }
        long bytes = 8L * a.length;
        if (pooledBytes.addAndGet(bytes) > maxBytes) {
            pooledBytes.addAndGet(-bytes);
            return;
        }
        if (counts.incrementAndGet(c) <= maxPerClass) {
            free[c].offer(a);
        } else {
            counts.decrementAndGet(c);
            pooledBytes.addAndGet(-bytes);
        }
    }

    boolean poisoning() {
        return poison;
    }

    void clear() {
        for (int i = 0; i < CLASSES; i++) {
            free[i].clear();
            counts.set(i, 0);
        }
        pooledBytes.set(0);
    }
}
