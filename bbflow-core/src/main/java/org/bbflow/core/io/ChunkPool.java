package org.bbflow.core.io;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jctools.queues.MpscArrayQueue;

/**
 * A fixed set of equally sized {@link Chunk} buffers, all allocated up front: the memory of an
 * n-buffered stream. Buffer size is {@code floor(memoryLimit / buffers / stride) * stride}, so the
 * pool never holds more than the memory limit and every buffer holds whole records. Buffers are taken
 * by the source only and given back by whoever releases a chunk last.
 */
public final class ChunkPool {
    private final int buffers;
    private final int bufferSize;
    private final int stride;
    private final MpscArrayQueue<Chunk> free;
    private final AtomicInteger inUse = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final IdleStrategy idle = new BackoffIdleStrategy(64, 16, 1_000L, 1_000_000L);

    /**
     * @param memoryLimit total bytes the buffers may occupy
     * @param buffers number of buffers (n), at least 1
     * @param stride record length in bytes, at least 1
     * @throws IllegalArgumentException when a buffer could not hold even one record
     */
    public ChunkPool(long memoryLimit, int buffers, int stride) {
        if (buffers < 1) {
            throw new IllegalArgumentException("buffers must be >= 1, got " + buffers);
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be >= 1, got " + stride);
        }
        long perBuffer = memoryLimit / buffers / stride * stride;
        if (perBuffer < stride) {
            throw new IllegalArgumentException("memory limit " + memoryLimit + " is too small for " + buffers
                + " buffers of at least one " + stride + "-byte record each");
        }
        if (perBuffer > Integer.MAX_VALUE - 16) {
            perBuffer = (Integer.MAX_VALUE - 16) / stride * stride;
        }
        this.buffers = buffers;
        this.bufferSize = (int) perBuffer;
        this.stride = stride;
        this.free = new MpscArrayQueue<>(Math.max(2, buffers));
        for (int i = 0; i < buffers; i++) {
            free.offer(new Chunk(this, bufferSize, stride));
        }
    }

    /** @return the number of buffers (n) */
    public int buffers() {
        return buffers;
    }

    /** @return the size of each buffer in bytes, a multiple of the stride */
    public int bufferSize() {
        return bufferSize;
    }

    /** @return the record length */
    public int stride() {
        return stride;
    }

    /** @return bytes held by the buffers: {@code buffers() * bufferSize()}, never above the limit */
    public long allocatedBytes() {
        return (long) buffers * bufferSize;
    }

    /** @return buffers currently taken (between acquisition by the source and final release) */
    public int inUse() {
        return inUse.get();
    }

    /** @return the most buffers ever taken at once */
    public int peakInUse() {
        return peak.get();
    }

    /**
     * Takes a free buffer, waiting while none is free.
     *
     * @param cancelled checked while waiting; when it turns true this returns null
     */
    Chunk acquire(BooleanSupplier cancelled) {
        Chunk c = free.relaxedPoll();
        if (c == null) {
            idle.reset();
            while ((c = free.relaxedPoll()) == null) {
                if (cancelled.getAsBoolean()) {
                    return null;
                }
                idle.idle();
            }
        }
        int now = inUse.incrementAndGet();
        peak.accumulateAndGet(now, Math::max);
        return c;
    }

    void giveBack(Chunk c) {
        inUse.decrementAndGet();
        if (!free.offer(c)) {
            throw new IllegalStateException("chunk pool overflow: a foreign or duplicate chunk was released");
        }
    }

    @Override
    public String toString() {
        return "ChunkPool[" + buffers + " x " + bufferSize + " bytes, stride " + stride + ", in use " + inUse() + "]";
    }
}
