package org.bbflow.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The receiving end of remote channels: listens on a TCP port and hosts {@link RemoteInlet}s, one per
 * channel id. Any number of senders may connect; each connection may carry several channels.
 * Register every inlet before its sender connects.
 *
 * <pre>{@code
 * try (NetServer server = NetServer.bind(0, NetOptions.defaults())) {
 *     RemoteInlet<Long> in = server.inlet(1, Codec.longs());
 *     for (Long x; (x = in.take()) != null; ) use(x);
 * }
 * }</pre>
 *
 * <p>A connection that breaks the protocol (bad length, wrong version, failed handshake, unknown
 * frame, data beyond the window) is closed with a logged reason; other connections and channels
 * go on. The server protects itself from abusive peers: it holds at most
 * {@link NetOptions#withMaxConnections} connections (in total and per remote address), closes a
 * connection that has not completed the handshake within {@link NetOptions#withHandshakeTimeout},
 * stops reading from a peer that does not read its replies, and closes a connection that piles up
 * replies or refusals. What it holds for a channel is bounded by the channel's window, each frame
 * counted with a fixed allowance beyond its payload, however small the frames; a flood that uses
 * up the process's file descriptors pauses accepting and breaks nothing for good (what the JDK and
 * Netty would load lazily is loaded before the first server starts). Warnings are rate-limited, and
 * no error in a connection's handling stops the server; if the server can no longer serve (its
 * listening socket or event loop died), every inlet fails with a {@link RemoteChannelException}.
 */
public final class NetServer implements AutoCloseable {
    static final System.Logger LOG = System.getLogger("org.bbflow.net");
    /** Warnings about peers: at most one a second per kind, with a count of those left out. */
    static final ThrottledLog WARN = new ThrottledLog(LOG, TimeUnit.SECONDS.toNanos(1));
    /** Reading from a peer pauses while this many reply bytes wait to be sent to it (Netty's high water mark). */
    static final int PAUSE_READING_BYTES = 64 * 1024;
    /** A connection with more reply bytes than this waiting (the peer reads nothing) is closed. */
    static final int MAX_QUEUED_BYTES = 1 << 20;
    /** A connection with more refused ATTACH frames than this within one second is closed. */
    static final int MAX_REFUSALS_PER_SECOND = 1000;

    private final NetOptions options;
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Channel serverChannel;
    private final int boundPort;
    private final ChannelGroup connections;
    private final Map<Integer, RemoteInlet<?>> inlets = new ConcurrentHashMap<>();
    private final Map<InetAddress, Integer> perAddress = new HashMap<>(); // event-loop confined
    private final long incarnation = Wire.nonZeroRandom();
    private final FinishedStreams finished;
    /** Members refused from now on ({@link #fence}); event-loop confined. */
    private final java.util.Set<String> fenced = new java.util.HashSet<>();
    private volatile boolean closed;
    /** The first {@link #close()} takes this; a later one waits for {@link #closeDone}. */
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.CountDownLatch closeDone = new java.util.concurrent.CountDownLatch(1);
    /** Test hook: given the server, runs in its first close before anything is closed (null in production). */
    static volatile java.util.function.Consumer<NetServer> closeHook;
    private volatile boolean stopped;

    private NetServer(String host, int port, NetOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        InetAddress address = resolve(host, port); // before any thread or socket exists
        Preload.once(); // what the JDK and Netty would load lazily, while descriptors are free
        this.finished = new FinishedStreams(options.peerTimeout()); // before the thread: nothing may fail after it but the bind
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bbflow-net-server", true), NioIoHandler.newFactory());
        this.loop = group.next();
        this.connections = new DefaultChannelGroup(loop);
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(PAUSE_READING_BYTES / 2, PAUSE_READING_BYTES))
                .handler(new Listener())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (!admit(ch)) return;
                        if (options.ssl() != null) ch.pipeline().addLast("tls", options.ssl().newHandler(ch.alloc()));
                        ch.pipeline().addLast("frames", new Wire.FrameDecoder());
                        ch.pipeline().addLast("protocol", new Connection());
                    }
                });
        ChannelFuture bound = b.bind(address, port).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            // nothing may outlive a failed bind: its socket, the event loop's thread and selector
            bound.channel().close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            throw bindFailure(host, address, port, bound.cause());
        }
        this.serverChannel = bound.channel();
        this.boundPort = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        ThrottledLog.quiet(LOG, Level.DEBUG, "listening on {0} with {1}", serverChannel.localAddress(), options);
        serverChannel.closeFuture().addListener(f -> stopped("its listening socket closed"));
        loop.terminationFuture().addListener(f -> stopped("its event loop stopped"));
    }

    private static InetAddress resolve(String host, int port) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": the host name does not resolve ("
                    + e.getMessage() + ")", e);
        }
    }

    /** Why {@code host:port} could not be bound, in words, with the socket layer's exception as the cause. */
    private static UncheckedIOException bindFailure(String host, InetAddress address, int port, Throwable cause) {
        String why = String.valueOf(cause.getMessage());
        if (!isLocal(address)) {
            why = host + " is not an address of this machine (" + why + ")";
        } else if (why.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
            why = "the address is already in use (another server listens on that port)";
        }
        IOException io = cause instanceof IOException e ? e : new IOException(cause);
        return new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + why, io);
    }

    private static boolean isLocal(InetAddress address) {
        try {
            return address.isAnyLocalAddress() || address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (IOException e) {
            return true; // cannot tell: say nothing about it
        }
    }

    /** Counts a new connection against the limits; closes it (and returns false) if it is over one. */
    private boolean admit(SocketChannel ch) {
        InetSocketAddress remote = ch.remoteAddress();
        if (remote == null) { // gone before it could be set up
            ch.close();
            return false;
        }
        InetAddress a = remote.getAddress();
        int fromThere = perAddress.getOrDefault(a, 0);
        if (connections.size() >= options.maxConnections() || fromThere >= options.maxConnectionsPerAddress()) {
            WARN.log(Level.WARNING, "limit", "refusing connection from {0}: {1} connections open, {2} from that address"
                    + " (limits {3} and {4})", ch.remoteAddress(), connections.size(), fromThere,
                    options.maxConnections(), options.maxConnectionsPerAddress());
            ch.close();
            return false;
        }
        perAddress.put(a, fromThere + 1);
        ch.closeFuture().addListener(f -> perAddress.computeIfPresent(a, (k, n) -> n == 1 ? null : n - 1));
        connections.add(ch);
        return true;
    }

    /**
     * The server can no longer serve (listening socket or event loop gone, not by {@link #close()}):
     * fail every inlet instead of letting its consumer wait for ever.
     */
    private void stopped(String why) {
        if (closed || stopped) return;
        stopped = true;
        RemoteChannelException e = new RemoteChannelException("server on port " + boundPort + " stopped: " + why);
        WARN.log(Level.ERROR, "stopped", e.getMessage());
        for (RemoteInlet<?> in : inlets.values()) {
            try {
                in.fail(e);
            } catch (Throwable ignored) {
                // fail the others all the same
            }
        }
        serverChannel.close();
        connections.close();
    }

    /** The address listened on (for tests and monitoring). */
    InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Open connections (for tests and monitoring); each is counted until it has closed. */
    int connectionCount() {
        return connections.size();
    }

    /** Reply bytes waiting to be sent, summed over all connections; call from outside the event loop. */
    long queuedBytes() {
        try {
            return loop.submit(() -> {
                long sum = 0;
                for (Channel c : connections) {
                    ChannelOutboundBuffer b = c.unsafe().outboundBuffer();
                    if (b != null) sum += b.totalPendingWriteBytes();
                }
                return sum;
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return -1;
        }
    }

    /**
     * The listening socket's handler: a failure to accept (too many open files, ...) is logged at most
     * once a second and pauses accepting for 100 ms instead of spinning or reaching Netty's own logging.
     */
    private final class Listener extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            try {
                WARN.log(Level.WARNING, "accept", "cannot accept a connection on port {0}: {1}", boundPort, cause);
                ctx.channel().config().setAutoRead(false);
                ctx.executor().schedule(() -> ctx.channel().config().setAutoRead(true), 100, TimeUnit.MILLISECONDS);
            } catch (Throwable ignored) {
                // the next accept will tell
            }
        }
    }

    /**
     * Listens on {@code port} (0 for an ephemeral port): on all interfaces if {@code options}
     * authenticate clients (a shared secret, or a TLS context that requires client certificates),
     * otherwise on the loopback address only, so that nothing listens unauthenticated beyond this
     * machine unless asked. A server-only TLS context proves the server to its clients but lets any
     * client in, so alone it keeps the server on loopback. To ask, name the address with
     * {@link #bind(String, int, NetOptions)} (e.g. {@code "0.0.0.0"}).
     *
     * @param port the port, or 0 for an ephemeral one
     * @param options batching, window, timeouts and security
     * @return the listening server
     * @throws UncheckedIOException if the port cannot be bound (its cause is the {@link java.net.BindException});
     *     the message names the address and port. Nothing is left behind: no thread, no socket.
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static NetServer bind(int port, NetOptions options) {
        Objects.requireNonNull(options, "options");
        boolean authenticated = options.secret() != null || (options.ssl() != null && requiresClientCertificates(options.ssl()));
        return bind(authenticated ? "0.0.0.0" : InetAddress.getLoopbackAddress().getHostAddress(), port, options);
    }

    /**
     * Whether a TLS context makes every client present a certificate it trusts: only then does TLS
     * authenticate clients (before, any TLS context counted, and a server-only one listened on every
     * interface to anyone). Asked of an engine the context makes, released at once.
     */
    static boolean requiresClientCertificates(io.netty.handler.ssl.SslContext ssl) {
        if (!ssl.isServer()) {
            return false;
        }
        javax.net.ssl.SSLEngine engine = ssl.newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT);
        try {
            return engine.getNeedClientAuth();
        } finally {
            io.netty.util.ReferenceCountUtil.release(engine);
        }
    }

    /**
     * Listens on {@code host:port} (port 0 for an ephemeral port).
     *
     * @param host the address to listen on
     * @param port the port, or 0 for an ephemeral one
     * @param options batching, window, timeouts and security
     * @return the listening server
     * @throws UncheckedIOException if {@code host:port} cannot be bound: the port is in use, {@code host} is
     *     not an address of this machine or does not resolve (the cause is the {@link java.net.BindException}
     *     or {@link UnknownHostException}); the message names host and port. Nothing is left behind: no
     *     thread, no socket.
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static NetServer bind(String host, int port, NetOptions options) {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
        return new NetServer(Objects.requireNonNull(host, "host"), port, options);
    }

    /**
     * The port listened on.
     *
     * @return the port
     */
    public int port() {
        return boundPort;
    }

    /**
     * Registers the inlet of channel {@code channelId}: the receiving end of exactly one stream, sent
     * by a {@link RemoteOutlet} with the same id.
     *
     * @param <T> item type
     * @param channelId the channel id, unique on this server
     * @param codec decodes the items
     * @return the inlet
     * @throws IllegalStateException if the id is taken or the server is closed
     */
    public <T> RemoteInlet<T> inlet(int channelId, Codec<T> codec) {
        Objects.requireNonNull(codec, "codec");
        if (closed || stopped) throw new IllegalStateException("server closed");
        RemoteInlet<T> inlet = new RemoteInlet<>(this, channelId, codec);
        if (inlets.putIfAbsent(channelId, inlet) != null) {
            throw new IllegalStateException("channel id " + channelId + " already has an inlet on port " + port());
        }
        return inlet;
    }

    /**
     * Fences a member of the job ({@link NetOptions#withIdentity}): closes every connection whose
     * client named {@code member} in its handshake and refuses such connections from now on, saying
     * the member was replaced. Used when a newer generation of a process takes over from one thought
     * lost, so that the old one (stopped, then resumed) cannot reach this server again.
     *
     * @param member the member to refuse, not empty
     * @param why the reason told to the refused peer
     */
    public void fence(String member, String why) {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(why, "why");
        if (member.isEmpty()) throw new IllegalArgumentException("fence needs a member");
        try {
            loop.submit(() -> {
                fenced.add(member);
                for (Channel c : connections) {
                    Connection conn = c.pipeline().get(Connection.class);
                    if (conn != null && member.equals(conn.peerMember)) conn.reject("member " + member + " is fenced: " + why);
                }
            }).awaitUninterruptibly(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the server is gone: nothing reaches it any more
        }
    }

    /**
     * Closes the listening socket and every connection; inlets that have not seen EOS fail. Returns
     * once the port is free, also when another thread's close of this server is under way: that one
     * closes, this one waits for it (at most as long as a close takes, about 12 s).
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            // Another thread closes this server: wait until it has. Returning at once left the port bound
            // for a moment, so a process restarted on it was refused ("address already in use": a
            // distributed group killed, its own thread and the kill both closing its server, CI 2026-11-28).
            try {
                if (!closeDone.await(15, TimeUnit.SECONDS)) {
                    ThrottledLog.quiet(LOG, Level.WARNING, "server on port {0}: another thread''s close did not end within 15 s", port());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        closed = true;
        try {
            java.util.function.Consumer<NetServer> hook = closeHook;
            if (hook != null) hook.accept(this);
            Wire.run(loop, () -> {
                for (RemoteInlet<?> in : inlets.values()) in.fail(new RemoteChannelException("server on port " + port() + " closed"));
            });
            serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS); // not sync: the loop may be gone already
            connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        } finally {
            closeDone.countDown();
        }
    }

    NetOptions options() { return options; }
    EventLoop loop() { return loop; }
    void remove(RemoteInlet<?> inlet) { inlets.remove(inlet.channelId(), inlet); }
    FinishedStreams finished() { return finished; }

    /** One accepted connection: handshake, then channel frames dispatched to the inlets. Event-loop confined. */
    final class Connection extends ChannelInboundHandlerAdapter {
        private final byte[] serverNonce = Wire.nonce();
        private final Map<Integer, RemoteInlet<?>> attached = new HashMap<>();
        private final java.util.Set<Integer> closedByReceiver = new java.util.HashSet<>();
        private final Map<Integer, Long> finishedAttached = new HashMap<>();
        private long peerIncarnation;
        private String peerMember = "";
        private ChannelHandlerContext ctx;
        private boolean authenticated;
        private boolean closing;
        private ScheduledFuture<?> handshakeTimer;
        private Wire.FrameDecoder frames;
        private long refusalSecond;
        private int refusals;

        SocketAddress remote() { return ctx.channel().remoteAddress(); }

        Channel channel() { return ctx.channel(); }

        void detach(int channelId) { attached.remove(channelId); }

        /** The incarnation of the sender's {@link NetClient}, from its HELLO. */
        long peerIncarnation() { return peerIncarnation; }

        /**
         * Whether the peer proved who it is: it knew the shared secret, or presented a client certificate
         * the server requires (mutual TLS). Only a proven peer's new incarnation fences a connected sender.
         */
        boolean proven() {
            if (options.secret() != null) return true;
            io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
            return tls != null && tls.engine().getNeedClientAuth();
        }

        /** The inlet no longer takes this connection's stream on {@code channelId}: tell the sender why, drop what is in flight. */
        void revoke(int channelId, String reason) {
            attached.remove(channelId);
            closedByReceiver.add(channelId);
            if (!roomToReply()) return;
            ctx.writeAndFlush(Wire.text(ctx.alloc(), Wire.REJECT, channelId, reason), ctx.voidPromise());
        }

        /** The receiver closed the inlet mid-stream: tell the sender, drop what it still sends on that channel. */
        void closedByReceiver(int channelId) {
            attached.remove(channelId);
            closedByReceiver.add(channelId);
            if (!roomToReply()) return;
            ctx.writeAndFlush(Wire.text(ctx.alloc(), Wire.REJECT, channelId, "inlet of channel " + channelId
                    + " was closed by the receiver"), ctx.voidPromise());
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            try {
                String job = options.job();
                ByteBuf b = Wire.frame(ctx.alloc(), Wire.CHALLENGE, 4 + 1 + Wire.NONCE + 8 + (job.isEmpty() ? 0 : Wire.identityBytes(job)))
                        .writeInt(Wire.MAGIC).writeByte(Wire.VERSION).writeBytes(serverNonce).writeLong(incarnation);
                if (!job.isEmpty()) Wire.writeIdentity(b, job);
                ctx.writeAndFlush(b, ctx.voidPromise());
                long t = options.handshakeTimeout().toMillis();
                handshakeTimer = ctx.executor().schedule(() -> {
                    try {
                        if (!authenticated) {
                            closing = true;
                            WARN.log(Level.WARNING, "handshake timeout", "closing connection from {0}: no handshake within {1} ms",
                                    remote(), t);
                            ctx.close();
                        }
                    } catch (Throwable e) {
                        unexpected(e);
                    }
                }, t, TimeUnit.MILLISECONDS);
            } catch (Throwable e) {
                unexpected(e);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (!closing) handle((ByteBuf) msg);
            } catch (Wire.ProtocolException | IndexOutOfBoundsException | IllegalArgumentException e) {
                reject(e.getMessage());
            } catch (Throwable e) {
                unexpected(e);
            } finally {
                try {
                    ReferenceCountUtil.release(msg);
                } catch (Throwable e) {
                    unexpected(e);
                }
            }
        }

        /** Reading pauses while the peer does not take our replies, and resumes when it does. */
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            try {
                if (!closing) ctx.channel().config().setAutoRead(ctx.channel().isWritable());
            } catch (Throwable e) {
                unexpected(e);
            }
        }

        /**
         * Whether a reply may be queued; a peer that lets {@link #MAX_QUEUED_BYTES} pile up does not
         * read, and its connection is closed (without a reason it would not read either).
         */
        private boolean roomToReply() {
            if (closing) return false;
            ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
            if (out == null || out.totalPendingWriteBytes() <= MAX_QUEUED_BYTES) return true;
            closing = true;
            WARN.log(Level.WARNING, "not reading", "closing connection from {0}: it does not read; {1} bytes of replies queued",
                    remote(), out.totalPendingWriteBytes());
            ctx.close();
            return false;
        }

        /** Counts a refused ATTACH; a peer refused more than {@link #MAX_REFUSALS_PER_SECOND} times in a second is closed. */
        private boolean refusalAllowed() {
            long second = System.nanoTime() / 1_000_000_000L;
            if (second != refusalSecond) {
                refusalSecond = second;
                refusals = 0;
            }
            if (++refusals <= MAX_REFUSALS_PER_SECOND) return true;
            // closed without an ERROR frame: an honest client with many outlets waiting for their inlets reconnects
            closing = true;
            WARN.log(Level.WARNING, "refusals", "closing connection from {0}: more than {1} refused ATTACH frames within a second",
                    remote(), MAX_REFUSALS_PER_SECOND);
            ctx.close();
            return false;
        }

        /**
         * A throwable that is not the peer's fault: this connection is in an unknown state, so it is
         * closed; nothing escapes into the event loop.
         */
        private void unexpected(Throwable e) {
            try {
                closing = true;
                WARN.log(Level.WARNING, "unexpected", "closing connection from " + remote() + " after an unexpected error", e);
                if (ctx != null) ctx.close();
            } catch (Throwable ignored) {
                // nothing more can be done for this connection
            }
        }

        private void handle(ByteBuf f) {
            Wire.need(f, 1, "empty");
            byte type = f.readByte();
            if (!authenticated) {
                if (type != Wire.HELLO) throw new Wire.ProtocolException("expected HELLO, got frame type " + type);
                hello(f);
                return;
            }
            switch (type) {
                case Wire.ATTACH -> {
                    Wire.need(f, 20, "ATTACH");
                    int ch = f.readInt();
                    long stream = f.readLong();
                    long resumeFrom = f.readLong();
                    long total = finished.total(ch, stream);
                    if (total == FinishedStreams.CLOSED) { // its inlet was closed mid-stream; the REJECT may have been lost
                        if (!refusalAllowed()) return;
                        if (roomToReply()) ctx.writeAndFlush(Wire.text(ctx.alloc(), Wire.REJECT, ch, "inlet of channel " + ch
                                + " was closed by the receiver"), ctx.voidPromise());
                        return;
                    }
                    if (total >= 0) { // delivered already; the end-of-stream acknowledgement was lost
                        finishedAttached.put(ch, total);
                        if (roomToReply()) ctx.writeAndFlush(Wire.frame(ctx.alloc(), Wire.ATTACHED, 28).writeInt(ch).writeLong(total)
                                .writeLong(total).writeLong(options.windowBytes()), ctx.voidPromise());
                        return;
                    }
                    RemoteInlet<?> inlet = inlets.get(ch);
                    String refusal = inlet == null ? Wire.NO_INLET + ch + " on port " + port()
                            : inlet.attach(this, stream, resumeFrom);
                    if (refusal != null) {
                        if (!refusalAllowed()) return;
                        WARN.log(inlet == null ? Level.DEBUG : Level.WARNING, inlet == null ? "no inlet" : "refused",
                                "refusing channel {0} from {1}: {2}", ch, remote(), refusal);
                        if (roomToReply()) ctx.writeAndFlush(Wire.text(ctx.alloc(), Wire.REJECT, ch, refusal), ctx.voidPromise());
                    } else {
                        attached.put(ch, inlet);
                    }
                }
                case Wire.DATA -> {
                    Wire.need(f, 16, "DATA");
                    int ch = f.readInt();
                    long first = f.readLong();
                    int count = f.readInt();
                    RemoteInlet<?> inlet = inletFor(ch);
                    if (inlet != null) inlet.onData(this, first, count, f, frames.pinnedCapacity());
                }
                case Wire.EOS, Wire.FAILED_EOS -> {
                    Wire.need(f, type == Wire.EOS ? 12 : Wire.FAILED_EOS_HEADER, type == Wire.EOS ? "EOS" : "FAILED_EOS");
                    int ch = f.readInt();
                    long total = f.readLong();
                    // the whole frame is checked before any channel is looked up: a malformed one always closes
                    String senderFailure = type == Wire.EOS ? null : Wire.readFailure(f);
                    RemoteInlet<?> inlet = inletFor(ch);
                    if (inlet != null) {
                        if (inlet.onEos(this, total, senderFailure) && roomToReply()) {
                            ctx.writeAndFlush(Wire.control(ctx.alloc(), Wire.EOS_ACK, ch), ctx.voidPromise());
                        }
                    } else if (finishedAttached.remove(ch) != null) {
                        if (roomToReply()) ctx.writeAndFlush(Wire.control(ctx.alloc(), Wire.EOS_ACK, ch), ctx.voidPromise());
                    }
                }
                case Wire.ABORT -> {
                    Wire.need(f, 4, "ABORT");
                    int ch = f.readInt();
                    RemoteInlet<?> inlet = attached.get(ch); // not attached (refused, or closed by the receiver): nothing to abort
                    if (inlet != null) inlet.fail(new RemoteChannelException("channel " + ch + ": sender " + remote() + " aborted the stream: "
                            + Wire.readText(f)));
                }
                case Wire.PING -> { }
                default -> throw new Wire.ProtocolException("unexpected frame type " + type);
            }
        }

        /** The inlet attached as {@code ch}; null for a channel its receiver closed (frames still in flight are dropped). */
        private RemoteInlet<?> inletFor(int ch) {
            RemoteInlet<?> inlet = attached.get(ch);
            if (inlet == null && (closedByReceiver.contains(ch) || finishedAttached.containsKey(ch))) return null;
            if (inlet == null) throw new Wire.ProtocolException("frame for channel " + ch + " which is not attached");
            return inlet;
        }

        private void hello(ByteBuf f) {
            Wire.need(f, 4 + 1, "HELLO");
            int magic = f.readInt();
            if (magic != Wire.MAGIC) throw new Wire.ProtocolException("not a bbflow peer (bad magic)");
            byte version = f.readByte();
            if (version != Wire.VERSION) {
                throw new Wire.ProtocolException("unsupported protocol version " + version + ", this end speaks " + Wire.VERSION);
            }
            Wire.need(f, Wire.NONCE + 8 + 1, "HELLO");
            byte[] clientNonce = new byte[Wire.NONCE];
            f.readBytes(clientNonce);
            peerIncarnation = f.readLong();
            int macLen = f.readUnsignedByte();
            Wire.need(f, macLen, "HELLO mac");
            byte[] mac = new byte[macLen];
            f.readBytes(mac);
            String job = Wire.readIdentity(f);
            String member = Wire.readIdentity(f);
            // before the MAC: a peer of another job is told so, whatever its secret
            if (!job.equals(options.job())) {
                throw new Wire.ProtocolException("a peer of job '" + job + "' refused: this server runs job '" + options.job() + "'");
            }
            if (!member.isEmpty() && fenced.contains(member)) {
                throw new Wire.ProtocolException("member " + member + " of job '" + job + "' is fenced: a newer generation replaced it");
            }
            byte[] secret = options.secret();
            if (secret != null && !Wire.macMatches(
                    Wire.mac(secret, "bbflow-client", serverNonce, clientNonce, incarnation, peerIncarnation, job, member), mac)) {
                throw new Wire.ProtocolException("authentication failed (wrong or missing shared secret)");
            }
            peerMember = member;
            byte[] reply = Wire.mac(secret, "bbflow-server", clientNonce, serverNonce, incarnation, peerIncarnation, job, member);
            ctx.writeAndFlush(Wire.frame(ctx.alloc(), Wire.WELCOME, 1 + reply.length).writeByte(reply.length).writeBytes(reply),
                    ctx.voidPromise());
            authenticated = true;
            handshakeTimer.cancel(false);
            frames = ctx.pipeline().get(Wire.FrameDecoder.class);
            frames.handshakeDone(options.maxFrameBytes());
            long hb = options.heartbeat().toMillis();
            ctx.pipeline().addBefore("frames", "idle", new IdleStateHandler(3 * hb, hb, 0, TimeUnit.MILLISECONDS));
        }

        /** Closes this connection after telling the peer why; logs the reason. */
        void reject(String reason) {
            if (closing) return;
            closing = true;
            try {
                WARN.log(Level.WARNING, "protocol", "closing connection from {0}: {1}", ctx.channel().remoteAddress(), reason);
                ctx.writeAndFlush(Wire.text(ctx.alloc(), Wire.ERROR, -1, reason)).addListener(ChannelFutureListener.CLOSE);
                ctx.executor().schedule(() -> { ctx.close(); }, 1, TimeUnit.SECONDS); // even if the peer does not read the reason
            } catch (Throwable e) {
                unexpected(e);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            try {
                if (evt instanceof IdleStateEvent e) {
                    if (e.state() == IdleState.READER_IDLE) {
                        closing = true;
                        WARN.log(Level.WARNING, "silent", "closing connection from {0}: {1} for {2} ms", remote(),
                                ctx.channel().isWritable() ? "silent" : "not reading our replies",
                                3 * options.heartbeat().toMillis());
                        ctx.close();
                    } else if (e.state() == IdleState.WRITER_IDLE) {
                        ctx.writeAndFlush(Wire.frame(ctx.alloc(), Wire.PING, 0), ctx.voidPromise());
                    }
                } else if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
                    closing = true;
                    WARN.log(Level.WARNING, "tls", "closing connection from {0}: TLS handshake failed: {1}", remote(), e.cause());
                    ctx.close();
                }
            } catch (Throwable e) {
                unexpected(e);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            try {
                Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
                if (c instanceof Wire.ProtocolException) {
                    reject(c.getMessage());
                } else if (c instanceof SSLException) {
                    closing = true;
                    WARN.log(Level.WARNING, "tls", "closing connection from {0}: TLS failure: {1}", remote(), c.toString());
                    ctx.close();
                } else if (c instanceof IOException) {
                    closing = true;
                    ThrottledLog.quiet(LOG, Level.DEBUG, "connection from {0} broke: {1}", remote(), c.toString());
                    ctx.close();
                } else {
                    unexpected(c);
                }
            } catch (Throwable e) {
                unexpected(e);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closing = true;
            try {
                if (handshakeTimer != null) handshakeTimer.cancel(false);
                for (RemoteInlet<?> in : attached.values()) {
                    try {
                        in.detached(this);
                    } catch (Throwable e) {
                        WARN.log(Level.WARNING, "unexpected", "error while detaching channel " + in.channelId(), e);
                    }
                }
                attached.clear();
            } catch (Throwable e) {
                unexpected(e);
            }
        }
    }
}
