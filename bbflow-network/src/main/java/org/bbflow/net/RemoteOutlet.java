package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.Channel;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The sending end of one remote channel, created by {@link NetClient#outlet(int, Codec)}. One
 * producer thread calls {@link #send} for each item and {@link #complete()} at the end of the stream;
 * {@link #close()} without {@link #complete()} aborts the stream, so the receiver fails instead of
 * seeing a clean end when the producer stopped early (an exception, an {@code OutOfMemoryError}).
 * A producer whose stream was cut but not abandoned (the items it sent are good, yet the stream is
 * not whole) ends it with {@link #completeWithFailure} instead: the receiver gets every item, then a
 * {@link RemoteStreamFailedException}.
 * The outlet is that thread's: another thread may {@link #close()} or {@link #abort()} it only once
 * the producer is out of it for good or held off (joined, or behind a lock both take), since the
 * buffer being filled is the producer's and a close frees it.
 *
 * <p>Items are encoded straight into a pooled batch buffer. A batch is sent when it is full, at the
 * end of the stream, or at the latest after the flush delay. Sent bytes are kept until the receiver
 * reports them consumed; when the window of such bytes is full, {@link #send} waits, so a slow
 * receiver slows the sender and memory stays bounded. After a reconnect the unconsumed tail is
 * replayed and the receiver drops what it already had: nothing lost, nothing doubled.
 *
 * @param <T> the item type
 */
public final class RemoteOutlet<T> implements AutoCloseable {
    private static final VarHandle COMMITTED;
    private static final VarHandle LOOP_REF;
    private static final int OPEN = 0;
    private static final int STOPPED = 1;
    private static final int CLOSED = 2;

    static {
        try {
            COMMITTED = MethodHandles.lookup().findVarHandle(Batch.class, "committed", long.class);
            LOOP_REF = MethodHandles.lookup().findVarHandle(Batch.class, "loopRef", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NetClient client;
    private final int channelId;
    private final Codec<T> codec;
    private final long streamId = Wire.randomLong();
    private final int batchBytes;
    private final int maxPayload;
    private final AtomicLong reserved = new AtomicLong();
    private final ConcurrentLinkedQueue<Batch> batches = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile long window;
    private volatile RemoteChannelException failure;
    private volatile Thread writerWaiting;
    private volatile boolean eosRequested;
    private volatile long eosTotal;
    /** The description the end of stream carries (FAILED_EOS), or null for a clean end (EOS); set before {@link #eosRequested}. */
    private volatile byte[] eosFailure;
    private volatile boolean completing;
    private volatile String abortReason;

    // producer confined
    private Batch current;
    private long seq;
    /** {@link #OPEN}, {@link #STOPPED} ({@link #stopSending()}) or {@link #CLOSED} (completed or closed). */
    private int state;
    private ByteBuf scratch;

    // event-loop confined
    private final ArrayDeque<Frame> unacked = new ArrayDeque<>();
    private Channel channel;
    private boolean attached;
    private boolean eosSent;
    private volatile boolean released; // written by the event loop only (or in its place once it is gone)
    private long firstRejectNanos;
    private io.netty.util.concurrent.ScheduledFuture<?> abortTimer;
    private long peerIncarnation;
    private boolean delivered;
    private long ackedUpTo;

    RemoteOutlet(NetClient client, int channelId, Codec<T> codec) {
        this.client = client;
        this.channelId = channelId;
        this.codec = codec;
        this.window = client.options().windowBytes();
        this.maxPayload = client.options().maxFrameBytes() - Wire.DATA_HEADER;
        this.batchBytes = client.options().batchBytes();
    }

    /**
     * This outlet's channel id.
     *
     * @return the channel id
     */
    public int channelId() {
        return channelId;
    }

    /**
     * Sends one item; waits while the send window is full.
     *
     * @param item the item
     * @throws NullPointerException if {@code item} is null
     * @throws IllegalArgumentException if the item encodes to more than the maximum frame size allows
     *     (nothing is sent; the outlet stays usable, as after any exception its codec throws)
     * @throws IllegalStateException after {@link #complete()}, {@link #close()} or {@link #stopSending()}
     * @throws RemoteChannelException if the channel failed (peer away past the timeout, refused, ...)
     */
    public void send(T item) {
        Objects.requireNonNull(item, "item");
        RemoteChannelException f = failure;
        if (f != null) throw dropCurrent(f);
        if (state != OPEN) throw ended();
        Batch b = current;
        int max = codec.maxEncodedSize(item);
        if (max >= 0 && max <= maxPayload) {
            if (b == null || b.buf.writableBytes() < max) b = nextBatch(max);
            int start = b.buf.writerIndex();
            try {
                codec.encode(item, b.buf);
            } catch (Throwable e) { // also a checked exception a Kotlin codec or a generic rethrow lets out
                b.buf.writerIndex(start); // nothing of an item that failed half way may reach the stream
                throw e;
            }
        } else {
            ByteBuf s = scratch;
            if (s == null) s = scratch = new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, 256, Integer.MAX_VALUE);
            s.clear();
            codec.encode(item, s);
            int n = s.readableBytes();
            if (n > maxPayload) {
                throw new IllegalArgumentException("item encodes to " + n + " bytes; the maximum frame size allows "
                        + maxPayload + " (NetOptions.withMaxFrameBytes)");
            }
            if (b == null || b.buf.writableBytes() < n) b = nextBatch(n);
            b.buf.writeBytes(s);
            if (s.capacity() > 1 << 16) scratch = null;
        }
        b.count++;
        COMMITTED.setRelease(b, ((long) b.count << 32) | b.buf.writerIndex());
        seq++;
    }

    /**
     * Sends one {@code long} without boxing: the primitive fast path of an outlet whose codec is
     * {@link Codec#longs()}. Same semantics as {@link #send}.
     *
     * @param item the item
     * @throws IllegalStateException if this outlet's codec is not {@link Codec#longs()}, or after
     *     {@link #complete()}, {@link #close()} or {@link #stopSending()}
     */
    public void sendLong(long item) {
        if (codec != BuiltinCodecs.LONG) {
            throw new IllegalStateException("sendLong needs an outlet with Codec.longs(), this one has " + codec);
        }
        RemoteChannelException f = failure;
        if (f != null) throw dropCurrent(f);
        if (state != OPEN) throw ended();
        Batch b = current;
        if (b == null || b.buf.writableBytes() < 8) b = nextBatch(8);
        b.buf.writeLong(item);
        b.count++;
        COMMITTED.setRelease(b, ((long) b.count << 32) | b.buf.writerIndex());
        seq++;
    }

    private IllegalStateException ended() {
        return new IllegalStateException("outlet of channel " + channelId
                + (state == CLOSED ? " is completed or closed" : " stopped sending"));
    }

    /**
     * The producer is done sending but does not end the stream yet: what it sent goes to the
     * connection at once, and the buffer it was filling is given up, so that nothing is held for a
     * producer that may never come back (a node that ended, failed or was cancelled). The stream
     * stays open, neither complete nor aborted, until {@link #complete()} or {@link #close()} (which
     * another thread may call later: a distributed job's group first reports why it failed, then
     * aborts its result streams). {@link #send} refuses afterwards. Call it on the producer thread;
     * idempotent.
     */
    public void stopSending() {
        if (state != OPEN) return;
        state = STOPPED;
        RemoteChannelException f = failure;
        if (f != null) dropCurrent(f); else seal();
    }

    /** Seals the current batch and starts a new one of at least {@code need} bytes, waiting for window. */
    private Batch nextBatch(int need) {
        seal();
        int cap = Math.max(batchBytes, need);
        for (;;) {
            RemoteChannelException f = failure;
            if (f != null) throw dropCurrent(f);
            long r = reserved.get();
            if (r == 0 || r + cap <= window) break;
            writerWaiting = Thread.currentThread();
            r = reserved.get();
            if (failure == null && r != 0 && r + cap > window) LockSupport.parkNanos(this, 1_000_000L);
            writerWaiting = null;
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new RemoteChannelException("channel " + channelId + ": interrupted while waiting for window");
            }
        }
        reserved.addAndGet(cap);
        // two references: the event loop's (released when it is done cutting the batch) and the
        // producer's (released when it seals or drops the batch), so neither frees it under the other
        Batch b = new Batch(PooledByteBufAllocator.DEFAULT.directBuffer(cap, cap).retain(), seq);
        batches.offer(b);
        current = b;
        return b;
    }

    /** On failure the producer gives up the batch it was filling (the event loop may still be cutting it). */
    private RemoteChannelException dropCurrent(RemoteChannelException f) {
        Batch b = current;
        current = null;
        if (b != null) {
            b.sealed = true;
            b.buf.release();
            if (released) releaseLoopRef(b); // offered after releaseAll(): the loop will never free it
        }
        return f;
    }

    private void seal() {
        Batch b = current;
        if (b == null) return;
        current = null;
        reserved.addAndGet(-(b.buf.capacity() - b.buf.writerIndex()));
        b.sealed = true;
        b.buf.release();
        if (released) releaseLoopRef(b); // offered after releaseAll(): the loop will never free it
        Wire.run(client.loop(), this::drain);
    }

    /**
     * Ends the stream: sends what is buffered and the end-of-stream mark, then waits until the receiver
     * has everything (not necessarily consumed). This is the only way to end a stream normally;
     * {@link #close()} without it aborts. Idempotent once it has returned.
     *
     * <pre>{@code
     * try (RemoteOutlet<Long> out = client.outlet(1, Codec.longs())) {
     *     for (long i = 0; i < n; i++) out.sendLong(i);
     *     out.complete();   // an exception above skips this: close() aborts and the receiver fails
     * }
     * }</pre>
     *
     * @throws RemoteChannelException if the channel failed before the receiver had everything, or the
     *     outlet was aborted (or closed) before
     */
    public void complete() {
        end(null);
    }

    /**
     * Ends the stream with a failure: as {@link #complete()}, every item sent reaches the receiver and
     * this waits until it has them all, but the end-of-stream mark says the stream was cut, and why.
     * The receiver's {@link RemoteInlet#take()} hands out every item and then throws a
     * {@link RemoteStreamFailedException} carrying {@code description}; a receiving flow fails
     * without cancelling, as by a {@link org.bbflow.core.StreamFailure}. This is how a sending flow
     * whose source ended its stream with a {@code StreamFailure} passes that on; unlike
     * {@link #abort()} nothing is dropped, and a reconnect resends the mark as it resends a clean one.
     * The first end counts: a later {@code complete()} or {@code completeWithFailure} only waits for
     * it.
     *
     * @param description what the stream failed with; UTF-8, cut to 1000 bytes on the wire
     * @throws NullPointerException if {@code description} is null
     * @throws RemoteChannelException as {@link #complete()}
     */
    public void completeWithFailure(String description) {
        end(Wire.failureText(Objects.requireNonNull(description, "description")));
    }

    private void end(byte[] failureText) {
        if (state != CLOSED) {
            state = CLOSED;
            if (failure != null) {
                dropCurrent(failure);
            } else {
                // request EOS first: the event loop sends it only once every batch is sealed and cut,
                // and the seal below (or the explicit drain) wakes it
                completing = true;
                eosTotal = seq;
                eosFailure = failureText;
                eosRequested = true;
                if (current != null) seal(); else Wire.run(client.loop(), this::drain);
            }
        } else if (!completing && !done.isDone()) {
            throw new IllegalStateException("outlet of channel " + channelId + " was aborted; it cannot complete");
        }
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteChannelException("channel " + channelId + ": interrupted while completing");
        } catch (ExecutionException e) {
            throw (RemoteChannelException) e.getCause();
        }
    }

    /**
     * Releases the outlet. After {@link #complete()} it does nothing more; without it the stream is
     * aborted as by {@link #abort()}: the receiver fails with a {@link RemoteChannelException} and
     * never sees a clean end of stream, so an exception that leaves a {@code try}-with-resources block
     * early cannot pass for the end of the data. Idempotent; never throws.
     */
    @Override
    public void close() {
        if (completing) return;
        abort("sender closed the stream without complete()");
    }

    /**
     * Abandons the stream without end of stream: the receiver's {@link RemoteInlet#take()} throws a
     * {@link RemoteChannelException} saying the sender aborted. Idempotent; does nothing after
     * {@link #complete()} was called.
     */
    public void abort() {
        abort("sender aborted");
    }

    private void abort(String reason) {
        if (completing) return;
        state = CLOSED;
        if (!done.isDone()) {
            abortReason = reason;
            fail(new RemoteChannelException("channel " + channelId + " to " + client.peer() + " aborted: " + reason));
        }
        dropCurrent(failure); // also after a failure: the producer's reference to the batch it was filling
    }

    /**
     * Items sent so far.
     *
     * @return the number of items sent
     */
    public long sentCount() {
        return seq;
    }

    // ---- event loop side ----

    /** Cuts committed bytes of the pending batches into frames, writes them if attached, then maybe EOS. */
    void drain() {
        if (released || abortReason != null) return;
        boolean wrote = false;
        for (Batch b; (b = batches.peek()) != null; ) {
            boolean sealed = b.sealed;
            long c = (long) COMMITTED.getAcquire(b);
            int count = (int) (c >>> 32);
            int pos = (int) c;
            if (count > b.cutCount) {
                // a frame costs its payload (reserved with its batch) and the allowance: without room for
                // that, what is committed waits in the batch for an acknowledgement (one frame may always go)
                if (!unacked.isEmpty() && reserved.get() + Wire.FRAME_ALLOWANCE > window) break;
                reserved.addAndGet(Wire.FRAME_ALLOWANCE);
                Frame f = new Frame(b.first + b.cutCount, count - b.cutCount, b.buf.retainedSlice(b.cutPos, pos - b.cutPos));
                b.cutPos = pos;
                b.cutCount = count;
                unacked.add(f);
                if (attached) {
                    write(f);
                    wrote = true;
                }
            }
            if (!sealed) break;
            batches.poll();
            releaseLoopRef(b);
        }
        if (attached && eosRequested && !eosSent && batches.isEmpty()) {
            eosSent = true;
            delivered = true;
            byte[] cut = eosFailure;
            channel.write(cut == null ? Wire.control(channel.alloc(), Wire.EOS, channelId, eosTotal)
                    : Wire.failedEos(channel.alloc(), channelId, eosTotal, cut), channel.voidPromise());
            wrote = true;
        }
        if (wrote) channel.flush();
    }

    private void write(Frame f) {
        delivered = true;
        channel.write(Wire.dataHeader(channel.alloc(), channelId, f.first, f.count, f.payload.readableBytes()),
                channel.voidPromise());
        channel.write(f.payload.retainedDuplicate(), channel.voidPromise());
    }

    /**
     * Asks the server to attach this stream. If the server is another incarnation than the one this
     * stream delivered items to (it restarted and lost them), the stream cannot resume and fails.
     */
    void attach(Channel ch, long serverIncarnation) {
        if (released) return;
        if (peerIncarnation != 0 && serverIncarnation != peerIncarnation && delivered) {
            fail(new RemoteChannelException("channel " + channelId + " to " + client.peer() + ": the receiver restarted"
                    + " (incarnation " + Wire.hex(peerIncarnation) + " -> " + Wire.hex(serverIncarnation)
                    + ") after this stream had sent it items; the stream cannot resume: restart this sender"));
            return;
        }
        peerIncarnation = serverIncarnation;
        channel = ch;
        ch.writeAndFlush(Wire.control(ch.alloc(), Wire.ATTACH, channelId, streamId, ackedUpTo), ch.voidPromise());
    }

    /**
     * The server has no inlet with this id yet, or the channel's stream is still held by the connection
     * of another (unproven) incarnation: retry until the peer timeout. Or it refused the stream.
     */
    void onReject(String reason, Channel ch) {
        if (released) return;
        if (reason.startsWith(Wire.NO_INLET) || reason.startsWith(Wire.OWNED_BY_CONNECTED_SENDER)) {
            long now = System.nanoTime();
            if (firstRejectNanos == 0) firstRejectNanos = now;
            if (now - firstRejectNanos < client.options().peerTimeout().toNanos()) {
                client.loop().schedule(() -> {
                    if (channel == ch && ch.isActive()) attach(ch, peerIncarnation);
                }, 50, java.util.concurrent.TimeUnit.MILLISECONDS);
                return;
            }
        }
        fail(new RemoteChannelException("refused by " + client.peer() + ": " + reason));
    }

    void onAttached(long next, long consumed, long receiverWindow) {
        if (released || channel == null) return;
        if (abortReason != null) {
            attached = true;
            deliverAbort();
            return;
        }
        window = Math.min(client.options().windowBytes(), receiverWindow);
        onAck(consumed);
        attached = true;
        eosSent = false;
        for (Frame f : unacked) if (f.first >= next) write(f);
        drain();
        channel.flush();
    }

    void detached() {
        attached = false;
        channel = null;
    }

    void onAck(long consumed) {
        if (consumed > ackedUpTo) ackedUpTo = consumed;
        long freed = 0;
        for (Frame f; (f = unacked.peek()) != null && f.first + f.count <= consumed; ) {
            unacked.poll();
            freed += f.payload.readableBytes() + Wire.FRAME_ALLOWANCE;
            f.payload.release();
        }
        if (freed > 0) {
            reserved.addAndGet(-freed);
            Thread w = writerWaiting;
            if (w != null) LockSupport.unpark(w);
            if (attached && !batches.isEmpty()) drain(); // what waited for room in the window
        }
    }

    void onEosAck() {
        if (!eosSent) return;
        releaseAll();
        done.complete(null);
    }

    /**
     * Its client closes with this stream open (event loop): the stream is aborted, so the receiver
     * fails at once, naming the closed client, instead of waiting out its peer timeout. A stream
     * already complete (or failed) stays so; one whose end of stream is already on the wire is only
     * failed here (the receiver has its end).
     */
    void clientClosed(RemoteChannelException e, String reason) {
        if (done.isDone()) return;
        if (!eosSent && abortReason == null) abortReason = reason;
        fail(e);
    }

    void fail(RemoteChannelException e) {
        if (done.isDone() && abortReason == null) return;
        if (failure == null) failure = e;
        Thread w = writerWaiting;
        if (w != null) LockSupport.unpark(w);
        // here if the loop died: its buffers are still freed (deliverAbort then frees them at once)
        Wire.runOrHere(client.loop(), abortReason != null && e == failure ? this::deliverAbort : this::releaseAll);
        done.completeExceptionally(failure);
    }

    /**
     * Tells the receiver that the stream was aborted, so that it fails instead of waiting. If this
     * outlet is not attached yet (an abort right after opening), it stays registered until it is
     * (the ABORT then follows the ATTACHED) or until its client gives up on the peer.
     */
    private void deliverAbort() {
        if (released) return;
        if (!client.loop().inEventLoop()) { // run here by fail(): the loop is gone, nothing can be sent any more
            releaseAll();
            return;
        }
        if (attached && channel != null) {
            // free (and maybe close the outlet's own connection) only once the ABORT is written: a close
            // now would discard it behind data frames still queued, and the receiver would wait for ever.
            // The connection itself is closed gracefully (NetClient.closeGracefully), so the kernel
            // sends what it holds too. If the connection breaks first, the ABORT goes again after the
            // reconnect (onAttached), until the peer timeout.
            channel.writeAndFlush(Wire.text(channel.alloc(), Wire.ABORT, channelId, abortReason))
                    .addListener(written -> {
                        if (written.isSuccess()) releaseAll(); else awaitReattachToAbort();
                    });
        } else {
            awaitReattachToAbort();
        }
    }

    /** Keeps the aborted outlet registered until it is attached again (then the ABORT follows), at most the peer timeout. */
    private void awaitReattachToAbort() {
        if (released || abortTimer != null) return;
        abortTimer = client.loop().schedule(this::releaseAll, client.options().peerTimeout().toNanos(),
                java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * Frees every buffer the event loop holds (its reference to each pending batch, the unacknowledged
     * frames). Synchronized only for the case of a dead loop, where callers on other threads run it.
     */
    private synchronized void releaseAll() {
        if (released) return;
        released = true;
        if (abortTimer != null) abortTimer.cancel(false);
        for (Frame f; (f = unacked.poll()) != null; ) f.payload.release();
        for (Batch b; (b = batches.poll()) != null; ) releaseLoopRef(b); // sealed or not
        client.removed(this);
    }

    /**
     * Gives up the event loop's reference to a batch, exactly once: the loop does when it has cut a
     * sealed batch or in {@link #releaseAll}; the producer does for a batch it added after
     * {@link #releaseAll} (it was racing a failure), which the loop never sees.
     */
    private static void releaseLoopRef(Batch b) {
        if (LOOP_REF.compareAndSet(b, 1, 0)) b.buf.release();
    }

    /** A batch buffer being filled by the producer and cut into frames by the event loop. */
    static final class Batch {
        final ByteBuf buf;
        final long first;
        int count;                 // producer
        volatile long committed;   // (count << 32) | writerIndex, published by the producer
        volatile boolean sealed;
        volatile int loopRef = 1;  // 1 while the event loop's reference to buf is held
        int cutPos;                // event loop
        int cutCount;              // event loop

        Batch(ByteBuf buf, long first) {
            this.buf = buf;
            this.first = first;
        }
    }

    /** A sent frame's payload, kept until the receiver reports it consumed. */
    record Frame(long first, int count, ByteBuf payload) {}
}
