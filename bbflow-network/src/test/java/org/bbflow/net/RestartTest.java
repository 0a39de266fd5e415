package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * Restarts are fenced by incarnation ids: a stream never resumes into a restarted peer, the restarted
 * peer starts cleanly, and every refusal says what happened.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RestartTest {
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));
    /** Proven peers: only they may fence a sender that is still connected. */
    private static final NetOptions PROVEN = OPTS.withSharedSecret("restart-test-secret-0123456789".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII));

    /** Sends until the outlet fails (at most 30 s); returns the failure. */
    static RemoteChannelException sendUntilFailure(RemoteOutlet<Long> out) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            for (long i = 0; (i & 1023) != 0 || System.nanoTime() < end; i++) out.sendLong(i);
        } catch (RemoteChannelException e) {
            return e;
        }
        throw new AssertionError("the outlet never failed");
    }

    private static RemoteChannelException failureOf(CompletableFuture<RemoteChannelException> f) throws Exception {
        return f.get(40, TimeUnit.SECONDS);
    }

    @Test
    void receiverRestartedMidStreamFailsTheSenderAndLeavesTheNewInletClean() throws Exception {
        NetServer first = NetServer.bind("127.0.0.1", 0, OPTS);
        int port = first.port();
        RemoteInlet<Long> before = first.inlet(1, Codec.longs());
        RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", port, 1, Codec.longs(), OPTS);
        CompletableFuture<RemoteChannelException> sender = CompletableFuture.supplyAsync(() -> sendUntilFailure(out));
        for (long i = 0; i < 50_000; i++) assertEquals(i, before.take());
        first.close(); // the receiving process dies ...
        before.close(); // (its inlet with it)
        try (NetServer second = NetServer.bind("127.0.0.1", port, OPTS)) { // ... and comes back on its port
            RemoteInlet<Long> after = second.inlet(1, Codec.longs());
            long t0 = System.nanoTime();
            RemoteChannelException e = failureOf(sender);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(e.getMessage().contains("receiver restarted"), e.getMessage());
            assertTrue(ms < OPTS.peerTimeout().toMillis(), "failed after " + ms + " ms, not at once");
            // the restarted receiver's inlet is untouched: a restarted sender streams into it from item 0
            try (RemoteOutlet<Long> fresh = NetClient.outlet("127.0.0.1", port, 1, Codec.longs(), OPTS)) {
                for (long i = 0; i < 10_000; i++) fresh.sendLong(i);
                fresh.complete();
            }
            long k = 0;
            for (Long x; (x = after.take()) != null; k++) assertEquals(k, x);
            assertEquals(10_000, k);
        }
    }

    @Test
    void restartedSenderTakesOverAChannelThatReceivedNothingYet() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, PROVEN)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient old = NetClient.connect("127.0.0.1", server.port(), PROVEN);
            RemoteOutlet<Long> stale = old.outlet(1, Codec.longs()); // attaches, sends nothing, then hangs
            // the stale outlet is attached once a send has had time to go through: wait for its attachment
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (in.senderAddress() == null && System.nanoTime() < until) Thread.onSpinWait();
            assertNotNull(in.senderAddress(), "first sender attached");

            try (RemoteOutlet<Long> restarted = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), PROVEN)) {
                for (long i = 0; i < 1000; i++) restarted.sendLong(i);
                restarted.complete();
            }
            long k = 0;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x);
            assertEquals(1000, k);
            // the replaced sender is refused with a reason, not left hanging
            RemoteChannelException e = sendUntilFailure(stale);
            assertTrue(e.getMessage().contains("took the channel over"), e.getMessage());
            old.close();
        }
    }

    /**
     * Without a secret an incarnation proves nothing: a restarted sender cannot fence one that is still
     * connected. It is refused and retries; once the old connection is gone it takes the (empty) channel over.
     */
    @Test
    void withoutASecretARestartedSenderWaitsUntilTheOldConnectionIsGone() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient old = NetClient.connect("127.0.0.1", server.port(), OPTS);
            old.outlet(1, Codec.longs()); // attached, sends nothing, stays connected
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (in.senderAddress() == null && System.nanoTime() < until) Thread.onSpinWait();
            java.net.InetSocketAddress first = in.senderAddress();
            assertNotNull(first, "first sender attached");

            CompletableFuture<Void> restarted = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS)) {
                    for (long i = 0; i < 1000; i++) out.sendLong(i);
                    out.complete();
                }
            });
            // refused while the old connection lives (a few retries at 20 a second)
            assertThrows(java.util.concurrent.TimeoutException.class, () -> restarted.get(300, TimeUnit.MILLISECONDS));
            assertEquals(first, in.senderAddress(), "the channel still belongs to the first sender");
            old.closeAbruptly(); // the old process dies (its outlet neither completed nor aborted): the restarted one gets in
            restarted.get(30, TimeUnit.SECONDS);
            long k = 0;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x);
            assertEquals(1000, k);
        }
    }

    /**
     * A stranger without the secret (none is configured) forges an ATTACH for a stream in the middle,
     * claiming to be a restarted sender (another incarnation, another stream id): it is refused on its
     * own connection, and the honest stream completes with every item exactly once.
     */
    @Test
    void aStrangersForgedAttachMidStreamIsRefusedAndTheStreamCompletes() throws Exception {
        long seed = TestSeed.current();
        System.out.println("aStrangersForgedAttachMidStreamIsRefusedAndTheStreamCompletes seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        int n = 100_000;
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            java.util.concurrent.CountDownLatch attacked = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS)) {
                    for (long i = 0; i < n / 2; i++) out.sendLong(i);
                    try {
                        if (!attacked.await(30, TimeUnit.SECONDS)) throw new AssertionError("no attack");
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    for (long i = n / 2; i < n; i++) out.sendLong(i);
                    out.complete();
                }
            });
            for (long i = 0; i < n / 2; i++) assertEquals(i, in.take()); // mid-stream: items have arrived
            for (int attack = 0; attack < 3; attack++) {
                long incarnation = random.nextLong() | 1;
                try (java.net.Socket s = FuzzTest.handshake(server.port(), incarnation)) {
                    java.io.DataOutputStream o = new java.io.DataOutputStream(s.getOutputStream());
                    o.writeInt(21);
                    o.writeByte(Wire.ATTACH);
                    o.writeInt(1);
                    o.writeLong(random.nextLong()); // a stream id of its own
                    o.writeLong(attack == 0 ? 0 : random.nextInt(n)); // resume from
                    o.flush();
                    String reason = rejectFor(s, 1);
                    assertTrue(reason.startsWith(Wire.OWNED_BY_CONNECTED_SENDER) && reason.contains("still connected"),
                            "seed " + seed + ": " + reason);
                    // and what an attached peer may send is not taken from it either
                    o.writeInt(1 + 4 + 8 + 4 + 8);
                    o.writeByte(Wire.DATA);
                    o.writeInt(1);
                    o.writeLong(n / 2);
                    o.writeInt(1);
                    o.writeLong(-7);
                    o.writeInt(1 + 4 + 4);
                    o.writeByte(Wire.ABORT);
                    o.writeInt(1);
                    o.writeBytes("forged");
                    o.flush();
                }
            }
            attacked.countDown();
            long k = n / 2;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x, "seed " + seed);
            assertEquals(n, k, "seed " + seed);
            sender.get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads frames from a raw connection until a REJECT for {@code channel}; returns its reason. */
    private static String rejectFor(java.net.Socket s, int channel) throws java.io.IOException {
        java.io.DataInputStream i = new java.io.DataInputStream(s.getInputStream());
        for (int frames = 0; frames < 100; frames++) {
            byte[] f = new byte[i.readInt()];
            i.readFully(f);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(f);
            if (b.get() == Wire.REJECT && b.getInt() == channel) {
                return new String(f, 5, f.length - 5, java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no REJECT for channel " + channel);
    }

    @Test
    void restartedSenderAfterItemsArrivedFailsBothEndsAtOnce() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient old = NetClient.connect("127.0.0.1", server.port(), OPTS);
            RemoteOutlet<Long> first = old.outlet(1, Codec.longs());
            for (long i = 0; i < 100; i++) first.sendLong(i);
            for (long i = 0; i < 100; i++) assertEquals(i, in.take());
            old.closeAbruptly(); // the sending process dies mid-stream (close() would abort the stream: no crash);
            // (the inlet would wait for it up to the peer timeout)
            first.close(); // (its outlet with it)

            long t0 = System.nanoTime();
            RemoteOutlet<Long> restarted = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS);
            restarted.sendLong(0);
            RemoteChannelException sent = assertThrows(RemoteChannelException.class, restarted::complete);
            assertTrue(sent.getMessage().contains("sender restarted"), sent.getMessage());
            RemoteChannelException got = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(got.getMessage().contains("sender restarted") && got.getMessage().contains("restart the receiving side"),
                    got.getMessage());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < OPTS.peerTimeout().toMillis(), "failed after " + ms + " ms, not at once");
        }
    }

    @Test
    void aNewInletOnAChannelIdDoesNotResumeAnOldStream() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> first = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), OPTS);
            CompletableFuture<RemoteChannelException> sender = CompletableFuture.supplyAsync(() -> sendUntilFailure(out));
            for (long i = 0; i < 300_000; i++) assertEquals(i, first.take()); // consumed and acknowledged
            first.close();
            RemoteInlet<Long> second = server.inlet(1, Codec.longs()); // same server, same id, a new stream expected
            proxy.cut();
            RemoteChannelException e = failureOf(sender);
            assertTrue(e.getMessage().contains("closed by the receiver") || e.getMessage().contains("cannot resume"),
                    e.getMessage());
            try (RemoteOutlet<Long> fresh = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS)) {
                fresh.sendLong(7);
                fresh.complete();
            }
            assertEquals(7L, second.take());
            assertNull(second.take());
        }
    }

    @Test
    void aStreamWhoseInletWasClosedDoesNotResumeIntoANewInletWhenTheRefusalAndAllAcksWereLost() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> first = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), OPTS);
            for (long i = 0; i < 1000; i++) out.sendLong(i);
            assertEquals(0L, first.take()); // data arrived, so the sender is attached; nothing consumed was acknowledged yet
            proxy.loseReplies(); // from now on no acknowledgement and no refusal reaches the sender
            for (long i = 1; i < 1000; i++) assertEquals(i, first.take());
            first.close();
            RemoteInlet<Long> second = server.inlet(1, Codec.longs());
            proxy.cut(); // the sender comes back still holding the whole stream from item 0
            RemoteChannelException e = failureOf(CompletableFuture.supplyAsync(() -> sendUntilFailure(out)));
            assertTrue(e.getMessage().contains("closed by the receiver"), e.getMessage());
            try (RemoteOutlet<Long> fresh = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS)) {
                fresh.sendLong(7);
                fresh.complete();
            }
            assertEquals(7L, second.take()); // the new inlet saw nothing of the old stream
            assertNull(second.take());
        }
    }
}
