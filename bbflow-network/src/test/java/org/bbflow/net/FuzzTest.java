package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/** Hostile input: garbage, mutated and oversized frames. The server must close those connections and keep serving honest peers. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FuzzTest {

    /** Connects, reads the challenge and answers it properly (no secret), returning the socket ready for channel frames. */
    static Socket handshake(int port) throws IOException {
        return handshake(port, 1);
    }

    /** The same, claiming to be sender incarnation {@code incarnation}. */
    static Socket handshake(int port, long incarnation) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(5000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] challenge = new byte[in.readInt()];
        in.readFully(challenge);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(1 + 4 + 1 + 16 + 8 + 1);
        out.writeByte(Wire.HELLO);
        out.writeInt(Wire.MAGIC);
        out.writeByte(Wire.VERSION);
        out.write(new byte[16]);
        out.writeLong(incarnation);
        out.writeByte(0);
        out.flush();
        byte[] welcome = new byte[in.readInt()];
        in.readFully(welcome);
        assertEquals(Wire.WELCOME, welcome[0]);
        return s;
    }

    /** A valid channel conversation: ATTACH, two DATA frames of longs, EOS. */
    private static byte[] validConversation(Random r, int channel) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(21);
        out.writeByte(Wire.ATTACH);
        out.writeInt(channel);
        out.writeLong(r.nextBoolean() ? 777 : r.nextLong()); // a shared stream id lets many attackers attach
        out.writeLong(0); // resume from
        long seq = 0;
        for (int f = 0; f < 2; f++) {
            int count = 1 + r.nextInt(20);
            out.writeInt(1 + 4 + 8 + 4 + 8 * count);
            out.writeByte(Wire.DATA);
            out.writeInt(channel);
            out.writeLong(seq);
            out.writeInt(count);
            for (int i = 0; i < count; i++) out.writeLong(r.nextLong());
            seq += count;
        }
        out.writeInt(13);
        out.writeByte(Wire.EOS);
        out.writeInt(channel);
        out.writeLong(seq);
        return bytes.toByteArray();
    }

    private static byte[] mutate(Random r, byte[] valid) {
        byte[] m = valid.clone();
        switch (r.nextInt(5)) {
            case 0 -> { for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) m[r.nextInt(m.length)] = (byte) r.nextInt(); }
            case 1 -> m = java.util.Arrays.copyOf(m, r.nextInt(m.length)); // truncated
            case 2 -> { // an absurd length prefix on the first frame
                int len = r.nextBoolean() ? Integer.MAX_VALUE - r.nextInt(100) : -r.nextInt(1000);
                m[0] = (byte) (len >>> 24); m[1] = (byte) (len >>> 16); m[2] = (byte) (len >>> 8); m[3] = (byte) len;
            }
            case 3 -> { byte[] g = new byte[1 + r.nextInt(300)]; r.nextBytes(g); m = g; } // pure garbage
            default -> { int at = 17 + r.nextInt(Math.max(1, m.length - 17)); if (at < m.length) m[at] ^= (byte) (1 << r.nextInt(8)); }
        }
        return m;
    }

    /** Reads until the server closes (returns what it said) or the timeout (returns null). */
    private static String drain(Socket s) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) >= 0; ) got.write(buf, 0, n);
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            // reset by the server is also a close
        }
        return got.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void thousandsOfHostileConnectionsDoNotDisturbAnHonestStream() throws Exception {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        long n = 2_000_000;
        // a thread for each blocking task: on 2 cores the common pool has one worker (on JDK 25
        // CompletableFuture uses it even then), and a blocked consumer there starves the others
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool(task -> {
            Thread t = new Thread(task, "fuzz-test");
            t.setDaemon(true);
            return t;
        });
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> honestIn = server.inlet(1, Codec.longs());
            for (int c = 2; c < 6; c++) {
                RemoteInlet<Long> victim = server.inlet(c, Codec.longs());
                CompletableFuture.runAsync(() -> {
                    try {
                        while (victim.take() != null) { /* swallow whatever fuzz got through */ }
                    } catch (RemoteChannelException expected) {
                        // malformed data or an attacker that left (or the server closed): this channel only
                    }
                }, threads);
            }
            RemoteOutlet<Long> honest = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults());
            honest.send(-1L);
            assertEquals(-1L, honestIn.take()); // attached before the attackers come
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                for (long i = 0; i < n; i++) honest.send(i);
                honest.complete();
            }, threads);
            CompletableFuture<Long> receiver = CompletableFuture.supplyAsync(() -> {
                long k = 0;
                for (Long x; (x = honestIn.take()) != null; k++) if (x != k) throw new AssertionError("at " + k + ": " + x);
                return k;
            }, threads);

            int connections = 0, frames = 0;
            for (int i = 0; i < 600; i++) { // garbage before any handshake
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                    byte[] g = new byte[1 + r.nextInt(2000)];
                    r.nextBytes(g);
                    s.getOutputStream().write(g);
                    connections++;
                    frames++;
                } catch (IOException closedEarly) {
                    connections++;
                }
            }
            for (int i = 0; i < 1500; i++) { // mutated conversations after a valid handshake
                try (Socket s = handshake(server.port())) {
                    byte[] conv = mutate(r, validConversation(r, 1 + r.nextInt(6)));
                    s.getOutputStream().write(conv);
                    s.getOutputStream().flush();
                    connections++;
                    frames += 4;
                } catch (IOException closedEarly) {
                    connections++;
                }
            }
            assertEquals(n, receiver.get(), "seed " + seed);
            sender.get();

            // specific refusals, with the reason sent back before the close
            try (Socket s = handshake(server.port())) {
                s.getOutputStream().write(new byte[] {0x7f, 0, 0, 0, Wire.DATA});
                String reply = drain(s);
                assertNotNull(reply, "server closed the connection");
                assertTrue(reply.contains("frame length"), reply);
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                s.setSoTimeout(5000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(1 + 4 + 1 + 16 + 1);
                out.writeByte(Wire.HELLO);
                out.writeInt(Wire.MAGIC);
                out.writeByte(99);
                out.write(new byte[17]);
                out.flush();
                String reply = drain(s);
                assertTrue(reply.contains("unsupported protocol version 99"), reply);
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                s.setSoTimeout(5000);
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String reply = drain(s);
                assertNotNull(reply);
                assertTrue(reply.contains("frame length"), reply);
            }

            // and a fresh honest peer still works
            RemoteInlet<String> later = server.inlet(100, Codec.strings());
            try (RemoteOutlet<String> out = NetClient.outlet("127.0.0.1", server.port(), 100, Codec.strings(), NetOptions.defaults())) {
                out.send("still here");
                out.complete();
            }
            assertEquals("still here", later.take());
            assertTrue(connections >= 2000 && frames >= 6000, connections + " connections, " + frames + " frames");
        } finally {
            threads.shutdownNow(); // the victims' consumers ended with the server (their inlets failed)
        }
    }
}
