package org.bbflow.core.ipc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The producer end of an inter-process channel: opens a file created by an {@link IpcReceiver}
 * (possibly in another JVM), takes one producer slot and writes records into the shared ring.
 * {@link #close()} is this producer's end of stream. Records of one sender arrive in the order they
 * were committed, exactly once.
 *
 * <p>Two ways to write: {@link #offer}/{@link #send} encode an item with the codec directly into the
 * claimed space; {@link #tryClaim}, {@link #buffer()}, {@link #commit} and {@link #abort} give raw
 * claim/commit access to the bytes. Neither path allocates. One sender is used by one thread.
 *
 * @param <T> the item type
 */
public final class IpcSender<T> implements AutoCloseable {
    private final IpcFile file;
    private final IpcCodec<T> codec;
    private final RingBuffer ring;
    private final MutableDirectBuffer buffer;
    private final IdleStrategy idle;
    private final long peerTimeoutNanos;
    private final int slot;
    private final int typeId;
    private long sent;
    private long probeAt;
    private boolean closed;

    private IpcSender(IpcFile file, IpcCodec<T> codec, IpcOptions options) {
        this.file = file;
        this.codec = codec;
        this.ring = file.ring;
        this.buffer = file.ring.buffer();
        this.idle = options.newIdleStrategy();
        this.peerTimeoutNanos = options.peerTimeout().toNanos();
        this.slot = file.registerProducer();
        this.typeId = IpcFile.DATA_TYPE_BASE + slot;
    }

    /**
     * Opens the channel file as a producer with default options.
     *
     * @param <T> item type
     * @param file the channel file, created by the receiver
     * @param codec encodes the items
     * @return the sender
     * @throws IpcFormatException when the file is not a channel of this format version and record layout,
     *     or when the codec names another {@link IpcCodec#recordFormat()} than the receiver's codec
     * @throws IpcPeerLostException when the file's receiver has already closed (a file left by an earlier run)
     * @throws IpcException when it cannot be opened or all producer slots are taken
     * @throws IllegalStateException when the JVM lacks the option Agrona needs ({@code --add-opens java.base/jdk.internal.misc=...})
     */
    public static <T> IpcSender<T> open(Path file, IpcCodec<T> codec) {
        return open(file, codec, IpcOptions.defaults());
    }

    /**
     * Opens the channel file as a producer; capacity and producer count come from the file's header,
     * the idle strategy and peer timeout from {@code options}.
     *
     * @param <T> item type
     * @param file the channel file, created by the receiver
     * @param codec encodes the items
     * @param options waiting and peer timeout
     * @return the sender
     * @throws IpcFormatException when the file is not a channel of this format version and record layout,
     *     or when the codec names another {@link IpcCodec#recordFormat()} than the receiver's codec
     * @throws IpcPeerLostException when the file's receiver has already closed (a file left by an earlier run)
     * @throws IllegalArgumentException when the codec's record format name is null or longer than 64 bytes of UTF-8
     */
    public static <T> IpcSender<T> open(Path file, IpcCodec<T> codec, IpcOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        String format = codec.recordFormat();
        IpcFile.formatName(format);
        IpcFile f = IpcFile.open(file);
        try {
            // Checked here, once, before a record is written: a codec that writes another format than
            // the receiver's codec reads would have its records fail to decode, or decode as garbage.
            // A codec that names no format ("", as bytes()) is not checked, on either side.
            if (!format.isEmpty() && !f.recordFormat.isEmpty() && !format.equals(f.recordFormat)) {
                throw new IpcFormatException(file + ": its receiver reads records of format '" + f.recordFormat
                    + "', but this sender's codec (" + codec + ") writes '" + format + "': open it with a codec of"
                    + " format '" + f.recordFormat + "'");
            }
            // A file whose receiver has closed (one left by an earlier run) takes records into its ring
            // until it is full, and a sender that sends fewer would end as if they were delivered.
            // Only the closed state is judged here; a receiver whose process died without closing is
            // noticed by its free liveness lock once this sender waits (see docs/io.md).
            if (f.consumerState() == IpcFile.CONSUMER_CLOSED) {
                throw new IpcPeerLostException("receiver of " + file + " closed its end before this producer opened"
                    + " it (a channel file left by an earlier run?): create the channel anew (IpcReceiver.create)"
                    + " before opening it to send");
            }
            return new IpcSender<>(f, codec, options);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** @return the producer slot this sender holds, also reported to the receiver with each record */
    public int producerId() {
        return slot;
    }

    /** @return the largest record, in bytes, this channel accepts */
    public int maxRecordLength() {
        return ring.maxMsgLength();
    }

    /** @return records committed by this sender so far */
    public long sent() {
        return sent;
    }

    /**
     * Encodes {@code item} into the ring if there is room.
     *
     * @param item the item
     * @return false when the ring is full (nothing written)
     * @throws IllegalArgumentException for a null item or one longer than {@link #maxRecordLength()}
     * @throws IllegalStateException after {@link #close()}
     */
    public boolean offer(T item) {
        if (item == null) {
            throw new IllegalArgumentException("null item on IPC channel " + file.path);
        }
        ensureOpen();
        int length = codec.encodedLength(item);
        int index = ring.tryClaim(typeId, length);
        if (index < 0) {
            return false;
        }
        try {
            codec.encode(item, buffer, index);
        } catch (Throwable t) {
            ring.abort(index);
            throw t;
        }
        ring.commit(index);
        sent++;
        return true;
    }

    /**
     * Encodes {@code item}, waiting with the idle strategy while the ring is full.
     *
     * @param item the item
     * @throws IpcPeerLostException when the receiver closed or its process died while this waited
     */
    public void send(T item) {
        sendUnless(item, null);
    }

    /**
     * {@link #send}, but gives up as soon as {@code stop} (checked while waiting; null: never) says
     * so: for a flow's sink, whose flow may be cancelled while the ring is full.
     *
     * @return false when it gave up (nothing written)
     */
    boolean sendUnless(T item, BooleanSupplier stop) {
        if (offer(item)) {
            return true;
        }
        probeAt = System.nanoTime() + peerTimeoutNanos;
        idle.reset();
        while (!offer(item)) {
            checkReceiver();
            if (stop != null && stop.getAsBoolean()) {
                return false;
            }
            idle.idle();
        }
        return true;
    }

    /**
     * Claims {@code length} bytes for a raw record.
     *
     * @param length the record's length in bytes
     * @return the index in {@link #buffer()} to write at, or -1 when the ring is full
     */
    public int tryClaim(int length) {
        ensureOpen();
        int index = ring.tryClaim(typeId, length);
        return index < 0 ? -1 : index;
    }

    /**
     * Like {@link #tryClaim} but waits while the ring is full (see {@link #send}).
     *
     * @param length the record's length in bytes
     * @return the index in {@link #buffer()} to write at
     */
    public int claim(int length) {
        int index = tryClaim(length);
        if (index >= 0) {
            return index;
        }
        probeAt = System.nanoTime() + peerTimeoutNanos;
        idle.reset();
        while ((index = tryClaim(length)) < 0) {
            checkReceiver();
            idle.idle();
        }
        return index;
    }

    /** @return the shared buffer that claimed indexes refer to */
    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /**
     * Publishes a claimed record.
     *
     * @param index the index {@link #tryClaim} or {@link #claim} returned
     */
    public void commit(int index) {
        ring.commit(index);
        sent++;
    }

    /**
     * Gives a claimed record up; the receiver skips it.
     *
     * @param index the index {@link #tryClaim} or {@link #claim} returned
     */
    public void abort(int index) {
        ring.abort(index);
    }

    private void checkReceiver() {
        if (file.consumerState() == IpcFile.CONSUMER_CLOSED) {
            throw new IpcPeerLostException("receiver of " + file.path + " closed its end; producer " + slot
                + " cannot deliver more (" + sent + " records delivered)");
        }
        long now = System.nanoTime();
        if (now - probeAt < 0) {
            return;
        }
        probeAt = now + peerTimeoutNanos;
        if (file.consumerDead()) {
            throw new IpcPeerLostException("receiver process " + file.consumerPid() + " of " + file.path
                + " died; producer " + slot + " gives up after " + sent + " records");
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("IPC sender on " + file.path + " is closed");
        }
    }

    /**
     * Waits until the receiver has taken every record this sender committed (returned it from
     * {@code poll}/{@code take}/{@code drain}, or read it in its flow), at most {@code timeout}: the
     * delivery confirmation {@link #close()} does not give. Records of other producers committed
     * meanwhile may be waited for too. Call it before {@code close()} when the sender must know its
     * last records were taken (say, before it deletes what they describe, or exits).
     *
     * @param timeout the longest to wait (one too long to count in nanoseconds, as
     *        {@code ChronoUnit.FOREVER.getDuration()}: as long as it takes)
     * @return true once every record was taken; false if some were still in the ring after {@code timeout}
     * @throws IpcPeerLostException if the receiver closed or its process died with records of this
     *     sender still in the ring (they will not be taken)
     * @throws IllegalStateException after {@link #close()}
     */
    public boolean awaitTaken(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        ensureOpen();
        long target = ring.producerPosition(); // past every record this thread committed
        // saturating conversion (toNanos() throws beyond ~292 years), capped so the sum cannot overflow
        long deadline = System.nanoTime() + Math.min(TimeUnit.NANOSECONDS.convert(timeout), Long.MAX_VALUE / 4);
        idle.reset();
        while (ring.consumerPosition() < target) {
            checkReceiver(); // closed: at once; its process dead: probed once per peer timeout
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            idle.idle();
        }
        return true;
    }

    /**
     * Ends this producer's stream (EOS) and releases the mapping. Idempotent. It does not wait for the
     * receiver: when it returns, every record sent and the end of stream are in the shared file, and a
     * receiver that goes on reading takes them all, in order, even after this process has exited; a
     * receiver that closes or dies first does not, and this sender is not told. For a confirmation,
     * call {@link #awaitTaken} first.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        file.slotState(slot, IpcFile.SLOT_CLOSED);
        file.close();
    }

    /**
     * Ends this producer's stream as failed (for a producer whose own input failed): the receiver
     * reports it like a lost producer instead of a normal end of stream. Idempotent; no-op after
     * {@link #close()}.
     */
    public void closeAsFailed() {
        if (closed) {
            return;
        }
        closed = true;
        file.slotState(slot, IpcFile.SLOT_FAILED);
        file.close();
    }

    @Override
    public String toString() {
        return "IpcSender[" + file.path + ", producer " + slot + ", sent " + sent + "]";
    }
}
