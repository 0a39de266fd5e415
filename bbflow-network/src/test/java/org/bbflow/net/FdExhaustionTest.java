package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flood of connections that exhausts a server's file descriptors must not break what the JDK,
 * Netty or this module load or initialise lazily (issue 34, finding 2): before the fix the first log
 * record, written at the limit, could not open the JDK's time-zone data, and from then on nothing in
 * the process could log through java.util.logging or call {@code ZonedDateTime.now()}. The server
 * ({@link FdStarvedServer}) runs in a child JVM under {@code ulimit -n}; after the flood it must
 * still log, read the clock in its time zone, and carry an honest stream exactly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FdExhaustionTest {
    static final int FD_LIMIT = 128;

    /** Starts {@link FdStarvedServer} under {@code ulimit -n limit}, with a small heap and direct memory. */
    static TwoJvmTest.Child starvedChild(int limit) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "ulimit -n " + limit + " && exec '" + java + "' -Xmx64m -XX:MaxDirectMemorySize=32m"
                + " -Dio.netty.leakDetection.level=paranoid -Dio.netty.leakDetection.acquireAndReleaseOnly=true"
                + " -cp '" + System.getProperty("java.class.path") + "' " + FdStarvedServer.class.getName();
        return new TwoJvmTest.Child(List.of("/bin/sh", "-c", cmd));
    }

    /** Opens {@code n} connections (spread over a few loopback addresses, under the per-address limit); those refused are left out. */
    static List<Socket> flood(int port, int n) {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            try {
                sockets.add(AbusivePeerTest.connectFrom("127.0.0." + (2 + i % 4), port));
            } catch (IOException refused) {
                // the kernel's backlog may be full
            }
        }
        return sockets;
    }

    /** How many of {@code sockets} the server accepted: those it sent its challenge on (within a bounded wait). */
    static int accepted(List<Socket> sockets) throws Exception {
        return accepted(sockets, System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
    }

    /** How many of {@code sockets} the server sent its challenge on by {@code endNanos} ({@link System#nanoTime()}). */
    static int accepted(List<Socket> sockets, long endNanos) throws Exception {
        int seen = 0;
        long end = endNanos;
        boolean[] challenged = new boolean[sockets.size()];
        while (System.nanoTime() < end) {
            for (int i = 0; i < sockets.size(); i++) {
                if (!challenged[i] && sockets.get(i).getInputStream().available() > 0) {
                    challenged[i] = true;
                    seen++;
                }
            }
            Thread.sleep(20);
        }
        return seen;
    }

    @Test
    void floodToTheFdLimitLeavesLoggingTimeZonesAndServingIntact() throws Exception {
        Assumptions.assumeTrue(new java.io.File("/proc/self/fd").isDirectory() && new java.io.File("/bin/sh").canExecute(),
                "needs Linux's /proc and /bin/sh for ulimit");
        try (TwoJvmTest.Child child = starvedChild(FD_LIMIT)) {
            String[] ready = child.await("LISTENING ", 30).split(" ");
            int port = Integer.parseInt(ready[1]);
            assertEquals(String.valueOf(FD_LIMIT), ready[5], "the child's descriptor limit");
            int free = FD_LIMIT - Integer.parseInt(ready[3]);
            List<Socket> sockets = flood(port, free + 40);
            try {
                int accepted = accepted(sockets);
                assertTrue(accepted < sockets.size(), "the flood did not reach the limit: all " + accepted + " accepted");
            } finally {
                for (Socket s : sockets) s.close();
            }
            child.send("CHECK");
            assertEquals("CHECK ok", child.await("CHECK ", 30), "after a flood to the descriptor limit:\n" + child.output);
            assertTrue(child.output.toString().contains("cannot accept a connection"),
                    "the warning written at the limit is missing:\n" + child.output);
            child.send("INLET 1");
            long n = 100_000;
            try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", port, 1, Codec.longs(), NetOptions.defaults())) {
                for (long i = 0; i < n; i++) out.sendLong(i);
                out.complete();
            }
            assertEquals("DONE 1 " + n + " " + n * (n - 1) / 2, child.await("DONE 1 ", 30));
        }
    }
}
