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
 *
 * <p>A module whose tests run in several JVMs at once (Surefire's {@code forkCount}) sets
 * {@value #FORK_PROPERTY} to each JVM's fork number (1 to 6): fork k then takes its ports from its own
 * slice, the 2,000 ports from 20,000 + 2,000 (k - 1) on, below the kernel's ephemeral range (32768 on
 * Linux), so no two forks are ever given the same port and no port the kernel picks for a socket
 * bound to port 0 or for an outgoing connection is ever given.
 */
public final class FreePorts {
    /** The system property naming this JVM's fork number, when tests run in several JVMs at once. */
    public static final String FORK_PROPERTY = "bbflow.ports.fork";
    /** The first port of fork 1's slice; below the ephemeral range of Linux (32768 on) and Windows (49152 on). */
    static final int FIRST_SLICED = 20_000;
    /** The ports in each fork's slice. */
    static final int SLICE = 2_000;
    private static final Set<Integer> GIVEN = new HashSet<>();
    private static final int FORK = fork(System.getProperty(FORK_PROPERTY));
    private static int nextInSlice;

    private FreePorts() {
    }

    /**
     * A loopback port that was free a moment ago and that this method never returned before.
     *
     * @return the port
     * @throws UncheckedIOException if no socket can be opened
     * @throws IllegalStateException if 100 tries gave only ports already handed out, or every port of
     *         this fork's slice is taken
     */
    public static synchronized int next() {
        return FORK == 0 ? nextFromKernel() : nextInSlice(FORK);
    }

    private static int nextFromKernel() {
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

    static synchronized int nextInSlice(int fork) {
        int first = FIRST_SLICED + (fork - 1) * SLICE;
        for (int i = 0; i < SLICE; i++) {
            int port = first + nextInSlice;
            nextInSlice = (nextInSlice + 1) % SLICE;
            if (GIVEN.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                GIVEN.add(port);
                return port;
            } catch (IOException e) {
                // taken by another process: try the next one
            }
        }
        throw new IllegalStateException("no free port in fork " + fork + "'s slice " + first + "-" + (first + SLICE - 1));
    }

    static int fork(String value) {
        if (value == null) {
            return 0;
        }
        if (value.isBlank()) {
            // set, but to nothing: a build that means to slice and whose placeholder was not replaced. It
            // once fell back to the kernel's ports without a word, and the slices were never used (a
            // systemPropertyVariables value of ${surefire.forkNumber} alone arrives empty: SUREFIRE-1068).
            throw new IllegalStateException(FORK_PROPERTY + " is set but empty: the build's fork number was not"
                    + " substituted (pass -D" + FORK_PROPERTY + "=${surefire.forkNumber} in Surefire's argLine)");
        }
        int fork = Integer.parseInt(value.trim());
        if (fork < 1 || FIRST_SLICED + fork * SLICE > 32_768) {
            throw new IllegalArgumentException(FORK_PROPERTY + " must be 1 to " + (32_768 - FIRST_SLICED) / SLICE + ", was " + value);
        }
        return fork;
    }
}
