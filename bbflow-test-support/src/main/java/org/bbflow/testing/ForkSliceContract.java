package org.bbflow.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * For a module whose tests run in several JVMs at once: each takes the ports it hands to servers and
 * child JVMs from its own fork's slice, below the kernel's ephemeral range ({@link FreePorts}). Such a
 * module extends this class once ({@code class ForkSliceTest extends ForkSliceContract {}}).
 *
 * <p>Before 2026-11-28 the fork number reached the tests empty (a lone {@code ${surefire.forkNumber}}
 * as a {@code systemPropertyVariables} value, SUREFIRE-1068), so every port came from the kernel and a
 * port a killed group had held could be taken by an outgoing connection before the group restarted
 * on it (a CI flake: "the address is already in use"). The module's pom passes it in the argLine.
 */
public abstract class ForkSliceContract {
    /** Under Surefire, a port from {@link FreePorts#next()} lies in this fork's slice. */
    @Test
    public void underSurefireEveryPortComesFromThisForksSlice() {
        assumeTrue(System.getProperty("surefire.real.class.path") != null, "not run by Surefire (an IDE, say)");
        String fork = System.getProperty(FreePorts.FORK_PROPERTY);
        assertNotNull(fork, FreePorts.FORK_PROPERTY + " is not set: the pom's argLine must pass the fork number");
        int n = FreePorts.fork(fork);
        int port = FreePorts.next();
        int first = FreePorts.FIRST_SLICED + FreePorts.SLICE * (n - 1);
        assertTrue(port >= first && port < first + FreePorts.SLICE, "fork " + n + " was given port " + port
                + ", outside its slice " + first + "-" + (first + FreePorts.SLICE - 1));
    }
}
