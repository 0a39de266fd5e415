package org.bbflow.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Loopback ports for tests that start servers: the kernel picks a free one, and no port is handed
 * out twice in one JVM. Asking the kernel for port 0 three times in a row can return the same port
 * twice once the first socket is closed (seen in CI: two groups of one job given the same address),
 * so every port given is remembered.
 */
public final class FreePorts {
    private static final Set<Integer> GIVEN = new HashSet<>();

    private FreePorts() {
    }

    /**
     * A loopback port that was free a moment ago and that this method never returned before.
     *
     * @return the port
     * @throws UncheckedIOException if no socket can be opened
     * @throws IllegalStateException if 100 tries gave only ports already handed out
     */
    public static synchronized int next() {
        for (int i = 0; i < 100; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = s.getLocalPort();
                if (GIVEN.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free loopback port", e);
            }
        }
        throw new IllegalStateException("100 tries gave only ports already handed out");
    }
}
