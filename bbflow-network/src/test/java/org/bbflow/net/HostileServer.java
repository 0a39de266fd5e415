package org.bbflow.net;

import io.netty.buffer.PooledByteBufAllocator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HexFormat;

/**
 * The server under attack in {@link HostilePeerTest}, run in a child JVM with a small heap and
 * direct-memory limit. Prints {@code PORT <n>}, then answers commands on standard input:
 * <ul>
 * <li>{@code INLET <id>}: registers an inlet of longs and drains it in a thread of its own; prints
 *     {@code DONE <id> <count> <sum>} at end of stream or {@code FAILED <id> <message>};
 * <li>{@code QUEUED}: prints {@code QUEUED <bytes>}, the replies waiting to be sent to peers;
 * <li>{@code MEM}: collects garbage and prints {@code MEM <heap bytes> <pooled direct bytes>
 *     <open connections> <leaks reported>}.
 * </ul>
 * It exits when its standard input ends. Args: shared secret in hex.
 */
public final class HostileServer {
    private HostileServer() {}

    public static void main(String[] args) throws Exception {
        NetOptions opts = NetOptions.defaults().withSharedSecret(HexFormat.of().parseHex(args[0]))
                .withHandshakeTimeout(Duration.ofSeconds(2)).withHeartbeat(Duration.ofMillis(500));
        LeakCheck.install();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
            System.out.println("PORT " + server.port());
            System.out.flush();
            for (String line; (line = in.readLine()) != null; ) {
                String[] w = line.trim().split(" ");
                switch (w[0]) {
                    case "INLET" -> drain(server.inlet(Integer.parseInt(w[1]), Codec.longs()));
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
                        long direct = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
                        say("MEM " + heap + " " + direct + " " + server.connectionCount() + " " + leaks);
                    }
                    default -> say("UNKNOWN " + line);
                }
            }
        }
        System.exit(0);
    }

    private static void drain(RemoteInlet<Long> inlet) {
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

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
