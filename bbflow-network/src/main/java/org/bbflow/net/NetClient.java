package org.bbflow.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * The sending end of remote channels: one TCP connection to a {@link NetServer}, carrying any number
 * of {@link RemoteOutlet}s (multiplexed by channel id, each with its own order, window and
 * acknowledgements).
 *
 * <pre>{@code
 * try (NetClient client = NetClient.connect("worker-1", 7000, NetOptions.defaults());
 *      RemoteOutlet<Long> out = client.outlet(1, Codec.longs())) {
 *     for (long i = 0; i < n; i++) out.send(i);
 *     out.complete();   // sends end of stream and waits until the server has it
 * }   // close() without complete() (an exception above) aborts: the receiver fails
 * }</pre>
 *
 * <p>Connecting happens in the background and is retried with backoff; a dropped connection is
 * re-established and every channel resumes. A TLS handshake that is closed, cut or late is retried
 * the same way; only a TLS verdict (a certificate rejected, a fatal alert, a peer not speaking TLS)
 * is final. If the server cannot be reached for the peer timeout, or refuses the handshake, every
 * outlet fails with a {@link RemoteChannelException}.
 *
 * <p>{@link #close()} and {@link #closeAbruptly()} are idempotent and may be called from any thread,
 * also at once: the first closes, a later one waits for it, and each returns once the client's thread
 * and socket are gone (or the first close gave up waiting for them, after about 5 s).
 */
public final class NetClient implements AutoCloseable {
    static final System.Logger LOG = NetServer.LOG;

    private final String host;
    private final int port;
    private final NetOptions options;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final Map<Integer, RemoteOutlet<?>> outlets = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> flusher;
    private final boolean ownedByOutlet;
    private final long incarnation = Wire.nonZeroRandom();
    private volatile RemoteChannelException fatal;
    private volatile boolean closed;
    /**
     * The first close ({@link #close()}, {@link #closeAbruptly()}, or an owning outlet's end) takes
     * this; a later one waits for {@link #closeDone} instead of returning while the first still runs.
     */
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.CountDownLatch closeDone = new java.util.concurrent.CountDownLatch(1);
    /** Test hook: given the client, runs in its first close before anything is closed (null in production). */
    static volatile java.util.function.Consumer<NetClient> closeHook;

    // event-loop confined
    private Channel channel;
    private boolean ready;
    private boolean idle;
    private long downSince = System.nanoTime();
    private int attempt;
    private Throwable lastCause;
    private long serverIncarnation;

    private NetClient(String host, int port, NetOptions options, boolean ownedByOutlet) {
        Preload.once(); // what the JDK and Netty would load lazily, while descriptors are free
        try {
            InetAddress.getAllByName(host); // an unknown name fails now, naming the host, instead of retrying for the peer timeout
        } catch (UnknownHostException e) {
            throw new RemoteChannelException("unknown host \"" + host + "\": the name does not resolve (" + e.getMessage() + ")", e);
        }
        this.host = host;
        this.port = port;
        this.options = options;
        this.ownedByOutlet = ownedByOutlet;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bbflow-net-client", true), NioIoHandler.newFactory());
        this.loop = group.next();
        this.bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(5000, options.peerTimeout().toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (options.ssl() != null) ch.pipeline().addLast("tls", tlsHandler(ch));
                        ch.pipeline().addLast("frames", new Wire.FrameDecoder());
                        ch.pipeline().addLast("protocol", new Connection());
                    }
                });
        long delay = options.flushDelay().toNanos();
        this.flusher = loop.scheduleAtFixedRate(this::flushAll, delay, delay, TimeUnit.NANOSECONDS);
        Wire.run(loop, this::connectNow);
        loop.terminationFuture().addListener(f -> {
            // the event loop is gone (closed, or killed by an error): no outlet may wait for it for ever
            RemoteChannelException e = new RemoteChannelException("client to " + peer() + " stopped");
            for (RemoteOutlet<?> o : outlets.values()) o.fail(e);
        });
    }

    /**
     * A TLS handler for a connection to {@code host}; verifies that the server's certificate names it
     * unless turned off. Set either way: Netty 4.2's client contexts verify host names by default,
     * 4.1's did not, and a context built elsewhere may have either.
     */
    private SslHandler tlsHandler(SocketChannel ch) {
        SslHandler tls = options.ssl().newHandler(ch.alloc(), host, port);
        SSLEngine engine = tls.engine();
        SSLParameters p = engine.getSSLParameters();
        p.setEndpointIdentificationAlgorithm(options.verifyHostName() ? "HTTPS" : ""); // "": off (null would keep the context's)
        engine.setSSLParameters(p);
        return tls;
    }

    /**
     * Starts connecting to {@code host:port} in the background and returns at once. If the server
     * cannot be reached within the peer timeout, every outlet fails with a {@link RemoteChannelException}.
     *
     * @param host the server's host name or address
     * @param port the server's port
     * @param options the options; must match the server's (secret, TLS, frame size)
     * @return the client
     * @throws RemoteChannelException if {@code host} does not resolve
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static NetClient connect(String host, int port, NetOptions options) {
        return new NetClient(Objects.requireNonNull(host, "host"), checkPort(port), Objects.requireNonNull(options, "options"), false);
    }

    /**
     * A single outlet on a connection of its own, closed with the outlet.
     *
     * @param host the server's host name or address
     * @param port the server's port
     * @param channelId the channel id of the server's inlet
     * @param codec the item codec
     * @param options the options
     * @param <T> the item type
     * @return the outlet
     * @throws RemoteChannelException if {@code host} does not resolve
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static <T> RemoteOutlet<T> outlet(String host, int port, int channelId, Codec<T> codec, NetOptions options) {
        Objects.requireNonNull(codec, "codec"); // before the connection and its thread exist
        NetClient c = new NetClient(Objects.requireNonNull(host, "host"), checkPort(port), Objects.requireNonNull(options, "options"), true);
        return c.outlet(channelId, codec);
    }

    private static int checkPort(int port) {
        if (port <= 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
        return port;
    }

    /**
     * Opens the sending end of channel {@code channelId}; the server must host an inlet with that id.
     *
     * @param <T> item type
     * @param channelId the id of the inlet on the server
     * @param codec encodes the items
     * @return the outlet
     * @throws IllegalStateException if the id is already open on this client or the client is closed
     */
    public <T> RemoteOutlet<T> outlet(int channelId, Codec<T> codec) {
        Objects.requireNonNull(codec, "codec");
        if (closed) throw new IllegalStateException("client closed");
        RemoteOutlet<T> out = new RemoteOutlet<>(this, channelId, codec);
        if (outlets.putIfAbsent(channelId, out) != null) {
            throw new IllegalStateException("channel id " + channelId + " is already open to " + peer());
        }
        RemoteChannelException f = fatal;
        if (f != null) out.fail(f);
        Wire.run(loop, () -> {
            if (ready) {
                out.attach(channel, serverIncarnation);
            } else if (idle) {
                idle = false;
                downSince = System.nanoTime();
                attempt = 0;
                connectNow();
            }
        });
        return out;
    }

    /**
     * Closes the connection. Every outlet not yet complete is aborted: its receiver fails at once with a
     * {@link RemoteChannelException} saying that the sending client was closed with the stream open
     * (not after its peer timeout), and the outlet fails on this side too; an outlet already complete
     * stays complete. What is already queued on the connection (those ABORTs, the ABORT of an outlet
     * closed just before) is still written first; then the connection is closed without a reset. Waits
     * at most 5 s; a peer that reads nothing more is given up on in the background after the peer
     * timeout.
     *
     * <p>Idempotent and safe from any thread: a close (or {@link #closeAbruptly()}) while another
     * thread's close of this client is under way does not close again; it waits for that one to end
     * (at most as long as a close takes) and returns with it, the client's thread and socket gone as
     * after a close of its own.
     */
    @Override
    public void close() {
        if (!beginClose()) return;
        try {
            Wire.run(loop, () -> {
                flusher.cancel(false);
                RemoteChannelException e = new RemoteChannelException("client to " + peer() + " closed");
                String reason = "its client (to " + peer() + ") was closed before the stream completed";
                for (RemoteOutlet<?> o : outlets.values()) o.clientClosed(e, reason); // queues their ABORTs as tasks ...
                // ... which run (and write) before this one: the end of output goes after them
                Wire.run(loop, () -> closeGracefully(() -> group.shutdownGracefully(0, 2, TimeUnit.SECONDS)));
            });
            awaitShutdown();
        } finally {
            closeDone.countDown();
        }
    }

    /**
     * Closes the connection as a crashed process's is closed: without the protocol's goodbye. Open
     * streams are not aborted and nothing still queued is written; their receivers learn of the loss
     * only from the dropped connection (after their peer timeout, or a distributed job's liveness
     * signal), and the outlets fail on this side. This is the model of a killed sender
     * ({@code LocalJob.kill} uses it, tests too); a program that stops sending uses {@link #close()},
     * which tells every receiver at once. Idempotent; does nothing after {@link #close()}. Waits at
     * most 5 s for the client's thread to end; while another thread's close of this client is under
     * way, waits for that one instead (see {@link #close()}).
     */
    public void closeAbruptly() {
        if (!beginClose()) return;
        try {
            Wire.run(loop, () -> {
                flusher.cancel(false);
                Channel ch = channel;
                if (ch != null) ch.close(); // what is queued is discarded: a dead process writes nothing more
                RemoteChannelException e = new RemoteChannelException("client to " + peer() + " closed abruptly");
                for (RemoteOutlet<?> o : outlets.values()) o.fail(e);
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
            });
            awaitShutdown();
        } finally {
            closeDone.countDown();
        }
    }

    /**
     * True for the first close of this client, which then closes it (and counts {@link #closeDone}
     * down when it is done). A later close waits for the first to end and gets false. Returning at
     * once, as a plain {@code if (closed) return} did, let a caller go on while the first close still
     * ran: the client's thread and socket still alive (a killed group of a {@code LocalJob}: the kill's
     * {@link #closeAbruptly()} and the group's own close of its clients race; the group's thread then
     * ended with its connections still open).
     */
    private boolean beginClose() {
        if (!closing.compareAndSet(false, true)) {
            awaitOtherClose();
            return false;
        }
        closed = true;
        java.util.function.Consumer<NetClient> hook = closeHook;
        if (hook != null) {
            try {
                hook.accept(this);
            } catch (RuntimeException e) {
                closeDone.countDown();
                throw e;
            }
        }
        return true;
    }

    /** Waits (bounded) for the close under way on another thread; never on the event loop, which that close waits for. */
    private void awaitOtherClose() {
        if (loop.inEventLoop()) return;
        try {
            if (!closeDone.await(15, TimeUnit.SECONDS)) {
                ThrottledLog.quiet(LOG, Level.WARNING, "client to {0}: another thread''s close did not end within 15 s", peer());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** After a close's task: shuts the loop down if that task was dropped, and waits at most 5 s for it. */
    private void awaitShutdown() {
        if (loop.isShuttingDown()) group.shutdownGracefully(0, 2, TimeUnit.SECONDS); // the close task was dropped
        if (!loop.inEventLoop()) group.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    String peer() { return host + ":" + port; }
    NetOptions options() { return options; }
    EventLoop loop() { return loop; }

    void removed(RemoteOutlet<?> out) {
        outlets.remove(out.channelId(), out);
        if (ownedByOutlet && outlets.isEmpty() && closing.compareAndSet(false, true)) {
            // closes in the background (the outlet's close does not wait for it); a close() meanwhile
            // waits until the client's thread has ended
            closed = true;
            group.terminationFuture().addListener(f -> closeDone.countDown());
            Wire.run(loop, () -> {
                flusher.cancel(false);
                closeGracefully(() -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS));
            });
        }
    }

    /**
     * Closes the connection without losing what is queued on it (the last ABORT of an outlet above
     * all), then runs {@code then}. A plain close would do both wrong: Netty discards the frames it
     * has not written yet, and a socket closed while input from the server is still unread (an ACK,
     * a heartbeat) makes the kernel reset the connection, dropping the bytes it has not sent yet.
     * So: once everything queued is written, the output is shut down (the server reads every byte,
     * then the end, and closes its side); what the server still sends is read and dropped; the
     * connection closes when the server's side does, at the latest after the peer timeout.
     */
    private void closeGracefully(Runnable then) {
        Channel ch = channel;
        if (ch == null) {
            then.run();
            return;
        }
        ch.closeFuture().addListener(f -> then.run());
        if (!ready || !ch.isActive()) { // nothing was sent on it: nothing to lose
            ch.close();
            return;
        }
        ScheduledFuture<?> bound = loop.schedule(() -> { ch.close(); }, options.peerTimeout().toNanos(), TimeUnit.NANOSECONDS);
        ch.closeFuture().addListener(f -> bound.cancel(false));
        if (ch.pipeline().get("idle") != null) ch.pipeline().remove("idle"); // no heartbeat after the end of output
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> { // completes after every write queued before it
            if (!written.isSuccess()) {
                ch.close();
                return;
            }
            SslHandler tls = ch.pipeline().get(SslHandler.class);
            ChannelFuture notified = tls != null ? tls.closeOutbound() : ch.newSucceededFuture(); // TLS close_notify first
            notified.addListener(n -> {
                if (n.isSuccess() && ch instanceof SocketChannel s) {
                    s.shutdownOutput().addListener(shut -> { if (!shut.isSuccess()) ch.close(); });
                } else {
                    ch.close();
                }
            });
        });
    }

    private void flushAll() {
        for (RemoteOutlet<?> o : outlets.values()) {
            try {
                o.drain();
            } catch (Throwable e) { // a periodic task that throws is never run again: keep the others flushing
                NetServer.WARN.log(System.Logger.Level.WARNING, "unexpected", "flushing channel " + o.channelId() + " failed", e);
                o.fail(new RemoteChannelException("channel " + o.channelId() + " to " + peer() + " failed: " + e, e));
            }
        }
    }

    /**
     * Whether a TLS failure is a verdict that no retry can change: a certificate rejected (the server's
     * here, or ours by the server's fatal alert), any fatal alert from the peer, or a peer that does not
     * speak TLS. Anything else (the connection closed, reset or cut during the handshake, the engine
     * choking on a record cut short, the handshake timing out) is retried like a plain connection.
     * On the safe side: a verdict taken for a transient failure costs retries until the peer timeout,
     * a transient failure taken for a verdict would kill every stream of the client.
     */
    static boolean isTlsVerdict(Throwable failure) {
        Throwable c = failure instanceof DecoderException && failure.getCause() != null ? failure.getCause() : failure;
        if (c instanceof NotSslRecordException) return true;
        if (!(c instanceof SSLException) || c instanceof SslHandshakeTimeoutException) return false;
        for (Throwable t = c; t != null; t = t.getCause()) {
            if (t instanceof CertificateException || t instanceof CertPathValidatorException) return true;
            String m = t.getMessage();
            // the JDK's words for a peer's alert: "Received fatal alert: bad_certificate" up to JDK 21, and
            // "(bad_certificate) Received fatal alert: bad_certificate" on JDK 25, whose alert-first form
            // was taken for a transient failure (a refused client certificate retried for the peer timeout)
            if (m != null && (m.startsWith("Received fatal alert") || m.matches("\\([a-z_]+\\) Received fatal alert.*"))) {
                return true;
            }
        }
        return false;
    }

    private void connectNow() {
        if (closed || fatal != null) return;
        ChannelFuture f = bootstrap.connect(host, port);
        Channel ch = f.channel();
        channel = ch;
        f.addListener(r -> {
            if (!r.isSuccess()) down(ch, r.cause());
        });
    }

    /** A connection ended or could not be made: retry with backoff, or give up after the peer timeout. */
    private void down(Channel ch, Throwable cause) {
        if (ch != channel) return;
        channel = null;
        if (cause != null) lastCause = cause;
        if (closed) return;
        if (outlets.isEmpty()) { // nothing to deliver: reconnect only when an outlet opens
            ready = false;
            idle = true;
            ThrottledLog.quiet(LOG, Level.DEBUG, "connection to {0} closed while idle", peer());
            return;
        }
        if (ready) {
            ready = false;
            downSince = System.nanoTime();
            NetServer.WARN.log(Level.INFO, "connection lost", "connection to {0} lost ({1}); reconnecting", peer(), lastCause);
            for (RemoteOutlet<?> o : outlets.values()) o.detached();
        }
        if (closed || fatal != null) return;
        long waited = System.nanoTime() - downSince;
        long timeout = options.peerTimeout().toNanos();
        if (waited >= timeout) {
            fatal(new RemoteChannelException("cannot reach " + peer() + " for " + options.peerTimeout().toMillis()
                    + " ms" + (lastCause != null ? ": " + lastCause : ""), lastCause));
            return;
        }
        long backoff = Math.min(Math.min(5_000_000L << Math.min(attempt++, 8), 500_000_000L), timeout - waited);
        loop.schedule(this::connectNow, backoff, TimeUnit.NANOSECONDS);
    }

    private void fatal(RemoteChannelException e) {
        if (fatal != null) return;
        fatal = e;
        NetServer.WARN.log(Level.WARNING, "client failed", "{0}", e.getMessage());
        for (RemoteOutlet<?> o : outlets.values()) o.fail(e);
        if (channel != null) channel.close();
    }

    /** The client side of one connection. Event-loop confined. */
    final class Connection extends ChannelInboundHandlerAdapter {
        private final byte[] clientNonce = Wire.nonce();
        private boolean welcomed;
        private byte[] serverNonce;
        private long serverIncarnationSeen;
        private ScheduledFuture<?> handshakeTimer;
        private boolean handshakeTimedOut;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            try {
                long t = Math.min(options.peerTimeout().toMillis(), Math.max(1000, 3 * options.heartbeat().toMillis()));
                handshakeTimer = ctx.executor().schedule(() -> {
                    if (!welcomed) {
                        handshakeTimedOut = true;
                        lastCause = new RemoteChannelException("no handshake from " + peer() + " within " + t + " ms");
                        ctx.close();
                    }
                }, t, TimeUnit.MILLISECONDS);
                ctx.fireChannelActive();
            } catch (Throwable e) {
                unexpected(ctx, e);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf f = (ByteBuf) msg;
            try {
                handle(ctx, f);
            } catch (Wire.ProtocolException | IndexOutOfBoundsException e) {
                fatal(new RemoteChannelException("protocol error from " + peer() + ": " + e.getMessage()));
            } catch (Throwable e) {
                unexpected(ctx, e);
            } finally {
                ReferenceCountUtil.release(f);
            }
        }

        private void handle(ChannelHandlerContext ctx, ByteBuf f) {
            Wire.need(f, 1, "empty");
            byte type = f.readByte();
            if (type == Wire.ERROR) {
                fatal(new RemoteChannelException("refused by " + peer() + ": " + Wire.readText(f)));
                return;
            }
            if (serverNonce == null) {
                if (type != Wire.CHALLENGE) throw new Wire.ProtocolException("expected CHALLENGE, got frame type " + type);
                Wire.need(f, 4 + 1, "CHALLENGE");
                if (f.readInt() != Wire.MAGIC) throw new Wire.ProtocolException("not a bbflow server (bad magic)");
                byte v = f.readByte();
                if (v != Wire.VERSION) {
                    throw new Wire.ProtocolException("server speaks protocol version " + v + ", this end speaks " + Wire.VERSION);
                }
                Wire.need(f, Wire.NONCE + 8, "CHALLENGE");
                serverNonce = new byte[Wire.NONCE];
                f.readBytes(serverNonce);
                serverIncarnationSeen = f.readLong();
                String serverJob = Wire.readIdentity(f);
                String job = options.job();
                String member = options.member();
                byte[] mac = Wire.mac(options.secret(), "bbflow-client", serverNonce, clientNonce, serverIncarnationSeen,
                        NetClient.this.incarnation, job, member);
                boolean named = !job.isEmpty() || !member.isEmpty();
                ByteBuf hello = Wire.frame(ctx.alloc(), Wire.HELLO, 4 + 1 + Wire.NONCE + 8 + 1 + mac.length
                        + (named ? Wire.identityBytes(job) + Wire.identityBytes(member) : 0))
                        .writeInt(Wire.MAGIC).writeByte(Wire.VERSION).writeBytes(clientNonce)
                        .writeLong(NetClient.this.incarnation).writeByte(mac.length).writeBytes(mac);
                if (named) {
                    Wire.writeIdentity(hello, job);
                    Wire.writeIdentity(hello, member);
                }
                ctx.writeAndFlush(hello, ctx.voidPromise()); // also to another job's server: it logs the refusal too
                if (!serverJob.equals(job)) {
                    fatal(new RemoteChannelException("refused: " + peer() + " is a server of job '" + serverJob
                            + "', this client is of job '" + job + "'"));
                }
                return;
            }
            if (!welcomed) {
                if (type != Wire.WELCOME) throw new Wire.ProtocolException("expected WELCOME, got frame type " + type);
                Wire.need(f, 1, "WELCOME");
                byte[] mac = new byte[f.readUnsignedByte()];
                Wire.need(f, mac.length, "WELCOME mac");
                f.readBytes(mac);
                if (options.secret() != null
                        && !Wire.macMatches(Wire.mac(options.secret(), "bbflow-server", clientNonce, serverNonce,
                                serverIncarnationSeen, NetClient.this.incarnation, options.job(), options.member()), mac)) {
                    fatal(new RemoteChannelException("server " + peer() + " did not prove the shared secret"));
                    return;
                }
                welcomed = true;
                handshakeTimer.cancel(false);
                ctx.pipeline().get(Wire.FrameDecoder.class).handshakeDone(options.maxFrameBytes());
                long hb = options.heartbeat().toMillis();
                ctx.pipeline().addBefore("frames", "idle", new IdleStateHandler(3 * hb, hb, 0, TimeUnit.MILLISECONDS));
                ready = true;
                attempt = 0;
                serverIncarnation = serverIncarnationSeen;
                ThrottledLog.quiet(LOG, Level.DEBUG, "connected to {0} (incarnation {1})", peer(), Wire.hex(serverIncarnationSeen));
                for (RemoteOutlet<?> o : outlets.values()) o.attach(ctx.channel(), serverIncarnationSeen);
                return;
            }
            switch (type) {
                case Wire.ATTACHED -> {
                    Wire.need(f, 28, "ATTACHED");
                    RemoteOutlet<?> o = outlets.get(f.readInt());
                    long next = f.readLong(), consumed = f.readLong(), window = f.readLong();
                    if (o != null) o.onAttached(next, consumed, window);
                }
                case Wire.ACK -> {
                    Wire.need(f, 12, "ACK");
                    RemoteOutlet<?> o = outlets.get(f.readInt());
                    long consumed = f.readLong();
                    if (o != null) o.onAck(consumed);
                }
                case Wire.EOS_ACK -> {
                    Wire.need(f, 4, "EOS_ACK");
                    RemoteOutlet<?> o = outlets.get(f.readInt());
                    if (o != null) o.onEosAck();
                }
                case Wire.REJECT -> {
                    Wire.need(f, 4, "REJECT");
                    RemoteOutlet<?> o = outlets.get(f.readInt());
                    String reason = Wire.readText(f);
                    if (o != null) o.onReject(reason, ctx.channel());
                }
                case Wire.PING -> { }
                default -> throw new Wire.ProtocolException("unexpected frame type " + type);
            }
        }

        /** A throwable that is not the server's fault: drop this connection (it is re-established); nothing escapes into the event loop. */
        private void unexpected(ChannelHandlerContext ctx, Throwable e) {
            try {
                lastCause = e;
                NetServer.WARN.log(Level.WARNING, "unexpected", "closing connection to " + peer() + " after an unexpected error", e);
                ctx.close();
            } catch (Throwable ignored) {
                // nothing more can be done for this connection
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            try {
                idleOrTls(ctx, evt);
            } catch (Throwable e) {
                unexpected(ctx, e);
            }
        }

        private void idleOrTls(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent e) {
                if (e.state() == IdleState.READER_IDLE) {
                    lastCause = new RemoteChannelException("server silent for " + 3 * options.heartbeat().toMillis() + " ms");
                    ctx.close();
                } else if (e.state() == IdleState.WRITER_IDLE) {
                    ctx.writeAndFlush(Wire.frame(ctx.alloc(), Wire.PING, 0), ctx.voidPromise());
                }
            } else if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
                if (isTlsVerdict(e.cause())) {
                    fatal(new RemoteChannelException("TLS handshake with " + peer() + " failed: " + e.cause(), e.cause()));
                } else { // closed, cut or too slow: this connection is retried like a plain one
                    if (!handshakeTimedOut) lastCause = e.cause(); // else keep the timer's reason
                    ctx.close();
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            try {
                caught(ctx, cause);
            } catch (Throwable e) {
                unexpected(ctx, e);
            }
        }

        private void caught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            if (c instanceof Wire.ProtocolException) {
                fatal(new RemoteChannelException("protocol error from " + peer() + ": " + c.getMessage()));
            } else if (isTlsVerdict(c)) {
                fatal(new RemoteChannelException("TLS failure with " + peer() + ": " + c, c));
            } else {
                lastCause = c;
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            try {
                if (handshakeTimer != null) handshakeTimer.cancel(false);
                down(ctx.channel(), null);
            } catch (Throwable e) {
                lastCause = e;
            }
        }
    }
}
