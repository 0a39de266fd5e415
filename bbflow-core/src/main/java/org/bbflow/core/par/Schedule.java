package org.bbflow.core.par;

/**
 * How a {@link ParallelFor} loop's iterations are shared among workers, and by how many (FastFlow's
 * {@code chunk} and {@code nw} arguments). Immutable.
 *
 * <ul>
 *   <li>{@link #staticBlocks()} (the default; FastFlow's {@code chunk == 0}): each worker gets one
 *       contiguous block of about n / workers iterations, decided before the loop starts. Least
 *       overhead; best when iterations cost the same.</li>
 *   <li>{@link #staticChunks(long)} (FastFlow's {@code chunk < 0}, {@code parallel_for_static}):
 *       chunks of {@code grain} iterations dealt round-robin to the workers before the loop
 *       starts.</li>
 *   <li>{@link #dynamic(long)} (FastFlow's {@code chunk > 0}): chunks of {@code grain} iterations
 *       handed out while the loop runs, each to the first worker that is free. Balances uneven
 *       iterations; costs one atomic operation per chunk.</li>
 * </ul>
 *
 * {@link #onWorkers(int)} runs a loop on fewer workers than the pool has. No loop uses more workers
 * than it has chunks (static blocks: iterations).
 */
public final class Schedule {
    enum Kind { STATIC_BLOCKS, STATIC_CHUNKS, DYNAMIC }

    private static final Schedule STATIC_BLOCKS = new Schedule(Kind.STATIC_BLOCKS, 1, 0);

    private final Kind kind;
    private final long grain;
    private final int workers;

    private Schedule(Kind kind, long grain, int workers) {
        this.kind = kind;
        this.grain = grain;
        this.workers = workers;
    }

    /**
     * One contiguous block per worker, decided before the loop starts.
     *
     * @return the schedule
     */
    public static Schedule staticBlocks() {
        return STATIC_BLOCKS;
    }

    /**
     * Chunks of {@code grain} iterations dealt round-robin to the workers before the loop starts.
     *
     * @param grain iterations per chunk, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if grain &lt; 1
     */
    public static Schedule staticChunks(long grain) {
        return new Schedule(Kind.STATIC_CHUNKS, checkGrain(grain), 0);
    }

    /**
     * Chunks of {@code grain} iterations handed to whichever worker is free, while the loop runs.
     *
     * @param grain iterations per chunk, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if grain &lt; 1
     */
    public static Schedule dynamic(long grain) {
        return new Schedule(Kind.DYNAMIC, checkGrain(grain), 0);
    }

    /**
     * This schedule on at most {@code workers} workers (the calling thread counts as one). A number
     * above the pool's parallelism means the whole pool, as FastFlow downsizes it.
     *
     * @param workers how many workers may run the loop, at least 1
     * @return the new schedule
     * @throws IllegalArgumentException if workers &lt; 1
     */
    public Schedule onWorkers(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("a loop needs at least 1 worker, got " + workers);
        }
        return new Schedule(kind, grain, workers);
    }

    private static long checkGrain(long grain) {
        if (grain < 1) {
            throw new IllegalArgumentException("grain must be at least 1 iteration, got " + grain);
        }
        return grain;
    }

    Kind kind() {
        return kind;
    }

    /**
     * Iterations per chunk (1 for {@link #staticBlocks()}, whose blocks are sized by the loop).
     *
     * @return the grain
     */
    public long grain() {
        return grain;
    }

    /**
     * The most workers a loop may use, or 0 for all the pool's.
     *
     * @return the worker limit, or 0
     */
    public int workers() {
        return workers;
    }

    @Override
    public String toString() {
        String k = kind == Kind.STATIC_BLOCKS ? "staticBlocks()"
                : (kind == Kind.STATIC_CHUNKS ? "staticChunks(" : "dynamic(") + grain + ")";
        return workers == 0 ? k : k + ".onWorkers(" + workers + ")";
    }
}
