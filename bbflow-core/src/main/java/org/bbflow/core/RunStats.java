package org.bbflow.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The statistics of a flow: one {@link NodeStats} per node, in graph order, and the elapsed time.
 * {@link #toString()} prints them as a table. Snapshots taken while the flow runs
 * ({@link Flow#stats()}) subtract with {@link #since(RunStats)} to give the activity of an interval.
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
     * The name of the flow these statistics belong to.
     *
     * @return the flow's name (its root block's name)
     */
    public String flowName() {
        return flowName;
    }

    /**
     * The activity between an earlier snapshot of the same flow and this one: per node, the
     * difference of every counter and time, and the elapsed time between the two snapshots. Nodes
     * are matched by path; a node absent from {@code previous} counts from zero. A live snapshot
     * counts a wait still in progress as busy time, so a time difference can come out negative; it
     * is reported as 0.
     *
     * <pre>{@code
     * RunStats before = flow.stats();
     * Thread.sleep(1_000);
     * RunStats lastSecond = flow.stats().since(before);
     * }</pre>
     *
     * @param previous an earlier snapshot of the same flow
     * @return the statistics of the interval, in this snapshot's node order
     * @throws IllegalArgumentException if {@code previous} belongs to a flow of another name or is
     *         later than this snapshot
     */
    public RunStats since(RunStats previous) {
        Objects.requireNonNull(previous, "previous");
        if (!previous.flowName.equals(flowName)) {
            throw new IllegalArgumentException("statistics of flow '" + previous.flowName + "' cannot be subtracted from"
                    + " those of flow '" + flowName + "'");
        }
        if (previous.elapsed.compareTo(elapsed) > 0) {
            throw new IllegalArgumentException("the previous snapshot (" + previous.elapsed + ") is later than this one ("
                    + elapsed + ")");
        }
        Map<String, NodeStats> before = new HashMap<>();
        for (NodeStats p : previous.nodes) {
            before.put(p.path(), p);
        }
        List<NodeStats> delta = new ArrayList<>(nodes.size());
        for (NodeStats n : nodes) {
            NodeStats p = before.get(n.path());
            if (p == null) {
                delta.add(n);
            } else {
                delta.add(new NodeStats(n.path(), n.name(), n.itemsIn() - p.itemsIn(), n.itemsOut() - p.itemsOut(),
                        Math.max(0, n.busyNanos() - p.busyNanos()), Math.max(0, n.idleNanos() - p.idleNanos()),
                        n.emptyWaits() - p.emptyWaits(), n.fullWaits() - p.fullWaits(),
                        Math.max(0, n.offCpuNanos() - p.offCpuNanos())));
            }
        }
        return new RunStats(flowName, delta, elapsed.minus(previous.elapsed));
    }

    /**
     * The statistics as a fixed-width text table: one row per node, named by its block path (e.g.
     * {@code job/farm[1]/worker-3}), under a header that gives each column's unit.
     *
     * @return the table, one line per node plus a title and a header line
     */
    public String table() {
        int w = "node (block path)".length();
        for (NodeStats s : nodes) {
            w = Math.max(w, s.path().length());
        }
        StringBuilder b = new StringBuilder();
        String head = "%-" + w + "s %12s %12s %11s %11s %12s %8s %13s %12s%n";
        String row = "%-" + w + "s %12d %12d %11.1f %11.1f %12.1f %7.0f%% %13d %12d%n";
        b.append(String.format(Locale.ROOT, "flow '%s': %d nodes, elapsed %.1f ms%n", flowName, nodes.size(),
                elapsed.toNanos() / 1e6));
        b.append(String.format(Locale.ROOT, head, "node (block path)", "items in", "items out", "busy [ms]",
                "idle [ms]", "off cpu [ms]", "busy [%]", "empty waits", "full waits"));
        for (NodeStats s : nodes) {
            b.append(String.format(Locale.ROOT, row, s.path(), s.itemsIn(), s.itemsOut(), s.busyNanos() / 1e6,
                    s.idleNanos() / 1e6, s.offCpuNanos() / 1e6, 100 * s.busyShare(), s.emptyWaits(), s.fullWaits()));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return table();
    }
}
