package org.bbflow.bkd;

/**
 * A private insert buffer (one per thread, or per {@link BkdWriter}). Points are encoded into flat
 * arrays; when the buffer is full (or flushed) it is bulk-loaded into a {@link KdTree} on the
 * inserting thread and published. No lock and no shared write per point: a point is stamped with
 * the current value of the global sequence (only deletes advance it), and {@link #minSeq}, written
 * once per buffer, tells the tombstone purge that older points may still be buffered.
 */
final class InsertBuffer {
    private final BkdTree owner;
    private final int dims;
    private final int capacity;
    private final BulkLoader loader;
    private long[] coords;
    private long[] ids;
    private long[] seqs;
    private int size;
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
        if (coords == null) {
            allocate();
        }
        Coordinates.encodePoint(point, dims, coords, size * dims);
        if (size == 0) {
            // announce a lower bound before reading the point's sequence (see Tombstones)
            minSeq = owner.sequence.get();
        }
        ids[size] = id;
        seqs[size] = owner.sequence.get();
        if (++size == capacity) {
            flush();
        }
    }

    private void allocate() {
        coords = owner.pool.take(capacity * dims);
        ids = owner.pool.take(capacity);
        seqs = owner.pool.take(capacity);
    }

    int size() {
        return size;
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
        owner.insertedPoints.addAndGet(size);
        int n = owner.dropDead(coords, ids, seqs, size);
        KdTree tree = null;
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
            tree = loader.build(c, i, s, n, owner.levelOf(n));
            owner.publish(tree);
        }
        size = 0;
        minSeq = Long.MAX_VALUE;
        if (tree != null) {
            owner.afterPublish(mayWait);
        }
    }

    /** Returns the buffer arrays to the pool (the owner is closing or the writer is done). */
    void release() {
        if (coords != null) {
            owner.pool.give(coords);
            owner.pool.give(ids);
            owner.pool.give(seqs);
            coords = null;
            ids = null;
            seqs = null;
        }
        size = 0;
        minSeq = Long.MAX_VALUE;
    }
}
