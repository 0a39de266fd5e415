package org.bbflow.core;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JDK Flight Recorder event {@value #NAME}: the statistics of one node, committed on the node's
 * thread when the node ends (normally, by failure or by cancellation): one event per node per flow.
 * Committed only while a recording that enables it runs (any recording does by default, e.g.
 * {@code -XX:StartFlightRecording}; {@code recording.disable("org.bbflow.NodeEnd")} turns it off);
 * otherwise the cost is one check per node end.
 */
@Name(NodeEndEvent.NAME)
@Label("BBFlow Node End")
@Category({"BBFlow"})
@Description("Statistics of one node of a BBFlow flow, at the node's end")
@StackTrace(false)
final class NodeEndEvent extends Event {
    static final String NAME = "org.bbflow.NodeEnd";

    @Label("Flow")
    @Description("Name of the flow (its root block)")
    String flow;

    @Label("Path")
    @Description("Block path of the node, also its thread's name")
    String path;

    @Label("Node")
    @Description("Name of the node")
    String node;

    @Label("Items In")
    long itemsIn;

    @Label("Items Out")
    long itemsOut;

    @Label("Busy")
    @Timespan(Timespan.NANOSECONDS)
    long busy;

    @Label("Idle")
    @Description("Time spent waiting for input or for room in an output channel")
    @Timespan(Timespan.NANOSECONDS)
    long idle;

    @Label("Empty Waits")
    @Description("Times the node waited on empty inputs")
    long emptyWaits;

    @Label("Full Waits")
    @Description("Times the node waited on a full output")
    long fullWaits;

    /** Commits the event for a node that has just ended, if a recording enables it. */
    static void emit(String flowName, NodeRunner r) {
        NodeEndEvent e = new NodeEndEvent();
        if (!e.isEnabled()) {
            return;
        }
        NodeStats s = r.stats(System.nanoTime(), r.itemsInAcquire());
        e.flow = flowName;
        e.path = s.path();
        e.node = s.name();
        e.itemsIn = s.itemsIn();
        e.itemsOut = s.itemsOut();
        e.busy = s.busyNanos();
        e.idle = s.idleNanos();
        e.emptyWaits = s.emptyWaits();
        e.fullWaits = s.fullWaits();
        e.commit();
    }
}
