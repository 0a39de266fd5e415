package org.bbflow.net.dist;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The rule of the master's stall watch ({@link JobSpec#stallTimeout()}): something watched (a remote
 * worker's stand-in, a linked run of stages, or a task lane) is stuck once it has work outstanding
 * (a task sent whose end-of-task mark is not back, a send waiting for the window, or the wait for the
 * end of the results) and its count of progress (tasks sent plus results and marks taken) has not
 * moved for the stall timeout. A change, or nothing outstanding, restarts its clock: one with nothing
 * outstanding is idle, not stuck (it may wait while the emitter waits on another worker). So a
 * misread "outstanding" at one check (the counts are read one after the other, without a lock) cannot
 * raise an alarm: the clock of one seen idle a check before is at most one check old. The same rule
 * as the examples' {@code DistributedMaster.stuck}, whose tasks give one result each, so that a
 * result there is its task's end-of-task mark. Used by the watch's thread only.
 */
final class StallWatch {
    private final long stallNanos;
    /** Per watched object: the progress last seen and since when (nanoTime). */
    private final Map<Object, long[]> seen = new IdentityHashMap<>();

    StallWatch(long stallNanos) {
        this.stallNanos = stallNanos;
    }

    /** Whether {@code watched}, with {@code progress} and {@code outstanding} as read at {@code now}, is stuck. */
    boolean stuck(Object watched, long progress, boolean outstanding, long now) {
        long[] s = seen.get(watched);
        if (s == null) {
            seen.put(watched, new long[] {progress, now});
            return false;
        }
        if (progress != s[0] || !outstanding) {
            s[0] = progress;
            s[1] = now;
            return false;
        }
        return now - s[1] > stallNanos;
    }

    /** Forgets {@code watched} (it was handled: its clock starts afresh should it be watched again). */
    void forget(Object watched) {
        seen.remove(watched);
    }
}
