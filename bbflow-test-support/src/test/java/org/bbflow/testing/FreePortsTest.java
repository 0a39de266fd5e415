package org.bbflow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
