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
