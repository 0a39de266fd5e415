package org.bbflow.core;

/**
 * The statistics of one node (FastFlow's tracing): items in and out, busy, idle and off-CPU time, and
 * how often the node had to wait on empty inputs or a full output. A node's life is split three ways:
 * waiting on its channels (idle), running on a CPU (busy), and neither (off CPU: its thread was ready
 * but had no core, as when more threads than cores compete, or blocked in the node's own code, say on
 * I/O or a lock). Busy time is the thread's CPU time where the JVM can measure it
 * ({@link java.lang.management.ThreadMXBean}, read when the node ends and for a live snapshot, never
 * per item); where it cannot (a virtual thread, CPU time switched off, or a node of a JVM's first flow
 * that ended before the JVM had loaded the means to read it, some 10 ms), busy time is the time alive
 * and not waiting, and off-CPU time is 0.
 *
 * @param path the node's block path
 * @param name the node's name
 * @param itemsIn items received (a gathered list counts each element)
 * @param itemsOut items sent (a broadcast counts once per output)
 * @param busyNanos CPU time while alive and not waiting (spinning inside a wait counts as idle)
 * @param idleNanos time spent waiting for input or for room in an output channel
 * @param emptyWaits how many times the node waited on empty inputs
 * @param fullWaits how many times the node waited on a full output
 * @param offCpuNanos time alive and not waiting, but not running on a CPU
 */
public record NodeStats(String path, String name, long itemsIn, long itemsOut, long busyNanos, long idleNanos,
                        long emptyWaits, long fullWaits, long offCpuNanos) {

    /**
     * Statistics with no off-CPU time, as measured where thread CPU time is unknown.
     *
     * @param path the node's block path
     * @param name the node's name
     * @param itemsIn items received
     * @param itemsOut items sent
     * @param busyNanos time alive and not waiting
     * @param idleNanos time spent waiting for input or for room in an output channel
     * @param emptyWaits how many times the node waited on empty inputs
     * @param fullWaits how many times the node waited on a full output
     */
    public NodeStats(String path, String name, long itemsIn, long itemsOut, long busyNanos, long idleNanos,
                     long emptyWaits, long fullWaits) {
        this(path, name, itemsIn, itemsOut, busyNanos, idleNanos, emptyWaits, fullWaits, 0);
    }

    /**
     * The share of the node's life spent busy on a CPU, in [0, 1].
     *
     * @return busy time over busy, idle and off-CPU time, or 0 before the node ran
     */
    public double busyShare() {
        long total = busyNanos + idleNanos + offCpuNanos;
        return total == 0 ? 0 : (double) busyNanos / total;
    }
}
