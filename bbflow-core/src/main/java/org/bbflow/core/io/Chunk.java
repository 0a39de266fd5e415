package org.bbflow.core.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One pooled buffer of an n-buffered stream, holding whole records of the stream's stride (only the
 * last chunk of a stream whose length is not a multiple of the stride ends with a partial record).
 * Chunks are numbered in input order ({@link #sequence()}), so an ordered sink can restore that order.
 *
 * <p>Ownership: a chunk travels through the flow by reference. Whoever consumes it last calls
 * {@link #release()}, which returns the buffer to its {@link ChunkPool}; the {@link ChunkSink} does
 * that after writing. A node that hands the same chunk to several consumers first calls
 * {@link #retain(int)}. A processing step may change the bytes in place and shrink or grow the valid
 * length up to {@link #capacity()} with {@link #length(int)}.
 */
public final class Chunk {
    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(Chunk.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ChunkPool pool;
    private final byte[] array;
    private final ByteBuffer view;
    private final int stride;
    private int length;
    private long sequence;
    private long offset;
    @SuppressWarnings("unused") // accessed through REFS
    private volatile int refs;

    Chunk(ChunkPool pool, int capacity, int stride) {
        this.pool = pool;
        this.array = new byte[capacity];
        this.view = ByteBuffer.wrap(array);
        this.stride = stride;
    }

    /** Prepares a free chunk for reuse by the source (single owner, so plain writes suffice). */
    void reset(long sequence, long offset) {
        this.sequence = sequence;
        this.offset = offset;
        this.length = 0;
        REFS.setRelease(this, 1);
    }

    /** @return the position of this chunk in the input, 0 for the first */
    public long sequence() {
        return sequence;
    }

    /** @return the offset of this chunk's first byte in the input stream */
    public long offset() {
        return offset;
    }

    /** @return the number of valid bytes */
    public int length() {
        return length;
    }

    /**
     * Sets the number of valid bytes, e.g. after a transformation that shrinks the data; 0 keeps the
     * chunk in the stream (and its order) but writes nothing.
     *
     * @param newLength the number of valid bytes, from 0 to the buffer's size
     */
    public void length(int newLength) {
        if (newLength < 0 || newLength > array.length) {
            throw new IllegalArgumentException("length must be in [0, " + array.length + "], got " + newLength);
        }
        this.length = newLength;
    }

    /** @return the record length in bytes */
    public int stride() {
        return stride;
    }

    /** @return the number of whole records in the valid bytes */
    public int records() {
        return length / stride;
    }

    /** @return the buffer size */
    public int capacity() {
        return array.length;
    }

    /** @return the backing array; valid bytes are {@code [0, length())} */
    public byte[] array() {
        return array;
    }

    /**
     * @return a view of the valid bytes: position 0, limit {@link #length()}; the same view object is
     *         returned each time (its position and limit are reset), so do not keep it past
     *         {@link #release()}, and use {@link #array()} instead when several threads hold the
     *         chunk at once (after {@link #retain(int)})
     */
    public ByteBuffer data() {
        view.clear().limit(length);
        return view;
    }

    /** @return the pool this chunk belongs to */
    public ChunkPool pool() {
        return pool;
    }

    /**
     * Adds {@code count} references, for a chunk handed to {@code count} more consumers.
     *
     * @param count how many more references, at least 1
     */
    public void retain(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        int r;
        do {
            r = (int) REFS.getVolatile(this);
            if (r <= 0) {
                throw new IllegalStateException("chunk #" + sequence + " was already released");
            }
        } while (!REFS.compareAndSet(this, r, r + count));
    }

    /**
     * Drops one reference; the last one returns the buffer to the pool.
     *
     * @throws IllegalStateException if the chunk was already released by all its holders
     */
    public void release() {
        int r = (int) REFS.getAndAdd(this, -1);
        if (r == 1) {
            pool.giveBack(this);
        } else if (r <= 0) {
            REFS.getAndAdd(this, 1);
            throw new IllegalStateException("chunk #" + sequence + " released more often than retained");
        }
    }

    @Override
    public String toString() {
        return "Chunk#" + sequence + "[offset " + offset + ", " + length + " bytes]";
    }
}
