package org.bbflow.core.ipc;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The consumer end of an inter-process channel. It creates the memory-mapped channel file (an
 * existing empty file or old channel file at that path is replaced; any other file is refused), writes the versioned header and then reads the records
 * that one or more {@link IpcSender}s, in this or other processes on the host, commit.
 *
 * <p>End of stream: the stream ends when every expected producer has closed its sender and every
 * committed record was read. If a producer process dies instead (even in the middle of a claim), the
 * receiver notices after {@link IpcOptions#peerTimeout()} of silence, skips the unfinished claim with
 * Agrona's {@code unblock()}, keeps reading the other producers, and at the end either throws an
 * {@link IpcPeerLostException} naming the dead producer or, with
 * {@link IpcOptions#withEndOnProducerLoss(boolean)}, ends normally and reports {@link #lostProducers()}.
 * A producer that ends with {@link IpcSender#closeAsFailed()} is reported the same way. A producer
 * that never attaches is waited for indefinitely.
 *
 * <p>Reading allocates nothing beyond what the codec's {@code decode} creates; {@link #read} hands out
 * the raw bytes without decoding. One receiver is used by one thread.
 *
 * @param <T> the item type
 */
public final class IpcReceiver<T> implements AutoCloseable {
    private static final int MODE_ITEM = 0;
    private static final int MODE_CONSUMER = 1;
    private static final int MODE_RAW = 2;

    private final IpcFile file;
    private final IpcCodec<T> codec;
    private final RingBuffer ring;
    private final IdleStrategy idle;
    private final long peerTimeoutNanos;
    private final boolean endOnLoss;
    private final int producers;
    private final long[] perProducer;
    private final boolean[] registeringSeen;
    private final boolean[] lossNoted;
    private final Handler handler = new Handler();

    private int mode;
    private T current;
    private Consumer<? super T> consumer;
    private IpcRecordHandler raw;

    private long received;
    private long idleSince;
    private long nextProbe;
    private long skippedClaims;
    private int lostProducers;
    private StringBuilder lossReport;
    private boolean eos;
    private boolean closed;

    private IpcReceiver(IpcFile file, IpcCodec<T> codec, IpcOptions options) {
        this.file = file;
        this.codec = codec;
        this.ring = file.ring;
        this.idle = options.newIdleStrategy();
        this.peerTimeoutNanos = options.peerTimeout().toNanos();
        this.endOnLoss = options.endOnProducerLoss();
        this.producers = file.producers;
        this.perProducer = new long[producers];
        this.registeringSeen = new boolean[producers];
        this.lossNoted = new boolean[producers];
    }

    /**
     * Creates the channel file at {@code file} with the capacity and producer count of
     * {@code options} and opens it as the receiver. The file is built beside {@code file} under a
     * temporary name ({@code .<name>.<pid>.<n>.creating}) and renamed into place; a create also
     * removes the temporary files that earlier creates on the same path left when their process was
     * killed before the rename (never a live create's).
     *
     * @param <T> item type
     * @param file the channel file to create; an existing channel file whose receiver closed or died
     *     (one left by an earlier run) is replaced
     * @param codec decodes the records; its {@link IpcCodec#recordFormat()} is recorded in the file, and a
     *     sender whose codec names another format is refused
     * @param options capacity, producer count, waiting and peer timeout
     * @return the receiver
     * @throws IpcException when the file cannot be created, or when a live receiver (in this JVM or
     *     another process) holds it: that file is not replaced, its receiver and senders go on; also
     *     when another process is creating a receiver on the same path at the same moment: of any
     *     number of concurrent creates on one path exactly one succeeds (the old file's receiver lock
     *     decides, and the new file is renamed into place already locked and complete)
     * @throws IpcFormatException when the file exists and is neither empty nor a channel file
     * @throws IllegalArgumentException when the codec's record format name is null or longer than 64 bytes of UTF-8
     * @throws IllegalStateException when the JVM lacks the option Agrona needs ({@code --add-opens java.base/jdk.internal.misc=...})
     */
    public static <T> IpcReceiver<T> create(Path file, IpcCodec<T> codec, IpcOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        // holds the consumer lock; records the codec's format name, which the senders' codecs must match
        IpcFile f = IpcFile.create(file, options.capacity(), options.producers(), codec.recordFormat());
        try {
            return new IpcReceiver<>(f, codec, options);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** @return the channel file */
    public Path path() {
        return file.path;
    }

    /** @return the number of producers the stream waits for */
    public int producers() {
        return producers;
    }

    /** @return records received so far */
    public long received() {
        return received;
    }

    /**
     * @param producer the producer slot, from 0
     * @return records received so far from producer slot {@code producer}
     */
    public long received(int producer) {
        return perProducer[producer];
    }

    /** @return producers found dead without EOS */
    public int lostProducers() {
        return lostProducers;
    }

    /** @return unfinished claims of dead producers that were skipped */
    public long skippedClaims() {
        return skippedClaims;
    }

    /** @return whether the stream ended (all producers closed or dead, everything read) */
    public boolean isEos() {
        return eos;
    }

    /**
     * The next item, or null when none is available right now or the stream ended ({@link #isEos()}).
     * Never waits.
     *
     * @return the next item, or null
     * @throws IpcPeerLostException at the end of a stream that lost a producer (unless configured to end normally)
     * @throws IpcException for a record the codec decodes as null (the record is skipped)
     */
    public T poll() {
        ensureOpen();
        if (eos) {
            endOfStream();
            return null;
        }
        mode = MODE_ITEM;
        if (ring.read(handler, 1) > 0) {
            idleSince = 0;
            T t = current;
            current = null;
            return t;
        }
        if (checkEnd(1) > 0) {
            T t = current;
            current = null;
            return t;
        }
        return null;
    }

    /**
     * Waits with the idle strategy for the next item.
     *
     * @return the item, or null at end of stream
     * @throws IpcPeerLostException at the end of a stream that lost a producer (unless configured to end normally)
     */
    public T take() {
        T t = poll();
        if (t != null || eos) {
            return t;
        }
        idle.reset();
        while ((t = poll()) == null && !eos) {
            idle.idle();
        }
        return t;
    }

    /**
     * Decodes up to {@code limit} available items into {@code sink}; never waits.
     *
     * @param sink receives the items
     * @param limit the most items to deliver
     * @return the number of items delivered; 0 when none was available or the stream ended
     */
    public int drain(Consumer<? super T> sink, int limit) {
        Objects.requireNonNull(sink, "sink");
        ensureOpen();
        if (eos) {
            endOfStream();
            return 0;
        }
        mode = MODE_CONSUMER;
        consumer = sink;
        try {
            int n = ring.read(handler, limit);
            if (n > 0) {
                idleSince = 0;
                return n;
            }
            return checkEnd(limit);
        } finally {
            consumer = null;
        }
    }

    /**
     * Hands up to {@code limit} available records to {@code recordHandler} without decoding; never
     * waits.
     *
     * @param recordHandler receives the raw records
     * @param limit the most records to deliver
     * @return the number of records delivered
     */
    public int read(IpcRecordHandler recordHandler, int limit) {
        Objects.requireNonNull(recordHandler, "recordHandler");
        ensureOpen();
        if (eos) {
            endOfStream();
            return 0;
        }
        mode = MODE_RAW;
        raw = recordHandler;
        try {
            int n = ring.read(handler, limit);
            if (n > 0) {
                idleSince = 0;
                return n;
            }
            return checkEnd(limit);
        } finally {
            raw = null;
        }
    }

    /**
     * Called when the ring looked empty: decides end of stream, or probes the producers after a
     * silence of the peer timeout. Returns records delivered by a final read, if any.
     */
    private int checkEnd(int limit) {
        int finished = 0;
        for (int i = 0; i < producers; i++) {
            int s = file.slotState(i);
            if (s == IpcFile.SLOT_CLOSED || s == IpcFile.SLOT_DEAD) {
                finished++;
            } else if (s == IpcFile.SLOT_FAILED) {
                finished++;
                if (!lossNoted[i]) {
                    noteLoss(i, "failed and closed its end");
                }
            }
        }
        if (finished == producers) {
            // Every producer has stopped writing, so no claim can be in progress: whatever still
            // blocks the ring is an abandoned claim and may be skipped safely.
            for (;;) {
                int n = ring.read(handler, limit);
                if (n > 0) {
                    idleSince = 0;
                    return n;
                }
                if (ring.producerPosition() == ring.consumerPosition() || !ring.unblock()) {
                    break;
                }
                skippedClaims++;
            }
            eos = true;
            endOfStream();
            return 0;
        }
        long now = System.nanoTime();
        if (idleSince == 0) {
            idleSince = now;
            nextProbe = now + peerTimeoutNanos;
        } else if (now - nextProbe >= 0) {
            nextProbe = now + peerTimeoutNanos;
            probeProducers();
        }
        return 0;
    }

    private void probeProducers() {
        boolean anyGone = false;
        for (int i = 0; i < producers; i++) {
            int s = file.slotState(i);
            if (s == IpcFile.SLOT_LIVE) {
                if (file.producerDead(i) && file.casSlotState(i, IpcFile.SLOT_LIVE, IpcFile.SLOT_DEAD)) {
                    noteLoss(i, "died without end of stream");
                }
            } else if (s == IpcFile.SLOT_REGISTERING) {
                // A producer that died between taking its slot and taking its lock.
                if (registeringSeen[i] && file.producerDead(i)
                    && file.casSlotState(i, IpcFile.SLOT_REGISTERING, IpcFile.SLOT_DEAD)) {
                    noteLoss(i, "died without end of stream");
                }
                registeringSeen[i] = true;
            }
            if (gone(file.slotState(i))) {
                anyGone = true;
            }
        }
        if (anyGone && file.kind == IpcFile.KIND_MANY_TO_ONE) {
            unblockIfOwnerGone();
        }
    }

    /** Whether a producer in this state can never commit again (dead, or closed with a claim open). */
    private static boolean gone(int slotState) {
        return slotState == IpcFile.SLOT_DEAD || slotState == IpcFile.SLOT_CLOSED || slotState == IpcFile.SLOT_FAILED;
    }

    /**
     * Skips the record at the head only when its producer is gone (or it has no owner yet and some
     * producer is gone): a live producer's claim is never skipped because of a timeout alone.
     */
    private void unblockIfOwnerGone() {
        long head = ring.consumerPosition();
        if (head == ring.producerPosition()) {
            return;
        }
        int index = (int) head & (ring.capacity() - 1);
        AtomicBuffer b = ring.buffer();
        int length = b.getIntVolatile(RecordDescriptor.lengthOffset(index));
        int owner = b.getInt(RecordDescriptor.typeOffset(index)) - IpcFile.DATA_TYPE_BASE;
        boolean ownerGone = length == 0 || owner < 0 || owner >= producers || gone(file.slotState(owner));
        if (length <= 0 && ownerGone && ring.unblock()) {
            skippedClaims++;
            idleSince = 0;
        }
    }

    private void noteLoss(int slot, String what) {
        lossNoted[slot] = true;
        lostProducers++;
        if (lossReport == null) {
            lossReport = new StringBuilder();
        } else {
            lossReport.append("; ");
        }
        lossReport.append("producer ").append(slot).append(" (pid ").append(file.slotPid(slot))
            .append(") ").append(what).append(" after ").append(perProducer[slot]).append(" records");
    }

    private void endOfStream() {
        if (lostProducers > 0 && !endOnLoss) {
            throw new IpcPeerLostException("IPC channel " + file.path + " lost " + lostProducers + " of " + producers
                + " producer(s): " + lossReport + "; unfinished claims skipped: " + skippedClaims
                + "; records received in total: " + received);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("IPC receiver on " + file.path + " is closed");
        }
    }

    /** Closes the receiver; producers still sending get an {@link IpcPeerLostException}. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        file.consumerState(IpcFile.CONSUMER_CLOSED);
        file.close();
    }

    @Override
    public String toString() {
        return "IpcReceiver[" + file.path + ", producers " + producers + ", received " + received
            + (lostProducers > 0 ? ", lost " + lostProducers : "") + (eos ? ", EOS" : "") + "]";
    }

    /** A null item would read as "nothing yet" (poll) and be skipped: it is an error instead. */
    private T decoded(T item, int producer) {
        if (item == null) {
            throw new IpcException("record " + perProducer[producer] + " (counting from 1) of producer " + producer + " in "
                + file.path + " decoded as null with " + codec + " (items are never null); the record is skipped");
        }
        return item;
    }

    /** Agrona's callback; kept private so the receiver's public surface stays small. */
    private final class Handler implements MessageHandler {
        @Override
        public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            int producer = msgTypeId - IpcFile.DATA_TYPE_BASE;
            if (producer < 0 || producer >= producers) {
                throw new IpcException("corrupt record in " + file.path + ": type " + msgTypeId);
            }
            received++;
            perProducer[producer]++;
            switch (mode) {
                case MODE_ITEM:
                    current = decoded(codec.decode(buffer, index, length), producer);
                    break;
                case MODE_CONSUMER:
                    consumer.accept(decoded(codec.decode(buffer, index, length), producer));
                    break;
                default:
                    raw.onRecord(producer, buffer, index, length);
            }
        }
    }
}
