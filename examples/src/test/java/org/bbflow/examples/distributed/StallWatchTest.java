package org.bbflow.examples.distributed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The master's stall rule ({@link DistributedMaster#stuck}), on a clock of its own. A worker that
 * stops reading holds up the round-robin emitter, so every other worker runs dry at about the same
 * moment; the end-to-end test ({@code DistributedFarmTest}) cannot decide whether the rule would also
 * name those idle workers (it depends on which 100 ms check saw their last change), so it is decided
 * here.
 */
class StallWatchTest {
    private static final long STALL = 2_000;

    @Test
    void aWorkerWithTasksOutstandingIsStuckAnIdleOneIsNot() {
        long[] seen = new long[2];
        long[] since = new long[2];
        // worker 0: 10 tasks out, 5 results back (its reader stopped); worker 1: 10 out, 10 back (done)
        assertFalse(DistributedMaster.stuck(10, 5, false, seen, since, 0, 0, STALL));
        assertFalse(DistributedMaster.stuck(10, 10, false, seen, since, 1, 0, STALL));
        assertFalse(DistributedMaster.stuck(10, 5, false, seen, since, 0, STALL, STALL), "not more than the stall yet");
        assertTrue(DistributedMaster.stuck(10, 5, false, seen, since, 0, STALL + 1, STALL), "outstanding, no change");
        assertFalse(DistributedMaster.stuck(10, 10, false, seen, since, 1, STALL + 1, STALL),
                "a worker that did all it was given is idle, not stuck");
        assertFalse(DistributedMaster.stuck(10, 10, false, seen, since, 1, 100 * STALL, STALL));
    }

    @Test
    void progressOrADoneFlowRestartsTheClock() {
        long[] seen = new long[1];
        long[] since = new long[1];
        assertFalse(DistributedMaster.stuck(10, 5, false, seen, since, 0, 0, STALL));
        assertFalse(DistributedMaster.stuck(10, 6, false, seen, since, 0, STALL + 1, STALL), "a result came back");
        assertFalse(DistributedMaster.stuck(10, 6, false, seen, since, 0, 2 * STALL + 1, STALL));
        assertTrue(DistributedMaster.stuck(10, 6, false, seen, since, 0, 2 * STALL + 2, STALL));
        assertFalse(DistributedMaster.stuck(10, 6, true, seen, since, 0, 10 * STALL, STALL), "its results' flow ended");
    }
}
