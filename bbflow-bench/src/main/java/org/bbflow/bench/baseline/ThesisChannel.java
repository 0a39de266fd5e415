package org.bbflow.bench.baseline;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A re-implementation, for comparison only, of the thesis's non-blocking channel (chapter 4,
 * "Non-blocking queues"): a {@link ConcurrentLinkedQueue} (Michael-Scott linked queue, one node
 * allocated per item) bounded by an {@link AtomicLong} size counter that both sides update
 * atomically, with end of stream as a flag, and waiting by "sleepNanos" back-off: sleep 1 ms while
 * the time left is above the ~2 ms precision of {@code Thread.sleep}, otherwise {@code Thread.yield()}.
 *
 * <p>It is the "thesis-style channel" baseline of the benchmarks; it is written from the
 * description in the thesis, not from its code. Safe for one producer and one consumer thread (like
 * the original, it would also tolerate several).
 *
 * @param <T> item type
 */
public final class ThesisChannel<T> {
    /** The thesis's default back-off, {@code bb_settings.backOff} (100 ns in its benchmarks). */
    public static final long DEFAULT_BACKOFF_NANOS = 100;
    private static final long SLEEP_PRECISION_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final ConcurrentLinkedQueue<T> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong size = new AtomicLong();
    private final long capacity;
    private final long backoffNanos;
    private volatile boolean eos;

    /**
     * A bounded channel.
     *
     * @param capacity the maximum number of items, at least 1 ({@link Long#MAX_VALUE}: unbounded)
     * @param backoffNanos the pause of one back-off step
     */
    public ThesisChannel(long capacity, long backoffNanos) {
        if (capacity < 1 || backoffNanos < 0) {
            throw new IllegalArgumentException("capacity must be >= 1 and backoff >= 0");
        }
        this.capacity = capacity;
        this.backoffNanos = backoffNanos;
    }

    /** A bounded channel with the default back-off. */
    public ThesisChannel(long capacity) {
        this(capacity, DEFAULT_BACKOFF_NANOS);
    }

    /** Adds an item if the size counter says there is room; false if full. */
    public boolean offer(T item) {
        if (eos) {
            throw new IllegalStateException("offer after EOS");
        }
        if (size.get() >= capacity) {
            return false;
        }
        queue.offer(item);
        size.incrementAndGet();
        return true;
    }

    /** Adds an item, backing off while the channel is full. */
    public void put(T item) {
        while (!offer(item)) {
            sleepNanos(backoffNanos);
        }
    }

    /** Removes the head item, or null if empty. */
    public T poll() {
        T x = queue.poll();
        if (x != null) {
            size.decrementAndGet();
        }
        return x;
    }

    /** Removes the head item, backing off while empty; null once EOS is set and the channel is drained. */
    public T take() {
        while (true) {
            T x = poll();
            if (x != null) {
                return x;
            }
            if (eos) {
                return poll();
            }
            sleepNanos(backoffNanos);
        }
    }

    /** Sets end of stream; items already in the channel are still delivered. */
    public void setEos() {
        eos = true;
    }

    /** True once end of stream was set. */
    public boolean isEos() {
        return eos;
    }

    /** The size counter. */
    public long size() {
        return size.get();
    }

    /**
     * The thesis's precise pause: sleeps 1 ms at a time while more than the sleep precision is left,
     * then yields until the time is up (so short pauses are yield loops).
     */
    public static void sleepNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return;
            }
            if (left > SLEEP_PRECISION_NANOS) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while backing off", e);
                }
            } else {
                Thread.yield();
            }
        }
    }
}
