package org.bbflow.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Source;

/**
 * The reading end of an n-buffered stream (nbuf): reads an {@link InputStream}, a
 * {@link ReadableByteChannel} or a file into the buffers of a {@link ChunkPool} and emits them as
 * {@link Chunk}s holding whole records, in input order. It reads the next chunk while downstream
 * nodes process the previous ones, and waits for a free buffer when all {@code n} are in use, so the
 * memory of the stream never exceeds the pool's limit.
 *
 * <p>Every chunk but the last is filled completely (a multiple of the stride); the last one holds the
 * rest, ending with a partial record when the input length is not a multiple of the stride. An
 * empty input emits no chunk. A read error fails the flow; the input is closed when the flow ends,
 * so a source runs in one flow only (a later flow fails at its start, saying so).
 *
 * <p>A cancelled flow does not wait for a read that blocks: the source owns its input and closes it to
 * wake the read. An interruptible channel (a file, pipe or socket channel) closes itself when the
 * flow interrupts the source's thread; a plain {@link java.io.FileInputStream} (a file, a named pipe)
 * is read through its channel for that reason; any other stream is closed by the cancelling thread,
 * which wakes a read whose stream's close does (a socket's stream does). What cannot be woken: a
 * stream that wraps a {@code FileInputStream} of a pipe, such as {@code System.in} or a process's
 * output ({@link Process#getInputStream()}): on Linux closing it does not end a read in progress, so
 * a cancelled flow waits until data or the end of input arrives. Give such a source the
 * {@code FileInputStream} itself, or a channel ({@code FileChannel.open} of a named pipe).
 */
public final class ChunkSource implements Source<Chunk> {
    /** The file {@link #of(Path, long, int, int)} reads, opened by {@link #init}; null for a stream or channel. */
    private final Path file;
    /** The input; for a file, null until {@link #init} opens it (on this node's thread). */
    private ByteInput input;
    private final ChunkPool pool;
    private final BooleanSupplier cancelledCheck = this::cancelled;
    private NodeContext context;
    // Written by the source thread only; volatile so other threads (tests, monitors) see progress.
    private volatile long chunks;
    private volatile long bytes;
    private boolean inputClosed;

    private ChunkSource(ByteInput input, ChunkPool pool) {
        this.file = null;
        this.input = input;
        this.pool = pool;
    }

    private ChunkSource(Path file, ChunkPool pool) {
        this.file = file;
        this.input = null;
        this.pool = pool;
    }

    /**
     * Reads {@code in} with {@code buffers} buffers of records of {@code stride} bytes in at most
     * {@code memoryLimit} bytes.
     *
     * @param in the stream to read
     * @param memoryLimit the most bytes all buffers together may hold
     * @param buffers how many buffers (n)
     * @param stride the record size in bytes; every chunk holds whole records
     * @return the source
     */
    public static ChunkSource of(InputStream in, long memoryLimit, int buffers, int stride) {
        Objects.requireNonNull(in, "in");
        return new ChunkSource(ByteInput.of(in), new ChunkPool(memoryLimit, buffers, stride));
    }

    /**
     * Reads a blocking channel (a file or socket channel); see {@link #of(InputStream, long, int, int)}.
     *
     * @param in the channel to read
     * @param memoryLimit the most bytes all buffers together may hold
     * @param buffers how many buffers (n)
     * @param stride the record size in bytes; every chunk holds whole records
     * @return the source
     */
    public static ChunkSource of(ReadableByteChannel in, long memoryLimit, int buffers, int stride) {
        Objects.requireNonNull(in, "in");
        return new ChunkSource(ByteInput.of(in, "channel " + in.getClass().getSimpleName()),
            new ChunkPool(memoryLimit, buffers, stride));
    }

    /**
     * Reads a file; see {@link #of(InputStream, long, int, int)}. The file is opened when the flow
     * starts the source (in its {@code init}, on its thread) and closed when that flow ends, so a
     * source that never runs (its flow's start was refused, or it was never started) holds no file
     * open. A missing or unreadable file is still refused here, by a check that opens nothing; a file
     * that disappears between this call and the start fails that flow with the
     * {@link java.nio.file.NoSuchFileException} naming it.
     *
     * @param file the file to read
     * @param memoryLimit the most bytes all buffers together may hold
     * @param buffers how many buffers (n)
     * @param stride the record size in bytes; every chunk holds whole records
     * @return the source
     * @throws UncheckedIOException when the file does not exist or cannot be read (its cause is the
     *     {@link java.nio.file.NoSuchFileException} or {@link java.nio.file.AccessDeniedException})
     */
    public static ChunkSource of(Path file, long memoryLimit, int buffers, int stride) {
        Objects.requireNonNull(file, "file");
        ChunkPool pool = new ChunkPool(memoryLimit, buffers, stride);
        // Decision: opening the file here leaked its descriptor whenever the node never ran: close()
        // runs only in a flow that launched it, so a refused Flow.start (a node placed twice, a rule
        // of the composition broken) left the file open, one descriptor per retry. The source now
        // opens in init, which a flow calls only when close() is sure to follow. Callers rely on
        // this method refusing a missing file early (documented above), so it keeps that, with an
        // access check that opens nothing.
        try {
            file.getFileSystem().provider().checkAccess(file, AccessMode.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
        return new ChunkSource(file, pool);
    }

    /** @return the buffer pool, e.g. to watch {@link ChunkPool#peakInUse()} */
    public ChunkPool pool() {
        return pool;
    }

    /** @return chunks emitted so far */
    public long chunks() {
        return chunks;
    }

    /** @return bytes read so far */
    public long bytes() {
        return bytes;
    }

    @Override
    public void init(NodeContext ctx) throws IOException {
        if (inputClosed) {
            throw new IllegalStateException("this chunk source's input (" + describe()
                + ") was closed when its previous flow ended: a chunk source reads its input once");
        }
        this.context = ctx;
        if (input == null) { // a file: opened now that close() is sure to run (see of(Path, ...))
            input = ByteInput.of(file);
        }
    }

    private String describe() {
        return input != null ? input.describe() : "file " + file;
    }

    private boolean cancelled() {
        return context != null && context.isCancelled();
    }

    @Override
    public void generate(Outbox<Chunk> out) throws IOException {
        final int size = pool.bufferSize();
        boolean eof = false;
        while (!eof) {
            Chunk c = pool.acquire(cancelledCheck);
            if (c == null) {
                return; // cancelled while waiting for a buffer
            }
            c.reset(chunks, bytes);
            byte[] a = c.array();
            int filled = 0;
            try {
                while (filled < size) {
                    int n = input.read(a, filled, size - filled);
                    if (n < 0) {
                        eof = true;
                        break;
                    }
                    filled += n;
                    if (n == 0) { // only a non-blocking channel returns 0: wait politely
                        if (cancelled()) {
                            c.release();
                            return;
                        }
                        Thread.onSpinWait();
                    }
                }
            } catch (IOException e) {
                c.release();
                if (cancelled()) {
                    return; // the cancel closed the input to wake this read (ClosedByInterruptException and the like)
                }
                throw e;
            } catch (RuntimeException e) {
                c.release();
                throw e;
            }
            if (filled == 0) {
                c.release();
                break;
            }
            c.length(filled);
            chunks++;
            bytes += filled;
            out.send(c);
        }
    }

    @Override
    public void close() throws IOException {
        inputClosed = true;
        if (input != null) { // null: a file source whose init failed before opening it
            input.close();
        }
    }

    @Override
    public String name() {
        return "chunk-source";
    }
}
