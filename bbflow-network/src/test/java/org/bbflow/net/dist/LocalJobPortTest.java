package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code LocalJob.spec} gives every group a port of its own. It used to take each free port by
 * binding and closing a socket one group after another, so the kernel could hand the next group
 * the port just closed: a CI run failed with "groups 'w1' and 'w2' are both given
 * 127.0.0.1:35061". The ports of one spec are now held together until all are chosen.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalJobPortTest {

    /**
     * 1,000 specs of 30 groups: with ports taken one at a time, the kernel's ~28,000 ephemeral
     * ports make a repeat within one spec likely in this many pairs (about 15 expected); held
     * together, none is possible.
     */
    @Test
    void everyGroupOfASpecGetsADistinctPort() {
        String[] groups = new String[30];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = "g" + i;
        }
        for (int round = 0; round < 1_000; round++) {
            JobSpec spec = LocalJob.spec(groups).build(); // build() refuses two groups on one address
            Set<Integer> ports = new HashSet<>();
            for (String g : groups) {
                ports.add(spec.port(g));
            }
            assertEquals(groups.length, ports.size(), "round " + round);
        }
    }
}
