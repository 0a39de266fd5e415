package org.bbflow.core.par;

/**
 * The body of a loop that is told which worker runs each iteration (FastFlow's
 * {@code parallel_for_thid}): worker 0 is the calling thread, 1..parallelism-1 the pool's threads, so
 * an array of per-worker state indexed by it needs no locking.
 */
@FunctionalInterface
public interface WorkerBody {
    /**
     * Runs one iteration.
     *
     * @param index the iteration's index
     * @param worker the worker running it, in {@code [0, pool.parallelism())}
     */
    void accept(long index, int worker);
}
