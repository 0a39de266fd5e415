package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * Hostile peers against the servers of a child JVM ({@link HostileServer}: -Xmx64m,
 * -XX:MaxDirectMemorySize=32m, {@code ulimit -n 256}, paranoid leak detection). After each attack
 * an honest stream through the same server must pass, and the child's heap and direct memory
 * (after a collection) must stay within bounds, with no leak reported. Loopback only; every attack
 * is bounded in count and time. Seeded: rerun with {@code -Dbbflow.seed=<seed>}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.MethodName.class)
class HostilePeerTest {
    static final byte[] SECRET = "hostile-suite-secret-0123456789".getBytes(StandardCharsets.US_ASCII);
    static final NetOptions CLIENT = NetOptions.defaults().withSharedSecret(SECRET);
    static final long HEAP_BOUND = 40L << 20;
    static final long DIRECT_BOUND = 24L << 20;

    static final int FD_LIMIT = 256;

    static TwoJvmTest.Child child;
    static int port;
    static int tlsPort;
    static TestCerts tlsId;
    static int nextChannel = 1;
    static final long SEED = TestSeed.current();
    static final Random RANDOM = new Random(SEED);

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        System.out.println("HostilePeerTest seed " + SEED + " (rerun with -Dbbflow.seed=" + SEED + ")");
        tlsId = TestCerts.generate(dir, "hostile");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "ulimit -n " + FD_LIMIT + " && exec '" + java + "' -Xmx64m -XX:MaxDirectMemorySize=32m"
                + " -Dio.netty.leakDetection.level=paranoid -Dio.netty.leakDetection.acquireAndReleaseOnly=true"
                + " -cp '" + System.getProperty("java.class.path") + "' " + HostileServer.class.getName()
                + " " + HexFormat.of().formatHex(SECRET) + " '" + dir.resolve("hostile.p12") + "'";
        child = new TwoJvmTest.Child(List.of("/bin/sh", "-c", cmd));
        port = child.port.get(60, TimeUnit.SECONDS);
        tlsPort = Integer.parseInt(child.await("TLSPORT ", 10).substring(8).trim());
    }

    @AfterAll
    static void stop() {
        if (child != null) child.close();
    }

    /** An honest stream of longs through the child, then its memory within bounds and no leak. */
    static void stillServes(String after) throws Exception {
        int ch = nextChannel++;
        child.send("INLET " + ch);
        long n = 200_000;
        try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", port, ch, Codec.longs(), CLIENT)) {
            for (long i = 0; i < n; i++) out.sendLong(i);
            out.complete();
        }
        assertEquals("DONE " + ch + " " + n + " " + n * (n - 1) / 2, child.await("DONE " + ch + " ", 30)
                .replaceFirst("^(DONE \\d+ \\d+ \\d+).*", "$1"), "after " + after);
        child.send("MEM");
        String[] m = child.await("MEM ", 30).split(" ");
        long heap = Long.parseLong(m[1]), direct = Long.parseLong(m[2]);
        System.out.println("after " + after + ": heap " + heap + ", direct " + direct + ", connections " + m[3]);
        assertTrue(heap < HEAP_BOUND, "heap " + heap + " after " + after);
        assertTrue(direct < DIRECT_BOUND, "direct memory " + direct + " after " + after);
        assertEquals("0", m[4], "leaks reported by the child after " + after + ":\n" + child.output);
        assertTrue(child.process.isAlive(), "child died after " + after);
    }

    static Socket raw() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(5000);
        return s;
    }

    /** Reads the challenge and answers it with the right MAC; returns the socket ready for channel frames. */
    static Socket authenticated() throws IOException {
        Socket s = raw();
        byte[] hello = helloFor(readChallenge(s));
        s.getOutputStream().write(hello);
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] welcome = new byte[in.readInt()];
        in.readFully(welcome);
        assertEquals(Wire.WELCOME, welcome[0]);
        return s;
    }

    /** Reads the CHALLENGE (v2: magic, version, nonce, incarnation); returns the server's nonce followed by its incarnation. */
    static byte[] readChallenge(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] challenge = new byte[in.readInt()];
        in.readFully(challenge);
        assertEquals(Wire.CHALLENGE, challenge[0]);
        return java.util.Arrays.copyOfRange(challenge, 6, 6 + Wire.NONCE + 8);
    }

    /** A v2 HELLO (magic, version, nonce, incarnation, macLen, mac) answering a challenge as returned by {@link #readChallenge}. */
    static byte[] helloFor(byte[] challenge) throws IOException {
        byte[] serverNonce = java.util.Arrays.copyOf(challenge, Wire.NONCE);
        long serverIncarnation = java.nio.ByteBuffer.wrap(challenge, Wire.NONCE, 8).getLong();
        long clientIncarnation = Wire.nonZeroRandom();
        byte[] clientNonce = Wire.nonce();
        byte[] mac = Wire.mac(SECRET, "bbflow-client", serverNonce, clientNonce, serverIncarnation, clientIncarnation);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(1 + 4 + 1 + Wire.NONCE + 8 + 1 + mac.length);
        out.writeByte(Wire.HELLO);
        out.writeInt(Wire.MAGIC);
        out.writeByte(Wire.VERSION);
        out.write(clientNonce);
        out.writeLong(clientIncarnation);
        out.writeByte(mac.length);
        out.write(mac);
        return bytes.toByteArray();
    }

    @Test
    void a_garbageBytes() throws Exception {
        for (int i = 0; i < 150; i++) {
            try (Socket s = raw()) {
                byte[] g = new byte[1 + RANDOM.nextInt(3000)];
                RANDOM.nextBytes(g);
                s.getOutputStream().write(g);
                AbusivePeerTest.closedByServer(s);
            } catch (IOException closedEarly) {
                // refused before everything was written
            }
        }
        stillServes("garbage bytes");
    }

    @Test
    void b_hugeAndNegativeLengthPrefixes() throws Exception {
        int[] lengths = {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0, (1 << 20) + 1, 257, 1 << 30};
        for (int len : lengths) {
            for (boolean afterHandshake : new boolean[] {false, true}) {
                try (Socket s = afterHandshake ? authenticated() : raw()) {
                    new DataOutputStream(s.getOutputStream()).writeInt(len);
                    assertTrue(AbusivePeerTest.closedByServer(s), "length " + len + " was not refused");
                }
            }
        }
        // frames of a valid size that never complete: each holds up to a frame of buffer until the peer goes silent
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                Socket s = authenticated();
                stalled.add(s);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(1 << 20);
                out.write(new byte[600 * 1024]);
            }
            for (Socket s : stalled) assertTrue(AbusivePeerTest.closedByServer(s), "a stalled frame kept its connection");
        } finally {
            for (Socket s : stalled) s.close();
        }
        stillServes("huge and negative length prefixes");
    }

    @Test
    void c_framesForUnknownChannelsWithoutReadingReplies() throws Exception {
        List<Socket> attackers = new ArrayList<>();
        List<CompletableFuture<Long>> floods = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket s = authenticated();
                attackers.add(s);
                floods.add(AbusivePeerTest.flood(s, AbusivePeerTest.attachFrames(4096, 1_000_000 * (i + 1), false, 1),
                        AbusivePeerTest.FLOOD_BYTES));
            }
            CompletableFuture<Void> all = CompletableFuture.allOf(floods.toArray(new CompletableFuture[0]));
            long maxQueued = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!all.isDone() && System.nanoTime() < end) {
                child.send("QUEUED");
                maxQueued = Math.max(maxQueued, Long.parseLong(child.await("QUEUED ", 10).substring(7)));
            }
            assertTrue(maxQueued <= 4L * (NetServer.MAX_QUEUED_BYTES + 256 * 1024), "queued replies " + maxQueued);
        } finally {
            for (Socket s : attackers) s.close();
        }
        for (CompletableFuture<Long> f : floods) {
            assertTrue(f.get(10, TimeUnit.SECONDS) < AbusivePeerTest.FLOOD_BYTES, "the server took a whole flood");
        }
        stillServes("floods of frames for unknown channels");
    }

    @Test
    void d_hundredsOfIdleConnections() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                try {
                    idle.add(AbusivePeerTest.connectFrom("127.0.0.2", port));
                } catch (IOException refused) {
                    // the kernel's backlog may be full while the server closes the excess
                }
            }
            stillServes("300 idle connections, while they are open"); // from another address: under its own limit
            for (Socket s : idle) assertTrue(AbusivePeerTest.closedByServer(s), "an idle connection stayed open");
        } finally {
            for (Socket s : idle) s.close();
        }
        stillServes("300 idle connections");
    }

    @Test
    void e_connectDisconnectFlood() throws Exception {
        for (int i = 0; i < 1000; i++) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                if (i % 2 == 0) s.setSoLinger(true, 0); // half of them reset instead of closing
            }
        }
        stillServes("1000 connects and disconnects");
    }

    @Test
    void f_handshakeReplays() throws Exception {
        byte[] replayed;
        try (Socket first = raw()) {
            replayed = helloFor(readChallenge(first));
            first.getOutputStream().write(replayed);
            new DataInputStream(first.getInputStream()).readInt(); // welcomed
        }
        for (int i = 0; i < 20; i++) { // the recorded HELLO answers an old challenge: refused
            try (Socket s = raw()) {
                readChallenge(s);
                s.getOutputStream().write(replayed);
                assertTrue(AbusivePeerTest.closedByServer(s), "a replayed HELLO was accepted");
            }
        }
        for (int i = 0; i < 20; i++) { // a second HELLO on an authenticated connection
            try (Socket s = authenticated()) {
                s.getOutputStream().write(helloFor(new byte[Wire.NONCE + 8]));
                assertTrue(AbusivePeerTest.closedByServer(s), "a second HELLO was accepted");
            }
        }
        stillServes("handshake replays");
    }

    @Test
    void g_cuttingProxy() throws Exception {
        try (TestProxy proxy = new TestProxy(port)) {
            for (int round = 0; round < 3; round++) {
                int ch = nextChannel++;
                child.send("INLET " + ch);
                long n = 300_000;
                CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                    try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), ch, Codec.longs(), CLIENT)) {
                        for (long i = 0; i < n; i++) out.sendLong(i);
                        out.complete();
                    }
                });
                // cuts during the handshake, in the middle of the data and around the end of the stream
                for (int cut = 0; cut < 8 && !sender.isDone(); cut++) {
                    Thread.sleep(RANDOM.nextInt(round == 0 ? 5 : 60));
                    proxy.cut();
                }
                sender.get(40, TimeUnit.SECONDS);
                assertTrue(child.await("DONE " + ch + " ", 30).startsWith("DONE " + ch + " " + n + " " + n * (n - 1) / 2),
                        "seed " + SEED);
            }
        }
        stillServes("a cutting proxy");
    }

    /** A DATA frame of one long item (protocol v3): length, type, channel, first item, count, payload. */
    static final int TINY_FRAME_BYTES = 4 + 1 + 4 + 8 + 4 + 8;

    /** Authenticates, attaches to {@code channel} and sends up to {@code frames} one-item DATA frames, until the server closes. */
    static CompletableFuture<Long> tinyFrames(int channel, int frames) {
        return CompletableFuture.supplyAsync(() -> {
            long sent = 0;
            try (Socket s = authenticated()) {
                DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream(), 1 << 16));
                out.writeInt(AbusivePeerTest.ATTACH_BYTES - 4);
                out.writeByte(Wire.ATTACH);
                out.writeInt(channel);
                out.writeLong(RANDOM.nextLong());
                out.writeLong(0);
                for (; sent < frames; sent++) {
                    out.writeInt(TINY_FRAME_BYTES - 4);
                    out.writeByte(Wire.DATA);
                    out.writeInt(channel);
                    out.writeLong(sent);
                    out.writeInt(1);
                    out.writeLong(sent);
                }
                out.flush();
                AbusivePeerTest.closedByServer(s);
            } catch (IOException closedByTheServer) {
                // it stopped the flood: the window was full
            }
            return sent;
        });
    }

    /** The child's heap and direct memory now (after a collection), in bytes. */
    static long[] memory() throws Exception {
        child.send("MEM");
        String[] m = child.await("MEM ", 30).split(" ");
        return new long[] {Long.parseLong(m[1]), Long.parseLong(m[2])};
    }

    /**
     * What the server may hold for {@code stalled} channels of small frames whose consumers read
     * nothing (issue 34, finding 3; docs/network.md, "Memory"): each queued frame costs its payload
     * plus the allowance in the window, at most the window plus a frame in all, and a frame of a few
     * hundred bytes or less is copied out of its read buffer and holds no more memory than it costs
     * (the general bound is twice that); plus a chunk in progress per channel, and 4 MiB for the
     * connections' buffers and what the allocator keeps.
     */
    static long stalledBound(int stalled) {
        NetOptions o = NetOptions.defaults();
        long perChannel = o.windowBytes() + o.maxFrameBytes() + Wire.FRAME_ALLOWANCE + RemoteInlet.CHUNK_BYTES;
        return stalled * perChannel + (4L << 20);
    }

    @Test
    void h_tinyFramesBesideAnHonestStream() throws Exception {
        long[] before = memory();
        int a = nextChannel++, b = nextChannel++;
        child.send("STALLED " + a);
        child.send("STALLED " + b);
        // 600,000 one-item frames each: 4.8 MB of payload, within the window as counted before the allowance
        CompletableFuture<Long> first = tinyFrames(a, 600_000);
        CompletableFuture<Long> second = tinyFrames(b, 600_000);
        try {
            stillServes("two tiny-frame peers, while they send");
            long sentA = first.get(40, TimeUnit.SECONDS), sentB = second.get(40, TimeUnit.SECONDS);
            long[] during = memory(); // their frames are still queued: nobody reads those inlets
            long grown = during[0] + during[1] - before[0] - before[1];
            System.out.println("tiny frames: " + sentA + " and " + sentB + " frames written; heap " + during[0] + ", direct "
                    + during[1] + ", grown by " + grown + " (bound " + stalledBound(2) + ")");
            assertTrue(grown <= stalledBound(2), "two stalled channels of tiny frames hold " + grown + " bytes");
        } finally {
            child.send("CLOSE " + a);
            child.send("CLOSE " + b);
            child.await("CLOSED " + b, 10);
        }
        stillServes("two tiny-frame peers");
    }

    @Test
    void i_smallBatchesIntoStalledConsumers() throws Exception {
        long[] before = memory();
        int a = nextChannel++, b = nextChannel++;
        child.send("STALLED " + a);
        child.send("STALLED " + b);
        NetOptions small = CLIENT.withBatchBytes(64); // a slow producer's frames: a few items per flush
        List<RemoteOutlet<Long>> outlets = new ArrayList<>();
        List<CompletableFuture<Void>> senders = new ArrayList<>();
        try {
            for (int ch : new int[] {a, b}) {
                RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", port, ch, Codec.longs(), small);
                outlets.add(out);
                senders.add(CompletableFuture.runAsync(() -> {
                    for (long i = 0; i < 10_000_000; i++) out.sendLong(i); // blocks once the window is full
                }));
            }
            // until both senders are held by the window: their counts stop growing (bounded wait)
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            long last = -1;
            for (long now; (now = outlets.get(0).sentCount() + outlets.get(1).sentCount()) != last && System.nanoTime() < end; ) {
                last = now;
                Thread.sleep(300);
            }
            long[] during = memory();
            long grown = during[0] + during[1] - before[0] - before[1];
            System.out.println("small batches: " + last + " items sent; heap " + during[0] + ", direct " + during[1]
                    + ", grown by " + grown + " (bound " + stalledBound(2) + ")");
            assertTrue(grown <= stalledBound(2), "two stalled channels of small batches hold " + grown + " bytes");
        } finally {
            for (RemoteOutlet<Long> out : outlets) out.abort();
            child.send("CLOSE " + a);
            child.send("CLOSE " + b);
            child.await("CLOSED " + b, 10);
        }
        for (CompletableFuture<Void> f : senders) assertThrows(Exception.class, () -> f.get(30, TimeUnit.SECONDS));
        stillServes("small batches into stalled consumers");
    }

    @Test
    void j_tlsHalfOpenFloodBesideAnHonestTlsStreamThroughCuts() throws Exception {
        NetOptions tls = NetOptions.defaults().withTls(tlsId.clientTrustingThis()).withHeartbeat(Duration.ofMillis(200));
        int ch = nextChannel++;
        child.send("TLSINLET " + ch);
        long n = 300_000;
        try (TestProxy proxy = new TestProxy(tlsPort)) {
            CompletableFuture<Void> sender;
            try (TlsRetryTest.HalfOpenFlood flood = new TlsRetryTest.HalfOpenFlood(tlsPort, 16, 3000)) {
                while (flood.opened.get() < 16) Thread.sleep(1); // every slot from this address taken
                List<TestProxy.Sabotage> plans = new ArrayList<>();
                for (int i = 0; i < 4; i++) plans.add(new TestProxy.Sabotage(RANDOM.nextInt(700), RANDOM.nextInt(2) * 1200));
                proxy.sabotage(plans);
                sender = CompletableFuture.runAsync(() -> {
                    try (RemoteOutlet<Long> out = NetClient.outlet("localhost", proxy.port(), ch, Codec.longs(), tls)) {
                        for (long i = 0; i < n; i++) out.sendLong(i);
                        out.complete();
                    }
                });
                for (int cut = 0; cut < 4 && !sender.isDone(); cut++) { // and cuts once it streams
                    Thread.sleep(200 + RANDOM.nextInt(300));
                    proxy.cut();
                }
            }
            sender.get(40, TimeUnit.SECONDS);
            assertTrue(child.await("DONE " + ch + " ", 30).startsWith("DONE " + ch + " " + n + " " + n * (n - 1) / 2),
                    "seed " + SEED);
        }
        stillServes("a half-open TLS flood and handshake cuts");
    }

    /**
     * More connections than the child has descriptors, then an honest stream. Whether the flood reached
     * the limit is judged only on what the child accepted before its handshake timeout could close the
     * first of them: after it, each idle connection closed frees a descriptor for one still waiting
     * in the backlog, and a slow flood (a loaded machine) was once accepted in full that way. (A flood
     * slower than the timeout leaves the check with nothing to judge rather than a wrong verdict.)
     */
    @Test
    void k_floodToTheDescriptorLimit() throws Exception {
        long start = System.nanoTime();
        List<Socket> sockets = FdExhaustionTest.flood(port, FD_LIMIT + 64);
        try {
            long beforeTimeouts = start + HostileServer.HANDSHAKE_TIMEOUT.toNanos() - TimeUnit.MILLISECONDS.toNanos(200);
            int accepted = FdExhaustionTest.accepted(sockets, beforeTimeouts);
            assertTrue(accepted < sockets.size(), "the flood did not reach the descriptor limit: " + accepted + " of "
                    + sockets.size() + " connections accepted within the handshake timeout");
        } finally {
            for (Socket s : sockets) s.close();
        }
        stillServes("a flood to the descriptor limit");
    }

    @Test
    void l_bindFailures() throws Exception {
        child.send("BINDFAIL 20");
        assertEquals("BINDFAIL 40 0 0", child.await("BINDFAIL ", 30), "failures, threads and descriptors left");
        stillServes("40 failed binds");
    }
}
