package org.bbflow.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.bbflow.core.Flow;
import org.bbflow.core.NodeStats;

/**
 * Binds the per-node statistics of a running {@link Flow} to a Micrometer {@link MeterRegistry}.
 *
 * <pre>{@code
 * Flow flow = Flow.start(pipeline);
 * FlowMetrics metrics = new FlowMetrics(flow);
 * metrics.bindTo(registry);
 * flow.join();
 * ...              // the meters keep the final statistics until
 * metrics.close(); // removes them
 * }</pre>
 *
 * <p>Per node of the flow, tagged {@code flow} (the flow's name), {@code path} (the node's block
 * path, unique in the flow) and {@code node} (the node's name), plus the tags given to the
 * constructor; each is a {@link FunctionCounter} of the node's {@link NodeStats}:
 *
 * <table>
 * <caption>Meters per node</caption>
 * <tr><th>meter</th><th>unit</th><th>{@link NodeStats}</th></tr>
 * <tr><td>{@value #ITEMS_IN}</td><td></td><td>{@link NodeStats#itemsIn()}</td></tr>
 * <tr><td>{@value #ITEMS_OUT}</td><td></td><td>{@link NodeStats#itemsOut()}</td></tr>
 * <tr><td>{@value #BUSY}</td><td>seconds</td><td>{@link NodeStats#busyNanos()}</td></tr>
 * <tr><td>{@value #IDLE}</td><td>seconds</td><td>{@link NodeStats#idleNanos()}</td></tr>
 * <tr><td>{@value #EMPTY_WAITS}</td><td></td><td>{@link NodeStats#emptyWaits()}</td></tr>
 * <tr><td>{@value #FULL_WAITS}</td><td></td><td>{@link NodeStats#fullWaits()}</td></tr>
 * </table>
 *
 * <p>and per flow the gauge {@value #RUNNING} (1 while the flow runs, 0 once every node has ended),
 * tagged {@code flow} and the constructor's tags.
 *
 * <p><b>Cost.</b> Nothing is added to the flow's nodes: the meters read {@link Flow#stats()} on
 * the thread that reads the registry, at most once per 100 ms while the flow runs (one snapshot
 * serves every meter of a scrape). Counters only grow: a live snapshot counts a wait still in
 * progress as busy time, so a later reading of busy time can be lower; the meter then keeps the
 * higher value (by at most the length of that wait).
 *
 * <p><b>When the flow ends</b> the meters stay registered and report the flow's final statistics,
 * so a scrape after a short run still sees its totals; {@value #RUNNING} turns 0. The final
 * statistics are read as soon as the flow has ended, whether it succeeded, failed or was cancelled;
 * from then on the meters hold those numbers, not the flow (its nodes and channels are released).
 * The meters hold them whether or not this binder is kept and whether or not a filter of the
 * registry denies some meters. {@link #close()} removes the meters from every registry this binder
 * was bound to. Binding a flow whose name and tags equal those of meters already registered (the
 * same job run again) replaces every node meter of that name and those tags, those of nodes the new
 * run lacks included (a narrower farm); two flows that run at the same time need different names
 * (e.g. {@code pipeline.named("ingest")}) or a distinguishing tag.
 */
public final class FlowMetrics implements MeterBinder, AutoCloseable {
    /** Items a node received, a counter (meter name). */
    public static final String ITEMS_IN = "bbflow.node.items.in";
    /** Items a node sent, a counter (meter name). */
    public static final String ITEMS_OUT = "bbflow.node.items.out";
    /** Seconds a node was alive and not waiting, a counter (meter name). */
    public static final String BUSY = "bbflow.node.busy";
    /** Seconds a node waited for input or for room in an output channel, a counter (meter name). */
    public static final String IDLE = "bbflow.node.idle";
    /** How many times a node waited on empty inputs, a counter (meter name). */
    public static final String EMPTY_WAITS = "bbflow.node.waits.empty";
    /** How many times a node waited on a full output channel, a counter (meter name). */
    public static final String FULL_WAITS = "bbflow.node.waits.full";
    /** 1 while the flow runs, 0 once it has ended, a gauge (meter name). */
    public static final String RUNNING = "bbflow.flow.running";

    private static final Set<String> OWN_TAGS = Set.of("flow", "path", "node");
    private static final Set<String> NODE_METERS = Set.of(ITEMS_IN, ITEMS_OUT, BUSY, IDLE, EMPTY_WAITS, FULL_WAITS);

    /** While the flow runs, how long one snapshot of its statistics serves the meters. */
    static final long DEFAULT_MAX_AGE_NANOS = 100_000_000L;

    private final String flowName;
    private final Tags tags;
    private final List<NodeStats> nodes;
    private final FlowReadings readings;
    /** Every binding not yet closed; its lock also guards {@link #closed}. */
    private final List<Registration> registered = new ArrayList<>();
    /** Set once by {@link #close()}: a binding from then on is refused (see {@link #bindTo}). */
    private boolean closed;
    /**
     * Run by {@link #bindTo} between registering its meters and recording them for {@link #close()}
     * (for tests: it holds a binding there while another thread closes).
     */
    Runnable beforeRecord = () -> { };

    /**
     * Meters for the nodes of a flow, tagged with the flow's name and each node's path and name.
     *
     * @param flow a started flow (running or ended)
     * @throws NullPointerException if {@code flow} is null
     */
    public FlowMetrics(Flow flow) {
        this(flow, Tags.empty());
    }

    /**
     * Meters for the nodes of a flow, with extra tags on every meter (e.g. {@code run=42} to tell
     * apart flows of the same name that run at the same time).
     *
     * @param flow a started flow (running or ended)
     * @param tags extra tags of every meter
     * @throws NullPointerException if {@code flow} or {@code tags} is null
     * @throws IllegalArgumentException if a tag is named {@code flow}, {@code path} or {@code node}
     *         (this binder's own: it would be overwritten on the node meters)
     */
    public FlowMetrics(Flow flow, Iterable<Tag> tags) {
        this(flow, tags, DEFAULT_MAX_AGE_NANOS);
    }

    FlowMetrics(Flow flow, Iterable<Tag> tags, long maxAgeNanos) {
        Objects.requireNonNull(flow, "flow");
        this.flowName = flow.name();
        Tags extra = Tags.of(Objects.requireNonNull(tags, "tags"));
        for (Tag t : extra) {
            if (OWN_TAGS.contains(t.getKey())) {
                throw new IllegalArgumentException("tag '" + t.getKey() + "' is one of FlowMetrics' own (flow, path,"
                        + " node); name it otherwise, e.g. 'host' for a machine");
            }
        }
        this.tags = extra.and("flow", flowName);
        this.nodes = flow.stats().nodes();   // the nodes and their order are fixed once the flow started
        this.readings = new FlowReadings(flow, nodes.size(), maxAgeNanos);
        // Read the final statistics as soon as the flow has ended (on the thread that completes the
        // flow's future, never a node thread), which also lets the flow go: registries then hold only
        // the numbers, whether or not they are read again.
        flow.completion().whenComplete((stats, failure) -> readings.running());
    }

    /**
     * Registers this flow's meters (see the class comment) in a registry; meters of the same names
     * and tags already there are replaced. May be called for several registries.
     *
     * <p>Not after {@link #close()}: its meters would outlive the binder's close. A binding that
     * races a close on another thread either ends before the close, which then removes its meters,
     * or is refused, its meters removed before it throws; either way no meter of this binder is left
     * registered once both have returned.
     *
     * @param registry the registry to add the meters to
     * @throws NullPointerException if {@code registry} is null
     * @throws IllegalStateException if this binder is closed, or was closed while binding (the meters
     *         this call registered are removed again)
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        synchronized (registered) {
            if (closed) {
                throw closedError();
            }
        }
        List<Meter> meters = new ArrayList<>();
        // Every meter holds the readings strongly (the gauge by strongReference, the counters through
        // their functions: a function counter holds its object only weakly), so the meters keep working
        // for as long as they are registered, whether or not this binder is kept and whether or not a
        // filter of the registry denies some of them.
        Tags flowTags = tags;
        replace(registry, RUNNING, flowTags, Meter.Type.GAUGE);
        Gauge running = Gauge.builder(RUNNING, readings, r -> r.running() ? 1 : 0).tags(flowTags)
                .description("1 while the BBFlow flow runs, 0 once every node has ended")
                .strongReference(true).register(registry);
        meters.add(running);
        removeNodeMeters(registry, running.getId());
        for (int i = 0; i < nodes.size(); i++) {
            NodeStats n = nodes.get(i);
            Tags nodeTags = tags.and("path", n.path()).and("node", n.name());
            meters.add(counter(registry, ITEMS_IN, nodeTags, i, FlowReadings.ITEMS_IN, null, "items the node received"));
            meters.add(counter(registry, ITEMS_OUT, nodeTags, i, FlowReadings.ITEMS_OUT, null, "items the node sent"));
            meters.add(counter(registry, BUSY, nodeTags, i, FlowReadings.BUSY_NANOS, "seconds",
                    "time the node was alive and not waiting"));
            meters.add(counter(registry, IDLE, nodeTags, i, FlowReadings.IDLE_NANOS, "seconds",
                    "time the node waited for input or for room in an output channel"));
            meters.add(counter(registry, EMPTY_WAITS, nodeTags, i, FlowReadings.EMPTY_WAITS, null,
                    "times the node waited on empty inputs"));
            meters.add(counter(registry, FULL_WAITS, nodeTags, i, FlowReadings.FULL_WAITS, null,
                    "times the node waited on a full output channel"));
        }
        // A close between the check above and here found this binding not yet recorded and could not
        // remove its meters (they once outlived it): recorded only if still open, else removed here.
        beforeRecord.run();
        Registration r = new Registration(registry, meters);
        synchronized (registered) {
            if (!closed) {
                registered.add(r);
                return;
            }
        }
        unregister(r);
        throw closedError();
    }

    private IllegalStateException closedError() {
        return new IllegalStateException(this + " is closed: its meters would outlive it; bind a new FlowMetrics");
    }

    private FunctionCounter counter(MeterRegistry registry, String name, Tags nodeTags, int node, int kind,
                                    String baseUnit, String description) {
        replace(registry, name, nodeTags, Meter.Type.COUNTER);
        boolean seconds = baseUnit != null;
        FlowReadings held = readings;   // captured by the function: held strongly (see bindTo)
        return FunctionCounter.builder(name, held,
                        r -> seconds ? held.value(node, kind) / 1e9 : (double) held.value(node, kind))
                .tags(nodeTags).baseUnit(baseUnit).description("BBFlow node: " + description).register(registry);
    }

    /**
     * Removes the node meters an earlier binding of a flow of the same name and tags left, whichever
     * its nodes (a rerun of a job with a narrower farm has fewer): those whose tags, but for
     * {@code path} and {@code node}, are the flow gauge's as the registry stored it (its filters may
     * have added common tags).
     */
    private static void removeNodeMeters(MeterRegistry registry, Meter.Id flowId) {
        Set<Tag> flowTags = new HashSet<>(flowId.getTags());
        for (Meter m : registry.getMeters()) {
            Meter.Id id = m.getId();
            if (NODE_METERS.contains(id.getName())) {
                Set<Tag> rest = new HashSet<>();
                for (Tag t : id.getTags()) {
                    if (!t.getKey().equals("path") && !t.getKey().equals("node")) {
                        rest.add(t);
                    }
                }
                if (rest.equals(flowTags)) {
                    registry.remove(m);
                }
            }
        }
    }

    /** Removes a meter of the same name and tags left by an earlier binding (say, a previous run of the same job). */
    private static void replace(MeterRegistry registry, String name, Tags meterTags, Meter.Type type) {
        registry.removeByPreFilterId(new Meter.Id(name, meterTags, null, null, type));
    }

    /**
     * Removes this flow's meters from every registry it was bound to (only those still registered
     * as this binder made them: meters that a later binding replaced stay). Idempotent. A binding
     * after it, or racing it, is refused (see {@link #bindTo}).
     */
    @Override
    public void close() {
        List<Registration> all;
        synchronized (registered) {
            closed = true;
            all = new ArrayList<>(registered);
            registered.clear();
        }
        for (Registration r : all) {
            unregister(r);
        }
    }

    /** Removes a binding's meters still registered as it made them. */
    private static void unregister(Registration r) {
        Set<Meter> current = Collections.newSetFromMap(new IdentityHashMap<>());
        current.addAll(r.registry.getMeters());
        for (Meter m : r.meters) {
            if (current.contains(m)) {
                r.registry.remove(m);
            }
        }
    }

    /** The readings behind the meters (for tests). */
    FlowReadings readings() {
        return readings;
    }

    @Override
    public String toString() {
        return "FlowMetrics[" + flowName + ", " + nodes.size() + " nodes]";
    }

    private record Registration(MeterRegistry registry, List<Meter> meters) {
    }
}
