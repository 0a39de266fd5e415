package org.bbflow.bkd;

/**
 * A per-writer insert handle with its own private buffer: an alternative to the thread-local
 * buffer behind {@link BkdTree#insert}. Use from one thread at a time. {@link #flush()} publishes
 * the buffered points (read-your-writes); {@link #close()} flushes and releases the buffer.
 */
public final class BkdWriter implements AutoCloseable {
    private final BkdTree owner;
    private final InsertBuffer buffer;
    private boolean closed;

    BkdWriter(BkdTree owner, InsertBuffer buffer) {
        this.owner = owner;
        this.buffer = buffer;
    }

    /**
     * Buffers one point; it becomes visible when the buffer fills or on {@link #flush()}.
     *
     * @param point the coordinates, one per dimension
     * @param id the point's id
     * @throws IllegalArgumentException on a wrong dimension count or a NaN coordinate
     * @throws IllegalStateException if this writer or the index is closed
     */
    public void insert(double[] point, long id) {
        if (closed) {
            throw new IllegalStateException("BkdWriter is closed");
        }
        buffer.insert(point, id);
    }

    /**
     * Number of points buffered and not yet visible.
     *
     * @return the number of buffered points
     */
    public int buffered() {
        return buffer.size();
    }

    /** Publishes the buffered points now; afterwards every query sees them. */
    public void flush() {
        if (closed) {
            throw new IllegalStateException("BkdWriter is closed");
        }
        owner.checkOpen();
        buffer.flush();
    }

    /**
     * Flushes (if the index is still open) and releases the buffer; idempotent. If the index closes
     * while this flushes, the points are discarded as for a closed index (no exception).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!owner.isClosed()) {
                try {
                    buffer.flush();
                } catch (IllegalStateException e) {
                    if (!owner.isClosed()) {
                        throw e;
                    }
                    // the index closed meanwhile: the points are discarded, as with a closed index
                }
            }
        } finally {
            owner.unregister(buffer);
            buffer.release();
        }
    }
}
