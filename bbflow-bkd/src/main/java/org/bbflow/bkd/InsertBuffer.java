package org.bbflow.bkd;

/**
 * A private insert buffer (one per thread, or per {@link BkdWriter}). Points are encoded into flat
 * arrays; when the buffer is full (or flushed) it is bulk-loaded into a {@link KdTree} on the
 * inserting thread and published. No lock and no shared write per point: a point is stamped with
 * the current value of the global sequence (only deletes advance it).
 *
 * <p>The tombstone purge reads buffers of other threads without stopping them. Each insert writes
 * the point, marks its sequence {@link #UNKNOWN}, announces it in {@link #visible} (a volatile
 * write), and only then reads its sequence; so a purge that started after a delete sees every point
 * inserted before that delete, either with its sequence or as {@code UNKNOWN} (treated as older
 * than any tombstone). {@link #generation} is odd while the buffer is being flushed or released; a
 * purge whose read overlapped such a change does not trust what it read.
 *
 * <p>Heap: the arrays start at {@link #FIRST_CAPACITY} points and double as points arrive, up to
 * the buffer size, so a thread that refreshes every few points never holds a full buffer. A flush
 * bulk-loads the arrays in place and copies the points into the new tree's pages; a buffer that
 * filled keeps its arrays for the next points (streaming ingest allocates no new buffer), an
 * explicit flush ({@code refresh()}, {@code commit()}, a writer's flush) drops them, so a thread
 * that paused holds no buffer.
 */
final class InsertBuffer {
    /** Sequence of a point announced but not yet stamped: older than any tombstone. */
    static final long UNKNOWN = Long.MIN_VALUE;
    /** Points the arrays hold when first allocated (they double up to the buffer size). */
    static final int FIRST_CAPACITY = 64;

    private final BkdTree owner;
    private final int dims;
    private final int capacity;
    private final BulkLoader loader;
    volatile long[] coords;
    volatile long[] ids;
    volatile long[] seqs;
    private int size;
    /** Number of points a concurrent reader may look at ({@code [0, visible)}). */
    volatile int visible;
    /** Odd while a flush or release changes the arrays. */
    volatile int generation;
    /** Lower bound of the insert sequences held in this buffer, or {@code Long.MAX_VALUE} when empty. */
    volatile long minSeq = Long.MAX_VALUE;
    /** The thread owning a thread-local buffer (null for writer handles). */
    final Thread thread;

    InsertBuffer(BkdTree owner, int dims, int capacity, int leafSize, Thread thread) {
        this.owner = owner;
        this.thread = thread;
        this.dims = dims;
        this.capacity = capacity;
        this.loader = new BulkLoader(dims, leafSize, owner.pageShift);
    }

    void insert(double[] point, long id) {
        owner.checkOpen();
        if (size == capacity) {
            // the flush of the insert that filled the buffer failed (it kept the points): retry it
            // first; before, this insert wrote past the full arrays (ArrayIndexOutOfBoundsException)
            flush(true, true);
        }
        long[] c = coords;
        int n = size;
        if (c == null || n * dims == c.length) {
            grow();
            c = coords;
        }
        Coordinates.encodePoint(point, dims, c, n * dims);
        long[] s = seqs;
        ids[n] = id;
        s[n] = UNKNOWN;
        if (n == 0) {
            minSeq = owner.sequence.get();
        }
        visible = n + 1;                     // announce before reading the sequence (see class comment)
        s[n] = owner.sequence.get();
        size = n + 1;
        if (n + 1 == capacity) {
            flush(true, true);
        }
    }

    /** Allocates the arrays, or doubles them (up to the buffer size) keeping the points. */
    private void grow() {
        int cap = coords == null ? Math.min(capacity, FIRST_CAPACITY) : Math.min(capacity, 2 * ids.length);
        generation++;                        // odd: a concurrent purge stops trusting these arrays
        try {
            long[] c = new long[cap * dims];
            long[] i = new long[cap];
            long[] s = new long[cap];
            if (size > 0) {
                System.arraycopy(coords, 0, c, 0, size * dims);
                System.arraycopy(ids, 0, i, 0, size);
                System.arraycopy(seqs, 0, s, 0, size);
            }
            coords = c;
            ids = i;
            seqs = s;
        } finally {
            generation++;
        }
    }

    int size() {
        return size;
    }

    /** Bytes of this buffer's arrays (0 when it holds none). */
    long bytes() {
        long[] c = coords;
        long[] i = ids;
        long[] s = seqs;
        return (c == null ? 0 : 16L + 8L * c.length) + (i == null ? 0 : 16L + 8L * i.length)
                + (s == null ? 0 : 16L + 8L * s.length);
    }

    /** Bulk-loads and publishes the buffered points, then drops the arrays (a paused thread holds none). */
    void flush() {
        flush(true, false);
    }

    /**
     * Bulk-loads and publishes the buffered points and drops the arrays. {@code mayWait} false:
     * queue the merge ticket only if there is room (used by the scheduler thread for buffers of
     * terminated threads).
     */
    void flush(boolean mayWait) {
        flush(mayWait, false);
    }

    /**
     * Bulk-loads the buffered points in place, copies them into a new tree and publishes it;
     * {@code keepArrays}: keep the arrays for the next points (the buffer filled: ingest goes on).
     */
    private void flush(boolean mayWait, boolean keepArrays) {
        if (size == 0) {
            if (!keepArrays) {
                release();
            }
            return;
        }
        generation++;                        // odd: concurrent purges stop trusting these arrays
        KdTree tree = null;
        try {
            long bound = owner.filterBound();
            int n = owner.dropDead(coords, ids, seqs, size);
            // dropDead compacted the live points to the front (the slots behind them may hold copies):
            // the buffer holds exactly those now, so a flush that fails below (an OutOfMemoryError in
            // the bulk-load, a publish refused by close()) leaves it whole for a retry. Before, size
            // still covered the copies, and a retried flush published them twice.
            owner.insertedPoints.addAndGet(size - n);       // dropped as already deleted
            size = n;
            visible = n;
            if (n > 0) {
                Runnable hook = owner.bulkLoadHook;
                if (hook != null) {
                    hook.run();
                }
                tree = loader.build(coords, ids, seqs, n, owner.levelOf(n));
                tree.filteredUpTo = bound;
                owner.publish(tree);
                owner.insertedPoints.addAndGet(n);
            }
            size = 0;
            visible = 0;
            minSeq = Long.MAX_VALUE;
            if (!keepArrays) {
                coords = null;
                ids = null;
                seqs = null;
            }
        } finally {
            generation++;
        }
        if (tree != null) {
            owner.afterPublish(mayWait);
        }
    }

    /** Drops the buffered points and the arrays (the owner is closing, the writer is done, or an empty flush). */
    void release() {
        generation++;
        try {
            coords = null;
            ids = null;
            seqs = null;
            size = 0;
            visible = 0;
            minSeq = Long.MAX_VALUE;
        } finally {
            generation++;
        }
    }
}
