package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * A TLS connection closed, cut or delayed during its handshake is retried with backoff like a plain
 * one; only a TLS verdict (a certificate rejected, an alert) is final (issue 34, finding 1). Seeded:
 * rerun with {@code -Dbbflow.seed=<seed>}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsRetryTest {
    static TestCerts serverId;
    static TestCerts strangerId;
    static final long SEED = TestSeed.current();

    @BeforeAll
    static void certificates(@TempDir Path dir) throws Exception {
        System.out.println("TlsRetryTest seed " + SEED + " (rerun with -Dbbflow.seed=" + SEED + ")");
        serverId = TestCerts.generate(dir, "server");
        strangerId = TestCerts.generate(dir, "stranger");
    }

    /** Sends {@code n} longs to {@code port}; the inlet must see exactly 0..n-1, and the sender complete. */
    static void exactStream(NetServer server, int channel, int port, NetOptions client, long n) throws Exception {
        RemoteInlet<Long> in = server.inlet(channel, Codec.longs());
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
            try (RemoteOutlet<Long> out = NetClient.outlet("localhost", port, channel, Codec.longs(), client)) {
                for (long i = 0; i < n; i++) out.sendLong(i);
                out.complete();
            }
        });
        CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> {
            long k = 0;
            for (Long x; (x = in.take()) != null; k++) {
                if (x != k) throw new AssertionError("expected item " + k + ", got " + x);
            }
            return k;
        });
        CompletableFuture.anyOf(sender, received).get(40, TimeUnit.SECONDS);
        if (sender.isCompletedExceptionally()) sender.get(); // the sender's failure, not the receiver's wait
        assertEquals(n, received.get(40, TimeUnit.SECONDS), "seed " + SEED);
        sender.get(40, TimeUnit.SECONDS);
    }

    /** Rounds of {@link #handshakesCutOrLateAreRetried} (each with its own seed): 1 by default, more with {@code -Dbbflow.tlsRetryRounds}. */
    static final int ROUNDS = Integer.getInteger("bbflow.tlsRetryRounds", 1);

    @Test
    void handshakesCutOrLateAreRetried() throws Exception {
        for (int round = 0; round < ROUNDS; round++) cutsAndDelays(SEED + round);
    }

    private static void cutsAndDelays(long seed) throws Exception {
        Random random = new Random(seed);
        NetOptions srv = NetOptions.defaults().withTls(serverId.server());
        // heartbeat 100 ms: the client gives a handshake 1 s (its floor) before it drops the connection
        NetOptions cli = NetOptions.defaults().withTls(serverId.clientTrustingThis()).withHeartbeat(Duration.ofMillis(100));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, srv);
             TestProxy proxy = new TestProxy(server.port())) {
            // the server's first TLS flight (hello, certificate, finished) is about 800 bytes: cuts inside it
            List<TestProxy.Sabotage> plans = new ArrayList<>();
            for (int i = 0; i < 6; i++) plans.add(new TestProxy.Sabotage(random.nextInt(700), 0));
            plans.add(new TestProxy.Sabotage(-1, 1500)); // the server's first bytes later than the client waits
            plans.add(new TestProxy.Sabotage(random.nextInt(700), 300)); // late, then cut
            java.util.Collections.shuffle(plans, random);
            plans.add(new TestProxy.Sabotage(-1, 300)); // late, but in time: this connection carries the stream
            proxy.sabotage(plans);
            exactStream(server, 1, proxy.port(), cli, 200_000);
            assertTrue(proxy.connectionsAccepted() >= plans.size(), "the sabotaged connections were not all tried: "
                    + proxy.connectionsAccepted() + ", seed " + seed);
        }
    }

    /** Half-open TLS connections (a TLS record header, then nothing) that keep every slot of a server taken for a while. */
    static final class HalfOpenFlood implements AutoCloseable {
        final List<Socket> sockets = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicInteger opened = new AtomicInteger();
        final Thread thread;

        HalfOpenFlood(int port, int slots, long forMillis) {
            thread = new Thread(() -> {
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(forMillis);
                List<Socket> open = new ArrayList<>();
                try {
                    while (!stop.get() && System.nanoTime() < end) {
                        open.removeIf(Socket::isClosed);
                        while (open.size() < slots && System.nanoTime() < end) {
                            Socket s = new Socket(InetAddress.getByName("127.0.0.1"), port);
                            s.getOutputStream().write(new byte[] {22, 3, 1, 2, 0}); // a ClientHello's record header, no body
                            opened.incrementAndGet();
                            open.add(s);
                            synchronized (sockets) {
                                sockets.add(s);
                            }
                        }
                        for (Socket s : open) { // the server closes them at its handshake timeout
                            s.setSoTimeout(1);
                            try {
                                if (s.getInputStream().read() < 0) s.close();
                            } catch (java.net.SocketTimeoutException stillOpen) {
                                // keeps its slot
                            } catch (IOException reset) {
                                s.close();
                            }
                        }
                    }
                } catch (IOException e) {
                    // refused by the kernel's backlog: try again on the next round
                }
            }, "half-open-flood");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws Exception {
            stop.set(true);
            thread.join(5000);
            synchronized (sockets) {
                for (Socket s : sockets) s.close();
            }
        }
    }

    @Test
    void serverAtItsConnectionLimitIsRetried() throws Exception {
        NetOptions srv = NetOptions.defaults().withTls(serverId.server()).withMaxConnections(4, 4)
                .withHandshakeTimeout(Duration.ofMillis(300));
        NetOptions cli = NetOptions.defaults().withTls(serverId.clientTrustingThis());
        try (NetServer server = NetServer.bind("127.0.0.1", 0, srv)) {
            try (HalfOpenFlood flood = new HalfOpenFlood(server.port(), 4, 1500)) {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (server.connectionCount() < 4 && System.nanoTime() < end) Thread.sleep(1);
                assertEquals(4, server.connectionCount(), "the flood did not take every slot");
                // every slot is taken: the first attempts are closed at once, and the client must keep trying
                exactStream(server, 1, server.port(), cli, 100_000);
                assertTrue(flood.opened.get() >= 4, "flood opened " + flood.opened.get());
            }
        }
    }

    @Test
    void aTlsVerdictIsFinal() throws Exception {
        NetOptions srv = NetOptions.defaults().withTls(strangerId.server());
        NetOptions cli = NetOptions.defaults().withTls(serverId.clientTrustingThis()); // peer timeout 30 s, above the test's
        try (NetServer server = NetServer.bind("127.0.0.1", 0, srv)) {
            server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("localhost", server.port(), 1, Codec.longs(), cli);
            RemoteChannelException e = assertThrows(RemoteChannelException.class, () -> {
                out.sendLong(1);
                out.complete();
            });
            assertTrue(e.getMessage().contains("TLS") && !e.getMessage().startsWith("cannot reach"), e.getMessage());
        }
    }

    @Test
    void whatIsAVerdict() {
        assertTrue(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException("Received fatal alert: bad_certificate")));
        assertTrue(NetClient.isTlsVerdict(new io.netty.handler.codec.DecoderException(
                new javax.net.ssl.SSLHandshakeException("Received fatal alert: certificate_unknown"))));
        assertTrue(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException( // JDK 25's form
                "(certificate_unknown) Received fatal alert: certificate_unknown")));
        assertFalse(NetClient.isTlsVerdict(new javax.net.ssl.SSLException("(internal_error) close_notify received")));
        assertTrue(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException("PKIX path validation failed")
                .initCause(new java.security.cert.CertPathValidatorException("signature check failed"))));
        assertTrue(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException("No subject alternative DNS name matching x")
                .initCause(new java.security.cert.CertificateException("No subject alternative DNS name matching x"))));
        assertTrue(NetClient.isTlsVerdict(new io.netty.handler.ssl.NotSslRecordException("not an SSL/TLS record")));
        assertFalse(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException("PKIX path building failed")));
        assertFalse(NetClient.isTlsVerdict(new javax.net.ssl.SSLException("Received close_notify during handshake")));
        assertFalse(NetClient.isTlsVerdict(new javax.net.ssl.SSLHandshakeException(
                "Insufficient buffer remaining for AEAD cipher fragment (2). Needs to be more than tag size (16)")));
        assertFalse(NetClient.isTlsVerdict(new io.netty.handler.ssl.SslHandshakeTimeoutException("handshake timed out")));
        assertFalse(NetClient.isTlsVerdict(new java.nio.channels.ClosedChannelException()));
        assertFalse(NetClient.isTlsVerdict(new IOException("Connection reset by peer")));
        assertFalse(NetClient.isTlsVerdict(new RemoteChannelException("no handshake from x within 1000 ms")));
    }
}
