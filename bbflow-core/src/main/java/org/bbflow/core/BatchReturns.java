package org.bbflow.core;

import java.util.concurrent.atomic.AtomicInteger;
import org.jctools.queues.SpscArrayQueue;

/**
 * The way back for the batches ({@link LongBatch}, {@link DoubleBatch}) of one edge between two
 * {@linkplain BatchStage batch stages}: the consumer gives a batch back once it has read it, the
 * producer fills it again instead of making a new one. A stream of longs then allocates a few
 * channels' worth of batches instead of 2 KiB per 256 values, which on a fresh heap is mostly page
 * faults (measured: see docs/core.md, "Unboxed longs and doubles", and bench-results/recycle/).
 *
 * <p>A single-producer single-consumer queue with the roles swapped: the consumer's {@code offer} (a
 * release) follows its last read of the batch, the producer's {@code poll} (an acquire) precedes its
 * first write to it, so no read of a batch can see a later fill. A full queue drops the batch (the
 * GC takes it); an empty one makes the producer look in the {@link BatchPool}, then allocate. Which
 * edges get one is {@link BatchStage#recycle}'s decision.
 *
 * <p>When both ends have {@linkplain #close closed}, in whatever order a flow's end or cancellation
 * brings, the second hands what is left to the {@link BatchPool}: by then neither end will touch the
 * queue again, and the counter's read-modify-write orders their last use before the hand-over.
 */
final class BatchReturns {
    private final SpscArrayQueue<Object> queue;
    /** Where what is left goes once both ends have closed, and where the producer looks when this is empty. */
    final BatchPool pool;
    /** The ends still open: the producer's and the consumer's. */
    private final AtomicInteger open = new AtomicInteger(2);

    /**
     * @param capacity the most batches held (a channel's worth: more would never be taken)
     * @param pool the pool of the flow being started (read once, at its start)
     */
    BatchReturns(int capacity, BatchPool pool) {
        queue = new SpscArrayQueue<>(Math.max(2, capacity));
        this.pool = pool;
    }

    /** A batch given back, or null. Called by the producer only. */
    Object poll() {
        return queue.relaxedPoll();
    }

    /** Gives back a batch the consumer has finished reading. Called by the consumer only. */
    void give(Object batch) {
        queue.relaxedOffer(batch);
    }

    /**
     * One end will use this way back no more (each end calls this once, after its last poll or give);
     * the second to call it gives what is left to the pool.
     */
    void close() {
        if (open.decrementAndGet() == 0) {
            pool.keep(this);
        }
    }
}
