package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The receiving end of one remote channel, created by {@link NetServer#inlet(int, Codec)}.
 * One consumer thread calls {@link #take()} until it returns {@code null} (end of stream).
 *
 * <p>Frames are queued as they arrive and decoded on the consumer thread. The sender may only have
 * a window of bytes outstanding that this end has not consumed, so memory stays bounded whatever
 * the rates. If the sender's connection drops, the inlet waits for it to come back (the stream
 * resumes where it stopped, nothing lost or doubled); after the peer timeout {@link #take()} throws
 * a {@link RemoteChannelException}. Before its first sender attaches it waits at most the
 * first-connect timeout ({@link NetOptions#withFirstConnectTimeout}, default 5 minutes).
 *
 * <p>Restarts: every {@link NetClient} (so every sender process) has a random incarnation id. If a
 * sender comes back as another incarnation (it restarted) while this inlet has received no item
 * yet, the new incarnation takes the channel over and the old one is refused from then on; if items
 * had already arrived, the stream cannot be resumed, and this inlet fails at once with a message
 * saying so (restart the receiving side too). A sender that had delivered items to a previous incarnation of this server fails
 * instead, leaving this inlet untouched. Only a proven peer (the server has a shared secret or
 * requires client certificates) may fence a stream whose sender is still connected: without
 * authentication another incarnation is refused until the stream's own connection is gone (closed,
 * or silent for three heartbeats), and cannot fail or take over this inlet before.
 *
 * @param <T> the item type
 */
public final class RemoteInlet<T> implements AutoCloseable {
    private static final Object EOS = new Object();
    private static final Object FAILED = new Object();

    private final NetServer server;
    private final int channelId;
    private final Codec<T> codec;
    private final long window;
    private final long limit;
    /** A frame smaller than this goes into the shared {@link Chunk} when copied; a larger one into a buffer of its own. */
    static final int CHUNK_BYTES = 64 * 1024;
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong unconsumed = new AtomicLong();
    private volatile Thread waiter;
    private volatile RemoteChannelException failure;
    /** The sender ended the stream with a failure (FAILED_EOS): thrown after the last item; set before EOS is queued. */
    private volatile RemoteStreamFailedException endFailure;
    private volatile long consumedSeq;
    private volatile SocketAddress sender;

    // event-loop confined
    private NetServer.Connection current;
    private boolean hasStream;
    private long streamId;
    private long next;
    private boolean eosReceived;
    private boolean closed;
    private ScheduledFuture<?> lostTimer;
    private ScheduledFuture<?> firstTimer;
    private Chunk chunk; // where small frames are copied to; the event loop holds it until the next one
    private long senderIncarnation;
    private final java.util.Set<Long> staleSenders = new java.util.HashSet<>();

    // consumer confined
    private InFrame frame;
    private int remaining;
    private long bytesSinceAck;
    private boolean eosSeen;
    private boolean failSeen;
    private boolean stopped;
    private Thread consumer;

    RemoteInlet(NetServer server, int channelId, Codec<T> codec) {
        this.server = server;
        this.channelId = channelId;
        this.codec = codec;
        this.window = server.options().windowBytes();
        // a sender whose window is empty may send a whole batch (up to a frame) more
        this.limit = window + server.options().maxFrameBytes() + Wire.FRAME_ALLOWANCE;
        long t = server.options().firstConnectTimeout().toMillis();
        Wire.run(server.loop(), () -> {
            if (!hasStream && !closed) {
                firstTimer = server.loop().schedule(() -> {
                    if (!hasStream) fail(new RemoteChannelException("channel " + channelId + " on port " + server.port()
                            + ": no sender attached within " + t + " ms (NetOptions.withFirstConnectTimeout)"));
                }, t, TimeUnit.MILLISECONDS);
            }
        });
    }

    /**
     * This inlet's channel id.
     *
     * @return the channel id
     */
    public int channelId() {
        return channelId;
    }

    /**
     * The address of the sender's most recent connection, or {@code null} before one attached.
     *
     * @return the sender's address, or null
     */
    public InetSocketAddress senderAddress() {
        return (InetSocketAddress) sender;
    }

    /**
     * The next item, waiting for it if needed; {@code null} once the stream has ended (and on every
     * later call).
     *
     * @return the next item, or null at the end of the stream
     * @throws RemoteChannelException if the sender stayed away past the peer timeout, sent a malformed
     *     item (the codec's decode threw: anything it throws is the cause, and fails the stream for good;
     *     an {@link Error} is rethrown as itself, that once), the server closed, or the thread was
     *     interrupted while waiting
     * @throws RemoteStreamFailedException in place of the end of the stream, after its last item (and
     *     on every later call), if the sender ended it with a failure ({@link RemoteOutlet#completeWithFailure})
     */
    public T take() {
        for (;;) {
            if (failSeen) throw failure;
            if (remaining > 0) {
                T item;
                try {
                    item = codec.decode(frame.payload);
                } catch (Throwable e) {
                    // Anything the decoder throws (an Error, or a checked exception a Kotlin codec or a
                    // generic rethrow lets out, not only a RuntimeException) fails the stream: the frame
                    // is read up to the middle of an item, so a later take() would decode from there.
                    RemoteChannelException m = malformed(e.toString(), e);
                    if (e instanceof Error err) throw err; // an OutOfMemoryError stays one; later takes throw m
                    throw m;
                }
                // null means the end of the stream to the caller: an item decoded as null would cut it short
                if (item == null) throw malformed("an item decoded as null (items are never null)");
                if (--remaining == 0) finishFrame();
                return item;
            }
            if (!advance()) return null;
        }
    }

    /**
     * Takes the next message of the receive queue, waiting for one: a frame becomes the current
     * one, a failure is recorded (thrown by the caller's loop).
     *
     * @return false at the end of the stream
     */
    private boolean advance() {
        if (stopped) throw new IllegalStateException("channel " + channelId + ": its consumer stopped reading");
        Object o = queue.poll();
        if (o == null) {
            if (eosSeen) return end();
            await();
        } else if (o instanceof InFrame f) {
            consumer = Thread.currentThread(); // the thread that owns the frame, and may free it in close()
            frame = f;
            remaining = f.count;
        } else if (o == EOS) {
            eosSeen = true;
            return end();
        } else {
            failSeen = true;
        }
        return true;
    }

    /** At the end of the stream: false for a clean end; a failed one is thrown, every time. */
    private boolean end() {
        RemoteStreamFailedException f = endFailure;
        if (f != null) throw f;
        return false;
    }

    /**
     * Hands every remaining item to {@code sink} until the end of the stream; returns how many.
     * Same failures as {@link #take()}.
     *
     * @param sink receives the items
     * @return the number of items handed over
     */
    public long drain(java.util.function.Consumer<? super T> sink) {
        long n = 0;
        for (T item; (item = take()) != null; n++) sink.accept(item);
        return n;
    }

    /**
     * The primitive fast path of an inlet whose codec is {@link Codec#longs()}: hands every remaining
     * item to {@code sink} without boxing until the end of the stream; returns how many. Same
     * failures as {@link #take()}; may be mixed with {@link #take()}.
     *
     * @param sink receives the items
     * @return the number of items handed over
     * @throws IllegalStateException if this inlet's codec is not {@link Codec#longs()}
     */
    public long drainLongs(java.util.function.LongConsumer sink) {
        if (codec != BuiltinCodecs.LONG) {
            throw new IllegalStateException("drainLongs needs an inlet with Codec.longs(), this one has " + codec);
        }
        long n = 0;
        for (;;) {
            if (failSeen) throw failure;
            if (remaining > 0) {
                ByteBuf p = frame.payload;
                int k = remaining;
                remaining = 0;
                for (int i = 0; i < k; i++) sink.accept(p.readLong());
                n += k;
                finishFrame();
                continue;
            }
            if (!advance()) return n;
        }
    }

    /**
     * Whether {@link #take()} has returned the end of the stream (or thrown its failed end, a
     * {@link RemoteStreamFailedException}).
     *
     * @return whether the stream has ended
     */
    public boolean isEos() {
        return eosSeen;
    }

    private void finishFrame() {
        InFrame f = frame;
        frame = null;
        boolean trailing = f.payload.isReadable();
        f.release();
        if (trailing) throw malformed("frame had bytes left after its " + f.count + " items");
        consumedSeq = f.first + f.count;
        unconsumed.addAndGet(-f.charge);
        bytesSinceAck += f.charge;
        if (bytesSinceAck >= window / 4) ack();
    }

    private void ack() {
        bytesSinceAck = 0;
        Wire.run(server.loop(), this::sendAck);
    }

    private RemoteChannelException malformed(String what) {
        return malformed(what, null);
    }

    private RemoteChannelException malformed(String what, Throwable cause) {
        releaseFrame();
        RemoteChannelException e = new RemoteChannelException("channel " + channelId + ": malformed data from "
                + sender + " with " + codec + ": " + what, cause);
        // set before the loop is asked to reject: an end of stream the loop reads before it runs that task
        // must not be acknowledged (onEos), or the sender's complete() would return as if all went well
        failure = e;
        Wire.run(server.loop(), () -> {
            if (current != null) current.reject(e.getMessage());
            fail(e);
        });
        failure = e;
        failSeen = true;
        return e;
    }

    /** Consumer side: frees the frame being read (the consumer stops reading it). */
    private void releaseFrame() {
        InFrame f = frame;
        frame = null;
        remaining = 0;
        if (f != null) f.release();
    }

    private void await() {
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new RemoteChannelException("channel " + channelId + ": interrupted while waiting for items");
        }
        for (int i = 0; i < 100; i++) { // the next frame is often microseconds away: avoid a park/unpark pair
            if (!queue.isEmpty()) return;
            Thread.onSpinWait();
        }
        Thread.yield();
        if (!queue.isEmpty()) return;
        // about to sleep: acknowledge everything consumed, so a sender waiting for window can go on
        if (bytesSinceAck > 0) ack();
        waiter = Thread.currentThread();
        if (queue.isEmpty()) LockSupport.parkNanos(this, 10_000_000L);
        waiter = null;
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) LockSupport.unpark(w);
    }

    /**
     * Stops this consumer's reading without closing the inlet: the frame it was reading is freed (its
     * items not yet taken are dropped) and a later {@link #take()} throws {@link IllegalStateException};
     * the sender is not told, and what still arrives is queued (within the window) until
     * {@link #close()}, which must follow, on any thread. For a receiver that must keep the channel
     * open after it stopped reading, until it has told a third party why (a distributed job's failing
     * group reports to the master before any of its channels closes). Call it on the consumer thread;
     * idempotent.
     */
    public void stopReading() {
        stopped = true;
        releaseFrame();
    }

    /**
     * Stops receiving: queued items are dropped, the sender's stream fails with a message saying the
     * receiver closed, and a {@link #take()} still waiting (or called later) throws. The channel id
     * is free for a new inlet when this returns. Idempotent.
     */
    @Override
    public void close() {
        if (Thread.currentThread() == consumer) releaseFrame(); // e.g. a flow that failed in the middle of a frame
        server.remove(this); // at once: the channel id can be registered again as soon as close() returns
        // here if the server's loop is gone (the server closed first): the queued frames are still freed
        Wire.runOrHere(server.loop(), () -> {
            boolean loopGone = !server.loop().inEventLoop();
            closed = true;
            server.remove(this);
            if (firstTimer != null) firstTimer.cancel(false);
            if (eosReceived) server.finished().add(channelId, streamId, next);
            // closed mid-stream: a sender that missed the refusal must not resume this stream into a new inlet
            else if (hasStream) server.finished().add(channelId, streamId, FinishedStreams.CLOSED);
            if (current != null && !loopGone) {
                if (eosReceived) current.detach(channelId); else current.closedByReceiver(channelId);
            }
            current = null;
            if (lostTimer != null) lostTimer.cancel(false);
            for (Object o; (o = queue.poll()) != null; ) if (o instanceof InFrame f) f.release();
            releaseChunk();
            if (!eosReceived && failure == null) { // a consumer still waiting must not wait forever
                failure = new RemoteChannelException("channel " + channelId + ": inlet closed before end of stream");
                queue.offer(FAILED);
                wake();
            }
        });
    }

    // ---- event loop side ----

    private void sendAck() {
        if (current != null) {
            current.channel().writeAndFlush(Wire.control(current.channel().alloc(), Wire.ACK, channelId, consumedSeq),
                    current.channel().voidPromise());
        }
    }

    /** Returns null when attached, else the reason for refusing. */
    String attach(NetServer.Connection conn, long stream, long resumeFrom) {
        if (closed) return "inlet of channel " + channelId + " is closed";
        if (failure != null) return "inlet of channel " + channelId + " has failed: " + failure.getMessage();
        long incarnation = conn.peerIncarnation();
        if (staleSenders.contains(incarnation)) {
            return "channel " + channelId + ": sender incarnation " + Wire.hex(incarnation)
                    + " was replaced by a newer incarnation (a restarted sender); this one is stale";
        }
        if (hasStream && stream == streamId && incarnation != senderIncarnation) {
            // a stream id belongs to one outlet of one client for ever: another incarnation cannot have it honestly
            return "channel " + channelId + ": this stream belongs to sender incarnation " + Wire.hex(senderIncarnation)
                    + ", not " + Wire.hex(incarnation);
        }
        if (hasStream && stream != streamId) {
            if (incarnation == senderIncarnation) return "channel " + channelId + " is already used by another stream";
            if (current != null && current != conn && !conn.proven()) {
                // Fencing needs proof. Without a shared secret or mutual TLS anyone who can reach the port can
                // claim to be a restarted sender, so a new incarnation never acts on a stream whose sender is
                // still connected: it is refused (that connection only) and retries until that connection is
                // gone (closed, or silent for three heartbeats); then the restart rules below apply.
                return Wire.OWNED_BY_CONNECTED_SENDER + "channel " + channelId + " carries a stream of sender incarnation "
                        + Wire.hex(senderIncarnation) + " from " + current.remote() + ", still connected; without a shared"
                        + " secret or mutual TLS incarnation " + Wire.hex(incarnation) + " cannot take it over before that"
                        + " connection is gone";
            }
            String restarted = "channel " + channelId + ": sender restarted (incarnation " + Wire.hex(senderIncarnation)
                    + " -> " + Wire.hex(incarnation) + " from " + conn.remote() + ")";
            if (next > 0 || eosReceived) {
                RemoteChannelException e = new RemoteChannelException(restarted + " after " + next
                        + " items had arrived; the stream cannot resume: restart the receiving side too");
                if (current != null) current.revoke(channelId, e.getMessage());
                current = null;
                fail(e);
                return e.getMessage();
            }
            NetServer.WARN.log(Level.INFO, "sender restarted", "{0} before any item arrived; the new incarnation takes the channel over", restarted);
            if (staleSenders.size() >= 64) staleSenders.clear(); // bounded; a stale sender also fails on its own timeout
            staleSenders.add(senderIncarnation);
            if (current != null && current != conn) current.revoke(channelId, restarted + "; the new incarnation took the channel over");
            current = null;
            hasStream = false;
        }
        if (resumeFrom > next) {
            return "channel " + channelId + ": the sender can resume only from item " + resumeFrom + " but this inlet has "
                    + next + " (the receiver restarted after the sender had delivered items); the stream cannot resume";
        }
        if (!hasStream) {
            senderIncarnation = incarnation;
            if (firstTimer != null) firstTimer.cancel(false);
        }
        hasStream = true;
        streamId = stream;
        if (current != null && current != conn) current.detach(channelId);
        current = conn;
        sender = conn.remote();
        if (lostTimer != null) {
            lostTimer.cancel(false);
            lostTimer = null;
        }
        ThrottledLog.quiet(NetServer.LOG, Level.DEBUG, "channel {0} attached from {1} at item {2}", channelId, sender, next);
        conn.channel().writeAndFlush(Wire.frame(conn.channel().alloc(), Wire.ATTACHED, 28).writeInt(channelId)
                .writeLong(next).writeLong(consumedSeq).writeLong(window), conn.channel().voidPromise());
        return null;
    }

    /**
     * Queues a DATA frame for the consumer. It costs its payload plus {@link Wire#FRAME_ALLOWANCE} of
     * the window. A frame that is less than half of the buffer it arrived in is copied out (a small
     * one into this inlet's {@link Chunk}), so that it pins no read buffer while it waits: the memory
     * held per queued frame stays within twice its payload plus the allowance, whatever its size.
     *
     * @param pinnedCapacity the capacity of the buffer {@code payload} is a slice of
     */
    void onData(NetServer.Connection conn, long first, int count, ByteBuf payload, int pinnedCapacity) {
        if (conn != current || failure != null || closed) return; // nobody will take it
        int bytes = payload.readableBytes();
        int fixed = codec.fixedSize();
        if (count <= 0 || (fixed >= 0 && (long) fixed * count != bytes) || (fixed < 0 && count > Math.max(bytes, 1) * 8L)) {
            throw new Wire.ProtocolException("channel " + channelId + ": DATA frame with " + count + " items in "
                    + bytes + " bytes does not fit " + codec);
        }
        // Items already received are a resend (after a reconnect, or an ATTACHED reply that crossed the
        // stream), also after the end of stream: dropped. Only new items after the end are an error.
        if (first + count <= next && first >= 0) return;
        if (eosReceived) throw new Wire.ProtocolException("channel " + channelId + ": data after end of stream");
        if (first != next) {
            throw new Wire.ProtocolException("channel " + channelId + ": DATA starts at item " + first + ", expected " + next);
        }
        int charge = bytes + Wire.FRAME_ALLOWANCE;
        if (unconsumed.get() + charge > limit) {
            throw new Wire.ProtocolException("channel " + channelId + ": sender exceeded the window of " + window
                    + " bytes (" + Wire.FRAME_ALLOWANCE + " more per frame)");
        }
        unconsumed.addAndGet(charge);
        next += count;
        queue.offer(frameOf(payload, pinnedCapacity, conn, first, count, charge));
        wake();
    }

    /** The queued form of a frame: the payload itself, or a copy of it, as the class comment of {@link #onData} says. */
    private InFrame frameOf(ByteBuf payload, int pinnedCapacity, NetServer.Connection conn, long first, int count, int charge) {
        int bytes = payload.readableBytes();
        if ((long) bytes * 2 >= pinnedCapacity) return new InFrame(payload.retain(), null, first, count, charge);
        if (bytes > CHUNK_BYTES / 4) { // a chunk wastes at most a quarter when a frame does not fit its tail
            ByteBuf own = conn.channel().alloc().buffer(bytes, bytes);
            own.writeBytes(payload, payload.readerIndex(), bytes);
            return new InFrame(own, null, first, count, charge);
        }
        Chunk c = chunk;
        if (c == null || CHUNK_BYTES - c.used < bytes) {
            releaseChunk();
            chunk = c = new Chunk(conn.channel().alloc().buffer(CHUNK_BYTES, CHUNK_BYTES));
        }
        c.buf.setBytes(c.used, payload, payload.readerIndex(), bytes);
        ByteBuf view = c.buf.slice(c.used, bytes); // the consumer's reader index, not the chunk's
        c.used += bytes;
        c.holds.incrementAndGet();
        return new InFrame(view, c, first, count, charge);
    }

    /** The event loop gives up the chunk it copies into (a new one follows, or the inlet is done). */
    private void releaseChunk() {
        Chunk c = chunk;
        chunk = null;
        if (c != null) c.release();
    }

    /**
     * The end of the stream after {@code total} items: a clean one, or with {@code senderFailure} (the
     * sender's description, from FAILED_EOS) one that failed. A second end (resent after a reconnect)
     * changes nothing.
     *
     * @return whether to acknowledge it: not once this inlet has failed (its consumer found a malformed
     *     item; the connection is being closed with the reason), so the sender's complete() fails
     */
    boolean onEos(NetServer.Connection conn, long total, String senderFailure) {
        if (failure != null && !eosReceived) return false;
        if (conn != current || eosReceived) return true;
        if (total != next) {
            throw new Wire.ProtocolException("channel " + channelId + ": end of stream after " + total
                    + " items but " + next + " arrived");
        }
        eosReceived = true;
        if (senderFailure != null) {
            endFailure = new RemoteStreamFailedException(channelId, total, sender, senderFailure);
        }
        releaseChunk(); // nothing more is queued
        queue.offer(EOS);
        wake();
        return true;
    }

    void detached(NetServer.Connection conn) {
        if (conn != current) return;
        current = null;
        if (eosReceived || closed || failure != null) return;
        long t = server.options().peerTimeout().toMillis();
        NetServer.WARN.log(Level.INFO, "sender disconnected", "channel {0}: sender {1} disconnected at item {2}; waiting up to {3} ms",
                channelId, sender, next, t);
        lostTimer = server.loop().schedule(() -> fail(new RemoteChannelException("channel " + channelId + ": sender "
                + sender + " disconnected after " + next + " items and did not come back within " + t + " ms")),
                t, TimeUnit.MILLISECONDS);
    }

    void fail(RemoteChannelException e) {
        if (eosReceived || failure != null && failure != e) return;
        failure = e;
        releaseChunk(); // nothing more is queued
        NetServer.WARN.log(Level.WARNING, "channel failed", "{0}", e.getMessage());
        queue.offer(FAILED);
        wake();
    }

    /**
     * A queued frame: its payload (a buffer, a retained slice of the read buffer, or a view of a
     * {@link Chunk}) and what it costs in the window.
     */
    private record InFrame(ByteBuf payload, Chunk chunk, long first, int count, int charge) {
        void release() {
            if (chunk != null) chunk.release(); else payload.release();
        }
    }

    /**
     * A buffer that small frames are copied into one after another, so that each holds no more than
     * its payload. Freed once the event loop has moved on to another chunk and the consumer has read
     * every frame in it: a count of holders (the loop, and each queued frame) instead of a reference
     * count per frame, which would cost an atomic update on the buffer (and a recorded stack trace
     * under Netty's paranoid leak detection) per frame.
     */
    private static final class Chunk {
        final ByteBuf buf;
        final java.util.concurrent.atomic.AtomicInteger holds = new java.util.concurrent.atomic.AtomicInteger(1);
        int used; // event loop

        Chunk(ByteBuf buf) {
            this.buf = buf;
        }

        void release() {
            if (holds.decrementAndGet() == 0) buf.release();
        }
    }
}
