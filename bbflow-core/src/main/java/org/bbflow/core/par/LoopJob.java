package org.bbflow.core.par;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A parallel loop: the iteration space {@code first, first + step, ...} (excluding {@code last}),
 * numbered 0..n-1 and cut into chunks by the {@link Schedule}. Subclasses run a chunk of iteration
 * numbers with their kind of body; this class hands chunks out and records the first failure.
 *
 * <p>Each kind of body has its own subclass with its own copy of the inner loop (LongLoop, IntLoop,
 * WorkerLoop, the three reductions), on purpose: one loop shared through an interface would make
 * the body's call site megamorphic in a program with several kinds of loop, and a shared
 * accumulator type would box.
 *
 * <p>Iteration numbers, not indices, are what is counted and claimed, so a range that ends at
 * {@code Long.MAX_VALUE} or {@code Long.MIN_VALUE}, or a negative step, never overflows a counter:
 * index = first + k * step is computed per chunk, and its true value always fits a long.
 */
abstract class LoopJob extends PoolJob {
    /** Iterations run between two checks for a stop (a failure elsewhere, or cancellation). */
    static final int CHECK_EVERY = 4096;

    final long first;
    final long step;
    /** Number of iterations. */
    final long n;
    private final Schedule.Kind kind;
    private final long grain;
    private final int workers;
    /** Static and dynamic chunks: how many chunks of {@link #grain} iterations (the last may be shorter). */
    private final long chunks;
    /**
     * Dynamic scheduling: the next chunk number to hand out. Chunks, not iterations, are counted:
     * every participant takes one number past the last chunk before it stops, and a counter of
     * iterations moved by a huge grain that many times wrapped round to valid numbers again (chunks
     * run twice).
     */
    private final AtomicLong next;

    private Throwable failure;
    private long failedIndex;
    private long failedChunkFirst;
    private long failedChunkLast;
    private int failedWorker;

    LoopJob(long first, long last, long step, Schedule schedule, int parallelism) {
        this.first = first;
        this.step = step;
        this.n = iterations(first, last, step);
        this.kind = schedule.kind();
        this.grain = schedule.grain();
        long most = schedule.workers() == 0 ? parallelism : Math.min(schedule.workers(), parallelism);
        // a chunked loop never needs more participants than chunks, static blocks than iterations
        this.chunks = kind == Schedule.Kind.STATIC_BLOCKS ? 0 : n / grain + (n % grain == 0 ? 0 : 1);
        most = Math.min(most, kind == Schedule.Kind.STATIC_BLOCKS ? n : chunks);
        this.workers = (int) Math.max(1, most);
        this.next = kind == Schedule.Kind.DYNAMIC ? new AtomicLong() : null;
    }

    /**
     * The number of iterations of {@code for (i = first; step > 0 ? i < last : i > last; i += step)}.
     *
     * @throws IllegalArgumentException if step is 0 or there are more than Long.MAX_VALUE iterations
     */
    static long iterations(long first, long last, long step) {
        if (step == 0) {
            throw new IllegalArgumentException("step must not be 0");
        }
        long distance;
        long stride;
        if (step > 0) {
            if (last <= first) {
                return 0;
            }
            distance = last - first; // as unsigned: the true difference is below 2^64
            stride = step;
        } else {
            if (last >= first) {
                return 0;
            }
            distance = first - last;
            stride = -step; // -Long.MIN_VALUE is 2^63 as unsigned
        }
        long count = Long.divideUnsigned(distance, stride) + (Long.remainderUnsigned(distance, stride) == 0 ? 0 : 1);
        if (count < 0) {
            throw new IllegalArgumentException("the range " + first + " to " + last + " by " + step
                    + " has more than Long.MAX_VALUE iterations");
        }
        return count;
    }

    @Override
    final int workers() {
        return workers;
    }

    /** The index of iteration number k. */
    final long index(long k) {
        return first + k * step;
    }

    @Override
    final void participate(int slot, int worker) {
        switch (kind) {
            case STATIC_BLOCKS: {
                // a block not started when the loop stopped is not started: a pool thread slow to
                // wake, or the caller taking such a thread's block over after its own block failed or
                // was cancelled (a chunk body would otherwise run the whole block)
                if (halted()) {
                    return;
                }
                long base = n / workers;
                long extra = n % workers;
                long from = slot * base + Math.min(slot, extra);
                run(slot, from, from + base + (slot < extra ? 1 : 0), worker);
                return;
            }
            case STATIC_CHUNKS: {
                for (long c = slot; c < chunks && !halted(); c += workers) {
                    long from = c * grain;
                    long to = c == chunks - 1 ? n : from + grain;
                    if (!run(slot, from, to, worker) || chunks - c <= workers) {
                        return;
                    }
                }
                return;
            }
            default: {
                AtomicLong counter = next;
                while (!halted()) {
                    long c = counter.getAndIncrement();
                    if (c >= chunks || c < 0) { // < 0: the counter went past Long.MAX_VALUE
                        return;
                    }
                    long from = c * grain;
                    if (!run(slot, from, c == chunks - 1 ? n : from + grain, worker)) {
                        return;
                    }
                }
            }
        }
    }

    /**
     * Runs the chunk of iteration numbers from..to-1, in pieces of at most {@link #CHECK_EVERY}
     * iterations with a check for a stop between them.
     *
     * @return false if the loop stopped (this body failed, another did, or the caller was interrupted)
     */
    boolean run(int slot, long from, long to, int worker) {
        while (from < to) {
            int len = to - from > CHECK_EVERY ? CHECK_EVERY : (int) (to - from);
            if (!piece(slot, from, len, worker)) {
                return false;
            }
            from += len;
            if (from < to && halted()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs iterations from..from+len-1 (numbers, not indices) with the body.
     *
     * @return false if the body failed (the failure is recorded with {@link #fail})
     */
    abstract boolean piece(int slot, long from, int len, int worker);

    /** Records a failure of the body at iteration number k of the chunk from..to-1, and stops the loop. */
    final void fail(Throwable t, long k, long from, long to, int worker) {
        if (cancelledByCaller(t)) {
            return;
        }
        synchronized (this) {
            if (failure == null) {
                failure = t;
                failedIndex = index(k);
                failedChunkFirst = index(from);
                failedChunkLast = index(to - 1);
                failedWorker = worker;
            } else if (failure != t) {
                failure.addSuppressed(t);
            }
        }
        stop = true;
    }

    @Override
    final RuntimeException outcome() {
        synchronized (this) {
            if (failure != null) {
                return new ParallelForException(failure, failedIndex, failedChunkFirst, failedChunkLast, step, failedWorker);
            }
        }
        if (cancelled) {
            return new CancellationException("parallel loop cancelled: the calling thread was interrupted");
        }
        if (abandoned) {
            return abandonedOutcome();
        }
        return null;
    }
}
