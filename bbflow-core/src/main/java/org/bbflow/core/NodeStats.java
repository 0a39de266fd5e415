package org.bbflow.core;

/**
 * The statistics of one node (FastFlow's tracing): items in and out, busy and idle time, and how
 * often the node had to wait on empty inputs or a full output.
 *
 * @param path the node's block path
 * @param name the node's name
 * @param itemsIn items received (a gathered list counts each element)
 * @param itemsOut items sent (a broadcast counts once per output)
 * @param busyNanos time alive and not waiting
 * @param idleNanos time spent waiting for input or for room in an output channel
 * @param emptyWaits how many times the node waited on empty inputs
 * @param fullWaits how many times the node waited on a full output
 */
public record NodeStats(String path, String name, long itemsIn, long itemsOut, long busyNanos, long idleNanos,
                        long emptyWaits, long fullWaits) {

    /**
     * The share of the node's life spent busy, in [0, 1].
     *
     * @return busy time over busy plus idle time, or 0 before the node ran
     */
    public double busyShare() {
        long total = busyNanos + idleNanos;
        return total == 0 ? 0 : (double) busyNanos / total;
    }
}
