package org.bbflow.net;

import io.netty.util.internal.PlatformDependent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The servers under attack in {@link HostilePeerTest}, run in a child JVM with a small heap,
 * direct-memory and descriptor limit: one with a shared secret, one with TLS and low connection
 * limits. Prints {@code TLSPORT <n>}, then {@code PORT <n>}, then answers commands on standard input:
 * <ul>
 * <li>{@code INLET <id>} (or {@code TLSINLET <id>}): registers an inlet of longs and drains it in a
 *     thread of its own; prints {@code DONE <id> <count> <sum>} at end of stream or {@code FAILED <id> <message>};
 * <li>{@code STALLED <id>}: registers an inlet that nobody reads; {@code CLOSE <id>} closes it;
 * <li>{@code QUEUED}: prints {@code QUEUED <bytes>}, the replies waiting to be sent to peers;
 * <li>{@code MEM}: collects garbage and prints {@code MEM <heap bytes> <direct bytes>
 *     <open connections> <leaks reported>};
 * <li>{@code BINDFAIL <n>}: binds n times to its own port and n times to a foreign address, and prints
 *     {@code BINDFAIL <failures> <threads> <fds>} (threads and descriptors more than before).
 * </ul>
 * It exits when its standard input ends. Args: shared secret in hex, TLS key store (PKCS12, password
 * "changeit").
 */
public final class HostileServer {
    private HostileServer() {}

    /** The plain port's handshake timeout: an idle unauthenticated connection is closed after it. */
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);

    public static void main(String[] args) throws Exception {
        NetOptions opts = NetOptions.defaults().withSharedSecret(HexFormat.of().parseHex(args[0]))
                .withHandshakeTimeout(HANDSHAKE_TIMEOUT).withHeartbeat(Duration.ofMillis(500));
        NetOptions tlsOpts = NetOptions.defaults().withTls(TlsContexts.server(TlsContexts.load(Path.of(args[1]),
                TestCerts.password()), TestCerts.password())).withMaxConnections(24, 16)
                .withHandshakeTimeout(Duration.ofSeconds(1)).withHeartbeat(Duration.ofMillis(500));
        LeakCheck.install();
        Map<Integer, RemoteInlet<Long>> stalled = new ConcurrentHashMap<>();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             NetServer tls = NetServer.bind("127.0.0.1", 0, tlsOpts);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
            say("TLSPORT " + tls.port());
            say("PORT " + server.port());
            for (String line; (line = in.readLine()) != null; ) {
                String[] w = line.trim().split(" ");
                switch (w[0]) {
                    case "INLET" -> drain(server.inlet(Integer.parseInt(w[1]), Codec.longs()));
                    case "TLSINLET" -> drain(tls.inlet(Integer.parseInt(w[1]), Codec.longs()));
                    case "STALLED" -> stalled.put(Integer.parseInt(w[1]), server.inlet(Integer.parseInt(w[1]), Codec.longs()));
                    case "CLOSE" -> {
                        RemoteInlet<Long> s = stalled.remove(Integer.parseInt(w[1]));
                        if (s != null) s.close();
                        say("CLOSED " + w[1]);
                    }
                    case "BINDFAIL" -> bindFailures(server.port(), Integer.parseInt(w[1]));
                    case "QUEUED" -> say("QUEUED " + server.queuedBytes());
                    case "MEM" -> {
                        int leaks = 0;
                        try {
                            LeakCheck.assertNoLeaks(); // also collects garbage
                        } catch (AssertionError e) {
                            leaks = 1;
                            e.printStackTrace(System.out);
                        }
                        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                        say("MEM " + heap + " " + directBytes() + " " + server.connectionCount() + " " + leaks);
                    }
                    default -> say("UNKNOWN " + line);
                }
            }
        }
        System.exit(0);
    }

    /**
     * Direct memory in use: Netty's own count (which, under a direct-memory limit, also counts what it
     * allocates through the JDK) or the JDK's, whichever is larger. Pools keep what they allocated, so
     * this is what the process holds, not only what is in use.
     */
    static long directBytes() {
        long jdk = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) jdk = b.getMemoryUsed();
        }
        return Math.max(PlatformDependent.usedDirectMemory(), jdk);
    }

    private static void bindFailures(int busyPort, int n) {
        int threads = Thread.activeCount();
        int fds = FdStarvedServer.openFds();
        int failures = 0;
        for (int i = 0; i < n; i++) {
            for (String host : new String[] {"127.0.0.1", BindFailureTest.FOREIGN}) {
                try {
                    NetServer.bind(host, busyPort, NetOptions.defaults()).close();
                } catch (UncheckedIOException expected) {
                    failures++;
                }
            }
        }
        long end = System.nanoTime() + 5_000_000_000L; // a loop's thread ends just after its termination is reported
        while (Thread.activeCount() > threads && System.nanoTime() < end) Thread.onSpinWait();
        // more than before, as the protocol says: fewer is an earlier test's connection whose close
        // ended meanwhile (the flood before this step: a verify once saw "BINDFAIL 40 0 -1"), not a leak
        say("BINDFAIL " + failures + " " + Math.max(0, Thread.activeCount() - threads) + " "
                + Math.max(0, FdStarvedServer.openFds() - fds));
    }

    static void drain(RemoteInlet<Long> inlet) {
        Thread t = new Thread(() -> {
            long count = 0, sum = 0;
            try {
                for (Long x; (x = inlet.take()) != null; count++) sum += x;
                say("DONE " + inlet.channelId() + " " + count + " " + sum);
            } catch (RuntimeException e) {
                say("FAILED " + inlet.channelId() + " " + e.getMessage());
            }
        }, "drain-" + inlet.channelId());
        t.setDaemon(true);
        t.start();
    }

    static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
