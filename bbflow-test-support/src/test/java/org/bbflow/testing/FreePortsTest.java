package org.bbflow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    /** The kernel reuses a closed port soon enough that plain port-0 probing repeats itself. */
    @Test
    void neverTheSamePortTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            int p = FreePorts.next();
            assertEquals(true, seen.add(p), "port " + p + " handed out twice");
        }
    }

    /** Tests running in two JVMs at once (forkCount) take their ports from disjoint slices, below the ephemeral range. */
    @Test
    void eachForkHasItsOwnSliceBelowTheEphemeralRange() {
        Set<Integer> seen = new HashSet<>();
        for (int fork = 1; fork <= 2; fork++) {
            for (int i = 0; i < 50; i++) {
                int p = FreePorts.nextInSlice(fork);
                int first = FreePorts.FIRST_SLICED + (fork - 1) * FreePorts.SLICE;
                assertTrue(p >= first && p < first + FreePorts.SLICE, "fork " + fork + " was given port " + p);
                assertTrue(p < 32_768, "port " + p + " is in the ephemeral range");
                assertEquals(true, seen.add(p), "port " + p + " handed out twice");
            }
        }
        assertEquals(0, FreePorts.fork(null));
        assertEquals(2, FreePorts.fork("2"));
        assertThrows(IllegalArgumentException.class, () -> FreePorts.fork("0"));
        assertThrows(IllegalArgumentException.class, () -> FreePorts.fork("7"));
        // set to nothing: an unsubstituted placeholder, refused rather than silently unsliced
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> FreePorts.fork(""));
        assertTrue(e.getMessage().contains("surefire.forkNumber"), e.getMessage());
    }
}
