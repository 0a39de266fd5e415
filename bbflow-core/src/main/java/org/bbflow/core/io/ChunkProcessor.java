package org.bbflow.core.io;

/**
 * The user's per-chunk work in an {@link NBufJob} (nbuf's processing method). One instance per
 * worker, never shared between threads, so it may keep plain fields as its accumulator.
 *
 * <ul>
 *   <li>Transformed data: change the chunk's bytes in place (and its length with
 *       {@link Chunk#length(int)}); the sink writes what the chunk holds afterwards.</li>
 *   <li>Stream-wide results: accumulate in the instance and return the total from {@link #result()};
 *       the job merges the workers' results at the end.</li>
 * </ul>
 *
 * @param <A> the accumulated result type ({@code Void} if none)
 */
public interface ChunkProcessor<A> {
    /**
     * Processes one chunk; do not release it (the job's sink does).
     *
     * @param chunk the chunk to process
     * @throws Exception to fail the job
     */
    void process(Chunk chunk) throws Exception;

    /**
     * This worker's accumulated result, asked once after its last chunk; null for none.
     *
     * @return the result, or null
     */
    default A result() {
        return null;
    }
}
