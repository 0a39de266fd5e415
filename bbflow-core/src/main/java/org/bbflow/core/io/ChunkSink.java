package org.bbflow.core.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * The writing end of an n-buffered stream: writes each {@link Chunk}'s valid bytes to one or more
 * targets (an {@link OutputStream}, a {@link WritableByteChannel} or a file) and then releases the
 * chunk, giving its buffer back to the source.
 *
 * <ul>
 *   <li>Unordered (default): chunks are written as they arrive (so a partial last record of the
 *       input, if any, may land mid-output).</li>
 *   <li>{@link #ordered()}: chunks are written in input order by {@link Chunk#sequence()}, whatever
 *       order they arrive in; early chunks wait in the sink (they are pool buffers, so this costs no
 *       extra memory). In ordered mode every chunk must reach the sink: a processing step that wants
 *       to drop a chunk's output sets its length to 0. A missing chunk is reported as an error instead
 *       of stalling the stream.</li>
 *   <li>{@link #filter(RecordFilter)}: only the records the filter keeps are written;
 *       {@link #alsoTo} adds further targets, each with its own filter (nbuf's separate output filter
 *       stream), so the full and the filtered output go to different places.</li>
 *   <li>{@link #none()}: output switched off; chunks are only released.</li>
 * </ul>
 *
 * Targets are flushed at end of stream and closed when the flow ends; a file target is created on
 * first write (or at the end, empty). Write errors fail the flow. Like any node, a sink may run again
 * in a later flow, from chunk #0 and with its counters at 0, writing its files afresh; one with a
 * stream or channel target (closed by its first flow) refuses to.
 */
public final class ChunkSink implements Node<Chunk, Void> {
    private final List<ByteOutput> outputs = new ArrayList<>(2);
    private final List<RecordFilter> filters = new ArrayList<>(2);
    private boolean ordered;
    private long next;
    private Chunk[] pending;
    private int pendingCount;
    private long chunksWritten;
    private long bytesWritten;
    /** The targets were closed by a flow's end; a later flow may run only if all of them reopen (files). */
    private boolean targetsClosed;

    private ChunkSink() {
    }

    /**
     * A sink writing to {@code out}.
     *
     * @param out the stream to write
     * @return the sink
     */
    public static ChunkSink to(OutputStream out) {
        Objects.requireNonNull(out, "out");
        return new ChunkSink().add(ByteOutput.of(out), null);
    }

    /**
     * A sink writing to a blocking channel.
     *
     * @param out the channel to write
     * @return the sink
     */
    public static ChunkSink to(WritableByteChannel out) {
        Objects.requireNonNull(out, "out");
        return new ChunkSink().add(ByteOutput.of(out), null);
    }

    /**
     * A sink writing to a file (created or truncated).
     *
     * @param file the file to write
     * @return the sink
     */
    public static ChunkSink to(Path file) {
        Objects.requireNonNull(file, "file");
        return new ChunkSink().add(ByteOutput.of(file), null);
    }

    /**
     * A sink that writes nothing and only releases the chunks (output switched off).
     *
     * @return the sink
     */
    public static ChunkSink none() {
        return new ChunkSink();
    }

    private ChunkSink add(ByteOutput out, RecordFilter filter) {
        outputs.add(out);
        filters.add(filter);
        return this;
    }

    /**
     * Writes chunks in input order.
     *
     * @return this sink
     */
    public ChunkSink ordered() {
        this.ordered = true;
        return this;
    }

    /**
     * Filters the records written to the first target.
     *
     * @param filter keeps the records to write
     * @return this sink
     */
    public ChunkSink filter(RecordFilter filter) {
        Objects.requireNonNull(filter, "filter");
        if (outputs.isEmpty()) {
            throw new IllegalStateException("a sink without targets has nothing to filter");
        }
        filters.set(0, filter);
        return this;
    }

    /**
     * Also writes to {@code out}, the records {@code filter} keeps (null: all).
     *
     * @param out another stream to write
     * @param filter keeps the records to write there, or null for all
     * @return this sink
     */
    public ChunkSink alsoTo(OutputStream out, RecordFilter filter) {
        return add(ByteOutput.of(Objects.requireNonNull(out, "out")), filter);
    }

    /**
     * Also writes to {@code out}, the records {@code filter} keeps (null: all).
     *
     * @param out another channel to write
     * @param filter keeps the records to write there, or null for all
     * @return this sink
     */
    public ChunkSink alsoTo(WritableByteChannel out, RecordFilter filter) {
        return add(ByteOutput.of(Objects.requireNonNull(out, "out")), filter);
    }

    /**
     * Also writes to {@code file}, the records {@code filter} keeps (null: all).
     *
     * @param file another file to write (created or truncated)
     * @param filter keeps the records to write there, or null for all
     * @return this sink
     */
    public ChunkSink alsoTo(Path file, RecordFilter filter) {
        return add(ByteOutput.of(Objects.requireNonNull(file, "file")), filter);
    }

    /** @return chunks written (or released, without targets) so far */
    public long chunksWritten() {
        return chunksWritten;
    }

    /** @return bytes written to the first target so far */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** A sink may run again in a later flow: it starts from chunk #0 and writes its files afresh. */
    @Override
    public void init(NodeContext context) {
        if (targetsClosed) {
            for (ByteOutput o : outputs) {
                if (!o.reopens()) {
                    throw new IllegalStateException("this chunk sink's stream or channel target was closed when its"
                        + " previous flow ended: a sink writing to a stream or channel runs once (a file sink may run again)");
                }
            }
            targetsClosed = false;
        }
        next = 0;
        pendingCount = 0;
        pending = null;
        chunksWritten = 0;
        bytesWritten = 0;
    }

    @Override
    public void onItem(Chunk chunk, Outbox<Void> out) throws IOException {
        if (!ordered) {
            writeAndRelease(chunk);
            return;
        }
        long seq = chunk.sequence();
        if (seq == next) {
            writeAndRelease(chunk);
            next++;
            if (pendingCount > 0) {
                drainPending();
            }
            return;
        }
        if (pending == null) {
            pending = new Chunk[chunk.pool().buffers()];
        }
        int n = pending.length;
        int slot = (int) (seq % n);
        if (seq < next || pending[slot] != null || pendingCount + 1 >= n) {
            // All buffers but one wait here, or two in-flight chunks are n apart: chunk #next is gone.
            chunk.release();
            throw missing(seq);
        }
        pending[slot] = chunk;
        pendingCount++;
    }

    private IllegalStateException missing(long seq) {
        return new IllegalStateException("ordered chunk sink: chunk #" + next + " never arrived (got #" + seq
            + "); in ordered output every chunk must reach the sink: set its length to 0 to write nothing");
    }

    private void drainPending() throws IOException {
        int n = pending.length;
        Chunk c;
        while (pendingCount > 0 && (c = pending[(int) (next % n)]) != null) {
            pending[(int) (next % n)] = null;
            pendingCount--;
            writeAndRelease(c);
            next++;
        }
    }

    private void writeAndRelease(Chunk c) throws IOException {
        try {
            for (int i = 0, k = outputs.size(); i < k; i++) {
                RecordFilter f = filters.get(i);
                if (f == null) {
                    if (c.length() > 0) {
                        outputs.get(i).write(c.array(), 0, c.length());
                    }
                    if (i == 0) {
                        bytesWritten += c.length();
                    }
                } else {
                    long w = writeFiltered(c, outputs.get(i), f);
                    if (i == 0) {
                        bytesWritten += w;
                    }
                }
            }
            chunksWritten++;
        } finally {
            c.release();
        }
    }

    private static long writeFiltered(Chunk c, ByteOutput out, RecordFilter f) throws IOException {
        byte[] a = c.array();
        int len = c.length();
        int stride = c.stride();
        int runStart = -1;
        long written = 0;
        for (int off = 0; off < len; off += stride) {
            int rl = Math.min(stride, len - off);
            if (f.keep(c, off, rl)) {
                if (runStart < 0) {
                    runStart = off;
                }
            } else if (runStart >= 0) {
                out.write(a, runStart, off - runStart);
                written += off - runStart;
                runStart = -1;
            }
        }
        if (runStart >= 0) {
            out.write(a, runStart, len - runStart);
            written += len - runStart;
        }
        return written;
    }

    @Override
    public void onEos(Outbox<Void> out) throws IOException {
        if (pendingCount > 0) {
            long first = Long.MAX_VALUE;
            for (Chunk c : pending) {
                if (c != null) {
                    first = Math.min(first, c.sequence());
                }
            }
            throw missing(first);
        }
        for (ByteOutput o : outputs) {
            o.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (pending != null) {
            for (int i = 0; i < pending.length; i++) {
                if (pending[i] != null) {
                    pending[i].release();
                    pending[i] = null;
                }
            }
            pendingCount = 0;
        }
        if (targetsClosed) {
            return;
        }
        targetsClosed = true;
        IOException first = null;
        for (ByteOutput o : outputs) {
            try {
                o.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String name() {
        return ordered ? "chunk-sink-ordered" : "chunk-sink";
    }
}
