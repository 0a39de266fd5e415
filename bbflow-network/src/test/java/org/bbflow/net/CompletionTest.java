package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/** End of stream is explicit: an outlet closed without {@code complete()} aborts, so a truncated stream never looks whole. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompletionTest {

    /** Reads until the end or a failure; returns the items read, or -(items + 1) if it ended with a RemoteChannelException. */
    private static long[] readAll(RemoteInlet<?> in) {
        long k = 0;
        try {
            while (in.take() != null) k++;
            return new long[] {k, 0};
        } catch (RemoteChannelException e) {
            return new long[] {k, 1};
        }
    }

    @Test
    void exceptionInsideTheSendLoopAbortsInsteadOfEndingTheStream() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults())) {
                    for (long i = 0; i < 1_000_000; i++) {
                        if (i == 500_000) throw new IllegalStateException("producer bug at item " + i);
                        out.sendLong(i);
                    }
                    out.complete();
                }
            });
            long[] r = readAll(in);
            assertEquals(1, r[1], "the receiver must fail, not see a clean end after " + r[0] + " items");
            assertTrue(r[0] <= 500_000, "read " + r[0]);
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("without complete()"), e.getMessage());
            assertThrows(Exception.class, sender::join);
        }
    }

    /**
     * The ABORT of a sender that fails while its connection is backed up (a slow reader: the proxy
     * reads nothing) must still reach the receiver, whatever is queued before it and however the
     * sender's side is closed right after: its own connection (an outlet with a connection of its
     * own) or the shared client's close(). The proxy floods the client with heartbeats, so the
     * client always has unread input when it closes: a plain close then resets the connection and
     * the kernel drops the unsent tail, the ABORT with it. Rounds alternate how the sender's side
     * closes; seeded: the amount queued and when the proxy lets go. A lost ABORT shows as the receiver waiting out the peer
     * timeout and failing with another message.
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void abortReachesTheReceiverBehindQueuedDataAndAClose() throws Exception {
        long seed = TestSeed.current();
        System.out.println("abortReachesTheReceiverBehindQueuedDataAndAClose seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        NetOptions opts = NetOptions.defaults().withWindowBytes(16L << 20).withPeerTimeout(java.time.Duration.ofSeconds(8));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             HoldingProxy proxy = new HoldingProxy(server.port())) {
            for (int round = 0; round < 12; round++) {
                int ch = round + 1;
                boolean sharedClient = round % 2 == 0;
                int queued = random.nextInt(4) == 0 ? 1 + random.nextInt(1000) : 10_000 + random.nextInt(1_500_000);
                long releaseAfterMs = random.nextInt(3) == 0 ? 0 : 50 + random.nextInt(250);
                String what = "seed " + seed + ", round " + round + (sharedClient ? ", shared client closed" : ", own connection")
                        + ", " + queued + " items queued, released after " + releaseAfterMs + " ms";
                RemoteInlet<Long> in = server.inlet(ch, Codec.longs());
                NetClient client = sharedClient ? NetClient.connect("127.0.0.1", proxy.port(), opts) : null;
                RemoteOutlet<Long> out = sharedClient ? client.outlet(ch, Codec.longs())
                        : NetClient.outlet("127.0.0.1", proxy.port(), ch, Codec.longs(), opts);
                CompletableFuture<Void> closing = null;
                try {
                    out.sendLong(0);
                    assertEquals(0L, in.take(), what); // attached and flowing; the handshake is over
                    proxy.chatter(true);
                    proxy.hold();
                    for (long i = 1; i <= queued; i++) out.sendLong(i); // within the window: never waits
                    out.close(); // the producer failed: abort
                    if (sharedClient) closing = CompletableFuture.runAsync(client::close);
                    if (releaseAfterMs > 0) Thread.sleep(releaseAfterMs); // lets the close run first; decides nothing
                    proxy.release();
                    long t0 = System.nanoTime();
                    long[] r = readAll(in);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(1, r[1], "the receiver must fail, not see a clean end; " + what);
                    RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
                    assertTrue(e.getMessage().contains("without complete()"), "ABORT lost (" + ms + " ms): " + e.getMessage()
                            + "; " + what);
                    assertTrue(r[0] <= queued, "read " + r[0] + "; " + what);
                } finally {
                    proxy.chatter(false);
                    proxy.release();
                    in.close();
                    if (closing != null) closing.get(30, TimeUnit.SECONDS);
                    if (client != null) client.close();
                }
            }
        }
    }

    /** A codec whose encoder runs out of memory on one item, as an outlet's send can. */
    private static final class ChokingStrings implements Codec<String> {
        @Override
        public void encode(String item, ByteBuf out) {
            if (item.equals("huge")) throw new OutOfMemoryError("simulated: Java heap space");
            byte[] b = item.getBytes(StandardCharsets.UTF_8);
            out.writeInt(b.length).writeBytes(b);
        }

        @Override
        public String decode(ByteBuf in) {
            return in.readCharSequence(in.readInt(), StandardCharsets.UTF_8).toString();
        }
    }

    @Test
    void errorThrownBySendAbortsTheStream() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<String> in = server.inlet(1, new ChokingStrings());
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<String> out = NetClient.outlet("127.0.0.1", server.port(), 1, new ChokingStrings(),
                        NetOptions.defaults())) {
                    for (int i = 0; i < 1000; i++) out.send("item " + i);
                    out.send("huge");
                    out.complete();
                }
            });
            long[] r = readAll(in);
            assertEquals(1, r[1], "the receiver must fail, not see a clean end after " + r[0] + " items");
            CompletableFuture<Void> s = sender.exceptionally(t -> null);
            s.join();
            assertTrue(sender.isCompletedExceptionally());
        }
    }

    @Test
    void completeEndsTheStreamAndCloseAfterwardsIsHarmless() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults());
            for (long i = 0; i < 1000; i++) out.sendLong(i);
            out.complete();
            out.complete(); // idempotent
            out.close();    // after complete(): nothing to abort
            assertArrayEquals(new long[] {1000, 0}, readAll(in));
            assertTrue(in.isEos());
            assertThrows(IllegalStateException.class, () -> out.send(1L));
        }
    }

    @Test
    void completeAfterCloseIsRefused() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults());
            out.close();
            assertThrows(RuntimeException.class, out::complete);
        }
    }

    @Test
    void outletNodeCompletesAtEndOfStreamAndAbortsWhenItsFlowFails() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            AtomicLong got = new AtomicLong();
            Flow back = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 1, Codec.longs()), Nodes.sink((Long x) -> got.incrementAndGet())));
            Pipeline.of(Nodes.range(1, 10_000), RemoteBlocks.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults())).run();
            back.join();
            assertEquals(10_000, got.get());

            Flow failing = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 2, Codec.longs()), Nodes.sink((Long x) -> { })));
            FlowException sendSide = assertThrows(FlowException.class, () -> Pipeline.of(Nodes.range(1, 10_000),
                    Nodes.map((Long x) -> {
                        if (x == 5000) throw new IllegalStateException("boom");
                        return x;
                    }),
                    RemoteBlocks.outlet("127.0.0.1", server.port(), 2, Codec.longs(), NetOptions.defaults())).run());
            assertNotNull(sendSide);
            FlowException receiveSide = assertThrows(FlowException.class, failing::join);
            assertTrue(TwoJvmTest.hasRemoteCause(receiveSide), () -> "receiver side: " + receiveSide);
        }
    }
}
