package org.bbflow.micrometer;

import java.util.List;
import org.bbflow.core.Flow;
import org.bbflow.core.NodeStats;

/**
 * The statistics the meters of one flow report: read from {@link Flow#stats()} on the reading
 * (scraping) thread, at most once per {@code maxAgeNanos} while the flow runs, so one scrape of all
 * meters costs one snapshot, and never on a node thread. Every value only grows: a live snapshot
 * counts a wait in progress as busy time, so busy time read later can be smaller; the reported
 * value keeps the largest reading. Once the flow has ended, the final statistics are read once and
 * the flow itself is let go (its nodes and channels are not kept alive by a registry).
 */
final class FlowReadings {
    static final int ITEMS_IN = 0;
    static final int ITEMS_OUT = 1;
    static final int BUSY_NANOS = 2;
    static final int IDLE_NANOS = 3;
    static final int EMPTY_WAITS = 4;
    static final int FULL_WAITS = 5;
    static final int KINDS = 6;

    private final long maxAgeNanos;
    private final int nodeCount;
    /** {@code values[node * KINDS + kind]}, each the largest reading so far. */
    private final long[] values;
    /** Null once the final statistics have been read. */
    private Flow flow;
    private boolean readOnce;
    private long readAt;

    FlowReadings(Flow flow, int nodeCount, long maxAgeNanos) {
        this.flow = flow;
        this.nodeCount = nodeCount;
        this.maxAgeNanos = maxAgeNanos;
        this.values = new long[nodeCount * KINDS];
    }

    /** One statistic of one node, in the order of {@link org.bbflow.core.RunStats#nodes()}. */
    synchronized long value(int node, int kind) {
        refresh();
        return values[node * KINDS + kind];
    }

    /** Whether the flow was still running at the latest reading. */
    synchronized boolean running() {
        refresh();
        return flow != null;
    }

    /** Whether the flow is still referenced (until its final statistics have been read). */
    synchronized boolean holdsFlow() {
        return flow != null;
    }

    private void refresh() {
        Flow f = flow;
        if (f == null) {
            return;
        }
        long now = System.nanoTime();
        boolean done = f.isDone();   // read before the snapshot: if true, the snapshot is final
        if (!done && readOnce && now - readAt < maxAgeNanos) {
            return;
        }
        List<NodeStats> nodes = f.stats().nodes();
        for (int i = 0; i < nodeCount && i < nodes.size(); i++) {
            NodeStats s = nodes.get(i);
            raise(i, ITEMS_IN, s.itemsIn());
            raise(i, ITEMS_OUT, s.itemsOut());
            raise(i, BUSY_NANOS, s.busyNanos());
            raise(i, IDLE_NANOS, s.idleNanos());
            raise(i, EMPTY_WAITS, s.emptyWaits());
            raise(i, FULL_WAITS, s.fullWaits());
        }
        readOnce = true;
        readAt = now;
        if (done) {
            flow = null;
        }
    }

    private void raise(int node, int kind, long value) {
        int i = node * KINDS + kind;
        if (value > values[i]) {
            values[i] = value;
        }
    }
}
