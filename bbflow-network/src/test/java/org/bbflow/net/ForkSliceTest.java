package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.bbflow.testing.FreePorts;
import org.junit.jupiter.api.Test;

/**
 * This module's tests run in two JVMs at once, and each takes the ports it hands to servers and child
 * JVMs from its own fork's slice, below the kernel's ephemeral range (see the pom's Surefire
 * configuration). Before 2026-11-28 the fork number reached the tests empty (SUREFIRE-1068), so every
 * port came from the kernel and a port a killed group had held could be taken by an outgoing
 * connection before the group restarted on it (a CI flake: "the address is already in use").
 */
class ForkSliceTest {
    @Test
    void underSurefireEveryPortComesFromThisForksSlice() {
        assumeTrue(System.getProperty("surefire.real.class.path") != null, "not run by Surefire (an IDE, say)");
        String fork = System.getProperty(FreePorts.FORK_PROPERTY);
        assertNotNull(fork, FreePorts.FORK_PROPERTY + " is not set: the pom's argLine must pass the fork number");
        int n = Integer.parseInt(fork.trim());
        int port = FreePorts.next();
        int first = 20_000 + 2_000 * (n - 1);
        assertTrue(port >= first && port < first + 2_000, "fork " + n + " was given port " + port
                + ", outside its slice " + first + "-" + (first + 1_999));
    }
}
