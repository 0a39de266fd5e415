package org.bbflow.bkd;

/**
 * A repeatable point-in-time view of a {@link BkdTree}: every query on a snapshot sees the trees
 * published and the deletes completed before it was opened, and nothing later. While open it keeps
 * the trees it can see from being reclaimed, and the tombstones of the deletes before it from being
 * purged (not those of later deletes), so close it promptly (try-with-resources). Not
 * thread-safe to close concurrently with its own queries; queries from several threads are fine.
 */
public final class Snapshot implements AutoCloseable {
    private final BkdTree owner;
    private final ReaderSlot slot;
    private final Forest forest;
    private final long limit;
    private volatile boolean closed;

    Snapshot(BkdTree owner) {
        this.owner = owner;
        this.slot = owner.reclaimer.register(null);
        this.forest = owner.pin(slot);
        this.limit = owner.sequence.get();
        slot.limit = limit;     // tombstones above it are of no use to this snapshot: their purge need not wait for it
        owner.tombstones.awaitDeletesUpTo(limit);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Snapshot is closed");
        }
        owner.checkOpen();
    }

    /**
     * Number of live points in {@code box} as of this snapshot.
     *
     * @param box the query box
     * @return the number of live points in it
     */
    public long count(Box box) {
        checkOpen();
        return owner.run(forest, box, null, limit);
    }

    /**
     * Visits the live points in {@code box} as of this snapshot; returns their number.
     *
     * @param box the query box
     * @param visitor called once per point
     * @return the number of points visited
     */
    public long query(Box box, PointVisitor visitor) {
        checkOpen();
        if (visitor == null) {
            throw new IllegalArgumentException("visitor must not be null");
        }
        return owner.run(forest, box, visitor, limit);
    }

    /**
     * Whether the point with this id was live at {@code point} as of this snapshot.
     *
     * @param point the coordinates, one per dimension
     * @param id the point's id
     * @return whether such a live point existed
     */
    public boolean contains(double[] point, long id) {
        checkOpen();
        return owner.lookup(forest, point, id, limit);
    }

    /**
     * Forest version this snapshot reads (grows by one per published change).
     *
     * @return the forest version
     */
    public long version() {
        return forest.version;
    }

    /** Releases the snapshot; trees only it could see become reclaimable. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            owner.reclaimer.unregister(slot);
        }
    }
}
