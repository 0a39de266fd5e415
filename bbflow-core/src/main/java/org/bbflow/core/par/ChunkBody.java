package org.bbflow.core.par;

/**
 * The body of a loop that receives whole chunks and walks them itself (FastFlow's
 * {@code parallel_for_idx}): useful when per-chunk set-up pays, or to vectorise a plain inner loop.
 */
@FunctionalInterface
public interface ChunkBody {
    /**
     * Runs one chunk: the indices {@code start, start + step, ...} up to {@code end}, excluded.
     *
     * @param start the chunk's first index
     * @param end the index after the chunk's last one ({@code start + count * step})
     * @param worker the worker running it, in {@code [0, pool.parallelism())}
     */
    void accept(long start, long end, int worker);
}
