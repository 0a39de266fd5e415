package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Peers that abuse a server (issue 11): one that never reads, connection floods, idle
 * connections, a logging backend that throws, an event loop that dies, aborts racing the flusher,
 * receiving flows that fail mid-frame, and floods of warnings and hostile reasons. Each test
 * fails without its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AbusivePeerTest {
    /** Bytes of one ATTACH frame (protocol v2): length, type, channel, stream id, resume-from. */
    static final int ATTACH_BYTES = 4 + 1 + 4 + 8 + 8;
    /** 742,000 ATTACH frames: the flood of the report (about 18 MB in the v2 layout). */
    static final long FLOOD_BYTES = 742_000L * ATTACH_BYTES;

    static byte[] attachFrames(int frames, int firstChannel, boolean sameChannel, long streamId) {
        ByteBuffer b = ByteBuffer.allocate(frames * ATTACH_BYTES);
        for (int i = 0; i < frames; i++) {
            b.putInt(ATTACH_BYTES - 4).put(Wire.ATTACH).putInt(sameChannel ? firstChannel : firstChannel + i).putLong(streamId)
                    .putLong(0);
        }
        return b.array();
    }

    /** Writes {@code chunk} repeatedly (never reading) until {@code total} bytes or the server drops the connection. */
    static CompletableFuture<Long> flood(Socket s, byte[] chunk, long total) {
        return CompletableFuture.supplyAsync(() -> {
            long written = 0;
            try {
                OutputStream out = s.getOutputStream();
                while (written < total) {
                    out.write(chunk);
                    written += chunk.length;
                }
            } catch (IOException dropped) {
                // the server closed the connection (or the test did, at its deadline)
            }
            return written;
        });
    }

    /** Polls the server's queued reply bytes while {@code attack} runs (at most {@code seconds}); returns the maximum seen. */
    static long maxQueuedDuring(NetServer server, CompletableFuture<?> attack, int seconds) throws InterruptedException {
        long max = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!attack.isDone() && System.nanoTime() < end) {
            max = Math.max(max, server.queuedBytes());
            Thread.sleep(5);
        }
        return Math.max(max, server.queuedBytes());
    }

    /** A short honest stream through {@code server}; fails if it does not complete within 20 s. */
    static void honestStream(NetServer server, int channel, long n) throws Exception {
        RemoteInlet<Long> in = server.inlet(channel, Codec.longs());
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
            try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), channel, Codec.longs(), NetOptions.defaults())) {
                for (long i = 0; i < n; i++) out.sendLong(i);
                out.complete();
            }
        });
        CompletableFuture<Long> sum = CompletableFuture.supplyAsync(() -> {
            long k = 0;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x);
            return k;
        });
        assertEquals(n, sum.get(20, TimeUnit.SECONDS), "honest stream on channel " + channel);
        sender.get(20, TimeUnit.SECONDS);
    }

    @Test
    void peerThatNeverReadsRefusalsCannotPileUpReplies() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket attacker = FuzzTest.handshake(server.port())) {
            CompletableFuture<Long> written = flood(attacker, attachFrames(4096, 1_000_000, false, 1), FLOOD_BYTES);
            long maxQueued = maxQueuedDuring(server, written, 15);
            attacker.close();
            long bytes = written.get(10, TimeUnit.SECONDS);
            assertTrue(maxQueued <= NetServer.MAX_QUEUED_BYTES + 256 * 1024, "replies queued for a peer that does not read: " + maxQueued);
            assertTrue(bytes < FLOOD_BYTES, "the server took the whole flood of " + bytes + " bytes");
            honestStream(server, 1, 100_000);
        }
    }

    @Test
    void peerThatNeverReadsRepliesToValidFramesIsNoLongerRead() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket attacker = FuzzTest.handshake(server.port())) {
            server.inlet(7, Codec.longs());
            // the same ATTACH again and again is accepted each time: only writability bounds the replies
            CompletableFuture<Long> written = flood(attacker, attachFrames(4096, 7, true, 42), FLOOD_BYTES);
            long maxQueued = maxQueuedDuring(server, written, 15);
            attacker.close();
            written.get(10, TimeUnit.SECONDS);
            assertTrue(maxQueued <= 4 * NetServer.PAUSE_READING_BYTES + 256 * 1024,
                    "replies queued for a peer that does not read: " + maxQueued);
            honestStream(server, 1, 100_000);
        }
    }

    /** Connects from {@code from} (a loopback address) and reports whether the server sent its challenge. */
    static Socket connectFrom(String from, int port) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
        s.setSoTimeout(5000);
        return s;
    }

    static boolean challenged(Socket s) throws IOException {
        try {
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] challenge = new byte[in.readInt()];
            in.readFully(challenge);
            return challenge[0] == Wire.CHALLENGE;
        } catch (IOException closed) {
            return false;
        }
    }

    /** Waits (up to the socket's timeout) for the server to close {@code s}; true if it did. */
    static boolean closedByServer(Socket s) throws IOException {
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[256];
            while (in.read(buf) >= 0) { /* skip */ }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void connectionLimitsAndHandshakeTimeout() throws Exception {
        NetOptions opts = NetOptions.defaults().withMaxConnections(6, 4).withHandshakeTimeout(Duration.ofMillis(300));
        List<Socket> sockets = new ArrayList<>();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            int accepted = 0, refused = 0;
            for (int i = 0; i < 5; i++) { // per address: 4 accepted, the 5th refused
                Socket s = connectFrom("127.0.0.1", server.port());
                sockets.add(s);
                if (challenged(s)) accepted++; else refused++;
            }
            assertEquals(4, accepted, "connections from one address over the limit of 4 were served");
            assertEquals(1, refused);
            for (int i = 0; i < 3; i++) { // total: 2 more from another address, then the limit of 6
                Socket s = connectFrom("127.0.0.2", server.port());
                sockets.add(s);
                if (challenged(s)) accepted++; else refused++;
            }
            assertEquals(6, accepted, "connections over the total limit of 6 were served");
            long t0 = System.nanoTime();
            for (Socket s : sockets) assertTrue(closedByServer(s), "a connection without handshake stayed open");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 4000, "idle connections closed after " + ms + " ms");
            honestStream(server, 1, 10_000); // and the slots are free again
        } finally {
            for (Socket s : sockets) s.close();
        }
    }

    /** Makes every log record published on {@code thread} throw an Error, as a broken logging backend would. */
    static final class ThrowingLogHandler extends Handler {
        private final Thread thread;
        final AtomicLong thrown = new AtomicLong();

        ThrowingLogHandler(Thread thread) {
            this.thread = thread;
        }

        @Override
        public void publish(LogRecord r) {
            if (Thread.currentThread() == thread) {
                thrown.incrementAndGet();
                throw new Error("logging backend failed (test)");
            }
        }

        @Override
        public void flush() { }

        @Override
        public void close() { }
    }

    @Test
    void errorsThrownWhileLoggingDoNotStopTheServer() throws Exception {
        NetOptions opts = NetOptions.defaults().withHandshakeTimeout(Duration.ofMillis(200));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            Thread loopThread = server.loop().submit(Thread::currentThread).get();
            ThrowingLogHandler bomb = new ThrowingLogHandler(loopThread);
            NetServer.WARN.forget(); // so the warnings below are logged, not suppressed as repeats of earlier tests'
            Logger root = Logger.getLogger("");
            root.addHandler(bomb);
            try {
                for (int i = 0; i < 20; i++) { // each is refused with a warning, and the warning throws
                    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                        s.setSoTimeout(5000);
                        s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        closedByServer(s);
                    }
                }
                try (Socket idle = connectFrom("127.0.0.1", server.port())) {
                    assertTrue(closedByServer(idle), "handshake timeout did not close an idle connection");
                }
                assertTrue(bomb.thrown.get() > 0, "the test's logging backend was never used");
                honestStream(server, 1, 50_000);
            } finally {
                root.removeHandler(bomb);
            }
        }
    }

    @Test
    void serverWhoseEventLoopDiesFailsItsInletsInsteadOfHanging() throws Exception {
        NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
        try {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults());
            for (long i = 0; i < 1000; i++) out.sendLong(i);
            for (long i = 0; i < 1000; i++) assertEquals(i, in.take());
            server.loop().shutdownGracefully(0, 0, TimeUnit.MILLISECONDS); // as if an error had killed its thread
            CompletableFuture<Long> next = CompletableFuture.supplyAsync(in::take);
            ExecutionException e = assertThrows(ExecutionException.class, () -> next.get(10, TimeUnit.SECONDS));
            assertInstanceOf(RemoteChannelException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("stopped"), e.getCause().getMessage());
            out.abort();
        } finally {
            server.close();
        }
    }

    @Test
    void clientWhoseEventLoopDiesFailsItsOutletsInsteadOfHanging() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults());
            RemoteOutlet<Long> out = client.outlet(1, Codec.longs());
            out.sendLong(1);
            assertEquals(1L, in.take());
            client.loop().shutdownGracefully(0, 0, TimeUnit.MILLISECONDS); // as if an error had killed its thread
            CompletableFuture<Void> closing = CompletableFuture.runAsync(out::complete);
            ExecutionException e = assertThrows(ExecutionException.class, () -> closing.get(10, TimeUnit.SECONDS));
            assertInstanceOf(RemoteChannelException.class, e.getCause());
            client.close();
        }
    }

    @Test
    void abortWhileTheFlusherCutsTheBatchDoesNotFreeItUnderTheFlusher() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            RemoteInlet<Long> probe = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = client.outlet(500, Codec.longs()); // no inlet: never attached
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<Throwable> flushed = new CompletableFuture<>();
            client.loop().execute(() -> { // a flush that the event loop started just before the abort
                busy.countDown();
                try {
                    go.await();
                    out.drain();
                    flushed.complete(null);
                } catch (Throwable e) {
                    flushed.complete(e);
                }
            });
            busy.await();
            for (long i = 0; i < 100; i++) out.sendLong(i); // a batch being filled, not yet cut
            out.abort(); // the producer gives the batch up while the loop is about to cut it
            go.countDown();
            assertNull(flushed.get(10, TimeUnit.SECONDS), "the flusher cut a batch freed under it");
            // the periodic flusher still runs: an item with neither a full batch nor complete() arrives
            RemoteOutlet<Long> last = client.outlet(1, Codec.longs());
            last.sendLong(77);
            assertEquals(77L, CompletableFuture.supplyAsync(probe::take).get(10, TimeUnit.SECONDS));
            last.complete();
        }
        LeakCheck.assertNoLeaks();
    }

    @Test
    void receivingFlowThatFailsMidFrameReleasesItsFrames() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            for (int round = 0; round < 5; round++) {
                int ch = 10 + round;
                Flow receiving = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, ch, Codec.longs()), Nodes.sink((Long x) -> {
                    if (x == 1000) throw new IllegalStateException("receiver fails (test)");
                })));
                RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), ch, Codec.longs(), NetOptions.defaults());
                CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                    for (long i = 0; i < 1_000_000; i++) out.sendLong(i);
                    out.complete();
                });
                assertThrows(FlowException.class, receiving::join);
                ExecutionException e = assertThrows(ExecutionException.class, () -> sender.get(20, TimeUnit.SECONDS));
                assertInstanceOf(RemoteChannelException.class, e.getCause());
            }
        }
        LeakCheck.assertNoLeaks();
    }

    /** Captures what the module logs. */
    static final class Captured extends Handler {
        final List<LogRecord> records = new ArrayList<>();

        @Override
        public synchronized void publish(LogRecord r) {
            records.add(r);
        }

        synchronized List<String> messages(String containing) {
            List<String> m = new ArrayList<>();
            for (LogRecord r : records) {
                String s = r.getMessage();
                if (s != null && s.contains(containing)) m.add(s);
            }
            return m;
        }

        @Override
        public void flush() { }

        @Override
        public void close() { }
    }

    @Test
    void warningsAboutBadConnectionsAreRateLimited() throws Exception {
        Captured log = new Captured();
        Logger net = Logger.getLogger("org.bbflow.net");
        net.addHandler(log);
        NetOptions opts = NetOptions.defaults().withHandshakeTimeout(Duration.ofMillis(200)).withMaxConnections(1000, 1000);
        List<Socket> idle = new ArrayList<>();
        long suppressedBefore = NetServer.WARN.suppressed("handshake timeout");
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            for (int i = 0; i < 300; i++) idle.add(connectFrom("127.0.0.1", server.port()));
            for (Socket s : idle) assertTrue(closedByServer(s));
            List<String> warnings = log.messages("no handshake within");
            assertTrue(warnings.size() <= 10, "300 idle connections gave " + warnings.size() + " warnings");
            long suppressed = NetServer.WARN.suppressed("handshake timeout") - suppressedBefore;
            assertTrue(suppressed + warnings.size() >= 300, suppressed + " suppressed, " + warnings.size() + " logged");
        } finally {
            net.removeHandler(log);
            for (Socket s : idle) s.close();
        }
    }

    @Test
    void abortReasonFromAPeerIsCappedAndMadePrintable() throws Exception {
        Captured log = new Captured();
        Logger net = Logger.getLogger("org.bbflow.net");
        net.addHandler(log);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket s = FuzzTest.handshake(server.port())) {
            RemoteInlet<Long> in = server.inlet(5, Codec.longs());
            byte[] reason = new byte[(1 << 20) - 64]; // just under the largest frame
            for (int i = 0; i < reason.length; i++) reason[i] = (byte) (i % 7 == 0 ? '\n' : i % 5 == 0 ? 0x1b : 'x');
            ByteBuffer b = ByteBuffer.allocate(ATTACH_BYTES + 9 + reason.length);
            b.putInt(ATTACH_BYTES - 4).put(Wire.ATTACH).putInt(5).putLong(9).putLong(0);
            b.putInt(1 + 4 + reason.length).put(Wire.ABORT).putInt(5).put(reason);
            s.getOutputStream().write(b.array());
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            String m = e.getMessage();
            assertTrue(m.length() < 400, "abort reason of " + m.length() + " chars");
            assertTrue(m.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "unprintable characters in the reason");
            for (LogRecord r : new ArrayList<>(log.records)) {
                String text = r.getMessage() + (r.getParameters() == null ? "" : java.util.Arrays.toString(r.getParameters()));
                assertTrue(text.length() < 1000, "logged " + text.length() + " chars");
                assertTrue(text.chars().noneMatch(c -> c == 0x1b), "logged an escape character");
            }
        } finally {
            net.removeHandler(log);
        }
    }
}
