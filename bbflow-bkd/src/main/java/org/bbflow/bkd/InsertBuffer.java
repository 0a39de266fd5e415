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
 */
final class InsertBuffer {
    /** Sequence of a point announced but not yet stamped: older than any tombstone. */
    static final long UNKNOWN = Long.MIN_VALUE;

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
        this.loader = new BulkLoader(dims, leafSize);
    }

    void insert(double[] point, long id) {
        owner.checkOpen();
        long[] c = coords;
        if (c == null) {
            allocate();
            c = coords;
        }
        int n = size;
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
            flush();
        }
    }

    private void allocate() {
        ids = owner.pool.take(capacity);
        seqs = owner.pool.take(capacity);
        coords = owner.pool.take(capacity * dims);
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

    /** Bulk-loads and publishes the buffered points (no-op when empty). */
    void flush() {
        flush(true);
    }

    /**
     * Bulk-loads and publishes the buffered points. {@code mayWait} false: queue the merge ticket
     * only if there is room (used by the scheduler thread for buffers of terminated threads).
     */
    void flush(boolean mayWait) {
        if (size == 0) {
            return;
        }
        generation++;                        // odd: concurrent purges stop trusting these arrays
        KdTree tree = null;
        try {
            owner.insertedPoints.addAndGet(size);
            long bound = owner.filterBound();
            int n = owner.dropDead(coords, ids, seqs, size);
            if (n > 0) {
                long[] c;
                long[] i;
                long[] s;
                if (n == capacity) {            // exact size: the tree takes the buffer's arrays
                    c = coords;
                    i = ids;
                    s = seqs;
                    coords = null;
                    ids = null;
                    seqs = null;
                } else {
                    c = owner.pool.take(n * dims);
                    i = owner.pool.take(n);
                    s = owner.pool.take(n);
                    System.arraycopy(coords, 0, c, 0, n * dims);
                    System.arraycopy(ids, 0, i, 0, n);
                    System.arraycopy(seqs, 0, s, 0, n);
                }
                if (coords != null) {            // a partial flush: an idle writer holds no arrays
                    owner.pool.give(coords);
                    owner.pool.give(ids);
                    owner.pool.give(seqs);
                    coords = null;
                    ids = null;
                    seqs = null;
                }
                tree = loader.build(c, i, s, n, owner.levelOf(n), owner.pool);
                tree.filteredUpTo = bound;
                owner.publish(tree);
            }
            size = 0;
            visible = 0;
            minSeq = Long.MAX_VALUE;
        } finally {
            generation++;
        }
        if (tree != null) {
            owner.afterPublish(mayWait);
        }
    }

    /** Returns the buffer arrays to the pool (the owner is closing or the writer is done). */
    void release() {
        generation++;
        try {
            if (coords != null) {
                owner.pool.give(coords);
                owner.pool.give(ids);
                owner.pool.give(seqs);
                coords = null;
                ids = null;
                seqs = null;
            }
            size = 0;
            visible = 0;
            minSeq = Long.MAX_VALUE;
        } finally {
            generation++;
        }
    }
}
