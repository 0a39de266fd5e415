package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Restarts are fenced by incarnation ids: a stream never resumes into a restarted peer, the restarted
 * peer starts cleanly, and every refusal says what happened.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RestartTest {
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));

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
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient old = NetClient.connect("127.0.0.1", server.port(), OPTS);
            RemoteOutlet<Long> stale = old.outlet(1, Codec.longs()); // attaches, sends nothing, then hangs
            // the stale outlet is attached once a send has had time to go through: wait for its attachment
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (in.senderAddress() == null && System.nanoTime() < until) Thread.onSpinWait();
            assertNotNull(in.senderAddress(), "first sender attached");

            try (RemoteOutlet<Long> restarted = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), OPTS)) {
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

    @Test
    void restartedSenderAfterItemsArrivedFailsBothEndsAtOnce() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient old = NetClient.connect("127.0.0.1", server.port(), OPTS);
            RemoteOutlet<Long> first = old.outlet(1, Codec.longs());
            for (long i = 0; i < 100; i++) first.sendLong(i);
            for (long i = 0; i < 100; i++) assertEquals(i, in.take());
            old.close(); // the sending process dies mid-stream; the inlet would wait for it up to the peer timeout
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
