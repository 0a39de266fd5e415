package org.bbflow.core;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The statistics of a flow: one {@link NodeStats} per node, in graph order, and the elapsed time.
 * {@link #toString()} prints them as a table.
 */
public final class RunStats {
    private final String flowName;
    private final List<NodeStats> nodes;
    private final Duration elapsed;

    RunStats(String flowName, List<NodeStats> nodes, Duration elapsed) {
        this.flowName = flowName;
        this.nodes = List.copyOf(nodes);
        this.elapsed = elapsed;
    }

    /**
     * Per-node statistics, in the order the nodes were composed.
     *
     * @return the statistics of every node
     */
    public List<NodeStats> nodes() {
        return nodes;
    }

    /**
     * Wall-clock time from start to the end of the last node (or to now, for a live snapshot).
     *
     * @return the flow's wall-clock time
     */
    public Duration elapsed() {
        return elapsed;
    }

    /**
     * The statistics of the node whose path equals or ends with {@code path}.
     *
     * @param path a node's path or a suffix of it, e.g. {@code farm[1]/worker-3}
     * @return that node's statistics
     * @throws IllegalArgumentException if no node, or more than one, matches
     */
    public NodeStats node(String path) {
        NodeStats found = null;
        for (NodeStats s : nodes) {
            if (s.path().equals(path)) {
                return s;
            }
            if (s.path().endsWith("/" + path)) {
                if (found != null) {
                    throw new IllegalArgumentException("several nodes match '" + path + "': " + found.path() + ", " + s.path());
                }
                found = s;
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("no node matches '" + path + "' in flow " + flowName);
        }
        return found;
    }

    /**
     * The statistics as a fixed-width text table.
     *
     * @return a text table with one line per node
     */
    public String table() {
        int w = "node".length();
        for (NodeStats s : nodes) {
            w = Math.max(w, s.path().length());
        }
        StringBuilder b = new StringBuilder();
        String head = "%-" + w + "s %12s %12s %9s %9s %6s %10s %10s%n";
        String row = "%-" + w + "s %12d %12d %9.1f %9.1f %5.0f%% %10d %10d%n";
        b.append(String.format(Locale.ROOT, head, "node", "items in", "items out", "busy ms", "idle ms", "busy",
                "empty wait", "full wait"));
        for (NodeStats s : nodes) {
            b.append(String.format(Locale.ROOT, row, s.path(), s.itemsIn(), s.itemsOut(), s.busyNanos() / 1e6,
                    s.idleNanos() / 1e6, 100 * s.busyShare(), s.emptyWaits(), s.fullWaits()));
        }
        b.append(String.format(Locale.ROOT, "elapsed %.1f ms%n", elapsed.toNanos() / 1e6));
        return b.toString();
    }

    @Override
    public String toString() {
        return table();
    }
}
