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
 * the garbage collector. Once nothing was taken for {@code idleNanos} the pool is emptied
 * ({@link #trimIfIdle}, run by the scheduler thread), so an index that no longer ingests holds no
 * free arrays. In poisoning mode reclaimed arrays are filled with {@link Coordinates#POISON} and
 * never reused.
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
    /** {@link System#nanoTime()} of the last {@link #take} or {@link #give}. */
    private volatile long lastUse = System.nanoTime();

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
        lastUse = System.nanoTime();
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
        lastUse = System.nanoTime();
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

    /** Bytes of the free arrays held now. */
    long pooledBytes() {
        return pooledBytes.get();
    }

    /** Empties the pool if nothing was taken or given for {@code idleNanos}. */
    void trimIfIdle(long idleNanos) {
        if (pooledBytes.get() > 0 && System.nanoTime() - lastUse > idleNanos) {
            clear();
        }
    }

    boolean poisoning() {
        return poison;
    }

    void clear() {
        for (Shelf s : shelves.values()) {
            for (long[] a; (a = s.free.poll()) != null; ) {
                s.count.decrementAndGet();
                pooledBytes.addAndGet(-8L * a.length);
            }
        }
    }
}
