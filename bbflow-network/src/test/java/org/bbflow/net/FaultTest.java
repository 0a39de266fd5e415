package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FaultTest {

    @Test
    void tenMillionItemsExactlyOnceInOrderThroughRepeatedCuts() throws Exception {
        long n = 10_000_000L;
        long[] cutAt = {500_000, 2_000_000, 3_500_000, 5_000_000, 7_000_000, 9_000_000};
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts)) {
                    for (long i = 0; i < n; i++) out.send(i);
                    out.complete();
                }
            });
            long k = 0;
            int cuts = 0;
            for (Long x; (x = in.take()) != null; k++) {
                if (x != k) fail("expected item " + k + " but got " + x + " (lost or duplicated across a reconnect)");
                if (cuts < cutAt.length && k == cutAt[cuts]) {
                    proxy.cut();
                    cuts++;
                }
            }
            assertEquals(n, k);
            assertEquals(cutAt.length, cuts);
            sender.get();
            assertTrue(proxy.connectionsAccepted() > cutAt.length, "the client reconnected after each cut");
        }
    }

    @Test
    void deadPeerFailsBothEndsWithinTheTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        NetOptions opts = NetOptions.defaults().withPeerTimeout(timeout).withHeartbeat(Duration.ofMillis(200));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Long> sender = CompletableFuture.supplyAsync(() -> {
                RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts);
                for (long i = 0; ; i++) out.send(i); // endless: only a failure ends it
            });
            for (int i = 0; i < 100_000; i++) assertEquals(i, in.take());
            long t0 = System.nanoTime();
            proxy.close(); // the peer is gone for good: connections dropped, reconnects refused
            RemoteChannelException inErr = drainUntilFailure(in);
            long inMs = (System.nanoTime() - t0) / 1_000_000;
            CompletionException outErr = assertThrows(CompletionException.class, sender::join);
            long outMs = (System.nanoTime() - t0) / 1_000_000;
            assertInstanceOf(RemoteChannelException.class, outErr.getCause());
            assertTrue(outErr.getCause().getMessage().contains("cannot reach"), outErr.getCause().getMessage());
            assertTrue(inErr.getMessage().contains("did not come back"), inErr.getMessage());
            long limit = timeout.toMillis() + 3000;
            assertTrue(inMs < limit && outMs < limit, "failures after " + inMs + " / " + outMs + " ms");
        }
    }

    @Test
    void silentPeerIsDetectedByHeartbeatsAndFailsBothEnds() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        NetOptions opts = NetOptions.defaults().withPeerTimeout(timeout).withHeartbeat(Duration.ofMillis(200));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            CompletableFuture<Long> sender = CompletableFuture.supplyAsync(() -> {
                RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts);
                for (long i = 0; ; i++) out.send(i);
            });
            for (int i = 0; i < 10_000; i++) assertEquals(i, in.take());
            proxy.freeze(); // sockets stay open, nothing moves: only heartbeats can tell
            RemoteChannelException inErr = drainUntilFailure(in);
            assertTrue(inErr.getMessage().contains("did not come back"), inErr.getMessage());
            CompletionException outErr = assertThrows(CompletionException.class, sender::join);
            assertInstanceOf(RemoteChannelException.class, outErr.getCause());
        }
    }

    private static RemoteChannelException drainUntilFailure(RemoteInlet<Long> in) {
        try {
            while (in.take() != null) { /* drain what arrived before the failure */ }
        } catch (RemoteChannelException e) {
            return e;
        }
        throw new AssertionError("stream ended normally although the peer died");
    }
}
