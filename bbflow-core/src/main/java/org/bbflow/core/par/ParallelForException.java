package org.bbflow.core.par;

/**
 * A loop body of a {@link ParallelFor} threw: the call that ran the loop throws this, with the
 * body's exception as the cause and the index it failed at. The first failure stops the loop (no
 * worker starts another chunk); failures of other workers meanwhile are suppressed exceptions of
 * the cause.
 */
public final class ParallelForException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The index whose iteration threw. */
    private final long index;
    /** The first index of the failing chunk. */
    private final long chunkFirst;
    /** The last index of the failing chunk. */
    private final long chunkLast;
    /** The worker that ran the failing chunk. */
    private final int worker;

    ParallelForException(Throwable cause, long index, long chunkFirst, long chunkLast, long step, int worker) {
        super("parallel loop body failed at index " + index + " (chunk of indices " + chunkFirst + ".." + chunkLast
                + " by step " + step + ", worker " + worker + "): " + cause, cause);
        this.index = index;
        this.chunkFirst = chunkFirst;
        this.chunkLast = chunkLast;
        this.worker = worker;
    }

    /**
     * The index whose iteration threw (for a chunk body: the chunk's first index).
     *
     * @return the failing index
     */
    public long index() {
        return index;
    }

    /**
     * The first index of the chunk that failed.
     *
     * @return the chunk's first index
     */
    public long chunkFirst() {
        return chunkFirst;
    }

    /**
     * The last index of the chunk that failed (included).
     *
     * @return the chunk's last index
     */
    public long chunkLast() {
        return chunkLast;
    }

    /**
     * The worker that ran the failing chunk (0 is the calling thread).
     *
     * @return the worker index
     */
    public int worker() {
        return worker;
    }
}
