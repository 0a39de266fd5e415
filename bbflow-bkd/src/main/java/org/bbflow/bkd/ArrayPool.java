package org.bbflow.bkd;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pool of {@code long[]} arrays of a few exact lengths (those of the insert buffers, registered
 * with {@link #poolLength}), fed by reclaimed trees and drained by insert buffers. Every array it
 * hands out has exactly the requested length, so trees never carry slack. At most
 * {@code maxPerLength} arrays per length and {@code maxBytes} in total are kept; the rest is left to
 * the garbage collector. In poisoning mode reclaimed arrays are filled with
 * {@link Coordinates#POISON} and never reused.
 */
final class ArrayPool {
    /** The free arrays of one length. */
    private static final class Shelf {
        final ConcurrentLinkedQueue<long[]> free = new ConcurrentLinkedQueue<>();
        final AtomicInteger count = new AtomicInteger();
    }

    private final ConcurrentHashMap<Integer, Shelf> shelves = new ConcurrentHashMap<>();
    private final int maxPerLength;
    private final boolean poison;
    private final long maxBytes;
    private final AtomicLong pooledBytes = new AtomicLong();
    final AtomicLong reused = new AtomicLong();

    ArrayPool(int maxPerLength, long maxBytes, boolean poison) {
        this.maxPerLength = maxPerLength;
        this.maxBytes = maxBytes;
        this.poison = poison;
    }

    /** Lets arrays of exactly {@code length} longs be kept for reuse. */
    void poolLength(int length) {
        shelves.computeIfAbsent(length, k -> new Shelf());
    }

    /** An array of exactly {@code length} longs (contents unspecified). */
    long[] take(int length) {
        Shelf s = shelves.get(length);
        if (s != null) {
            long[] a = s.free.poll();
            if (a != null) {
                s.count.decrementAndGet();
                pooledBytes.addAndGet(-8L * a.length);
                reused.incrementAndGet();
                return a;
            }
        }
        return new long[length];
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
        Shelf s = shelves.get(a.length);
        if (s == null) {
            return;
        }
        long bytes = 8L * a.length;
        if (pooledBytes.addAndGet(bytes) > maxBytes) {
            pooledBytes.addAndGet(-bytes);
            return;
        }
        if (s.count.incrementAndGet() <= maxPerLength) {
            s.free.offer(a);
        } else {
            s.count.decrementAndGet();
            pooledBytes.addAndGet(-bytes);
        }
    }

    boolean poisoning() {
        return poison;
    }

    void clear() {
        for (Shelf s : shelves.values()) {
            s.free.clear();
            s.count.set(0);
        }
        pooledBytes.set(0);
    }
}
