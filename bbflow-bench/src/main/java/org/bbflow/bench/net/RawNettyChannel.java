package org.bbflow.bench.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Raw Netty with the same framing as bbflow-network (length prefix, item count, 64 KiB batches of
 * 8-byte longs), the ceiling our channel is compared with: no sequence numbers, acknowledgements,
 * replay, credits or handshake; backpressure by channel writability only; items decoded and summed
 * on the event loop (no hand-off to a consumer thread).
 */
public final class RawNettyChannel implements AutoCloseable {
    private static final int BATCH = 64 * 1024;

    private final EventLoopGroup serverGroup =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-server", true), NioIoHandler.newFactory());
    private final EventLoopGroup clientGroup =
            new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("raw-client", true), NioIoHandler.newFactory());
    private final Channel server;
    private final Channel client;
    private volatile Run run;
    private final boolean handoff;
    private final java.util.concurrent.ConcurrentLinkedQueue<ByteBuf> frames = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private static final class Run {
        final long expected;
        long received;
        long sum;
        final CompletableFuture<Long> done = new CompletableFuture<>();

        Run(long expected) {
            this.expected = expected;
        }
    }

    public RawNettyChannel() {
        this(false);
    }

    /**
     * With {@code handoff}, the event loop only queues each received frame and {@link #consumeHandedOff}
     * decodes it on another thread: the same thread structure as a bbflow inlet and its consumer.
     */
    public RawNettyChannel(boolean handoff) {
        this.handoff = handoff;
        server = new ServerBootstrap().group(serverGroup).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4));
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf f = (ByteBuf) msg;
                                if (handoff) {
                                    frames.offer(f);
                                    return;
                                }
                                Run r = run;
                                int count = f.readInt();
                                long s = 0;
                                for (int i = 0; i < count; i++) s += f.readLong();
                                f.release();
                                r.sum += s;
                                r.received += count;
                                if (r.received == r.expected) r.done.complete(r.sum);
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
        client = new Bootstrap().group(clientGroup).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(2 << 20, 4 << 20))
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).syncUninterruptibly().channel();
    }

    /** Sends 0..n-1 from the calling thread and waits until the server has summed them all. */
    public long transfer(long n) {
        Run r = new Run(n);
        run = r;
        if (n == 0) return 0;
        send(n);
        return r.done.join();
    }

    /** In handoff mode: sums {@code n} items from the queued frames on the calling thread. */
    public long consumeHandedOff(long n) {
        long received = 0;
        long sum = 0;
        int idle = 0;
        while (received < n) {
            ByteBuf f = frames.poll();
            if (f == null) {
                if (++idle < 100) Thread.onSpinWait(); else { Thread.yield(); idle = 0; }
                continue;
            }
            int count = f.readInt();
            for (int i = 0; i < count; i++) sum += f.readLong();
            f.release();
            received += count;
        }
        return sum;
    }

    /** In handoff mode: sends 0..n-1 from the calling thread (the consumer runs elsewhere). */
    public void sendOnly(long n) {
        run = new Run(Long.MAX_VALUE);
        send(n);
    }

    /** Sends 0..n-1 in length-prefixed batch frames, waiting while the channel is not writable. */
    private void send(long n) {
        ByteBuf b = null;
        int count = 0;
        for (long i = 0; i < n; i++) {
            if (b == null) {
                while (!client.isWritable()) LockSupport.parkNanos(20_000);
                b = PooledByteBufAllocator.DEFAULT.directBuffer(BATCH + 8, BATCH + 8);
                b.writeInt(0).writeInt(0);
                count = 0;
            }
            b.writeLong(i);
            count++;
            if (b.writerIndex() >= BATCH) {
                b.setInt(0, b.writerIndex() - 4).setInt(4, count);
                client.writeAndFlush(b, client.voidPromise());
                b = null;
            }
        }
        if (b != null) {
            b.setInt(0, b.writerIndex() - 4).setInt(4, count);
            client.writeAndFlush(b, client.voidPromise());
        }
    }

    @Override
    public void close() {
        client.close().syncUninterruptibly();
        server.close().syncUninterruptibly();
        clientGroup.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
        serverGroup.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
