package org.bbflow.net.dist;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;

/**
 * Stands in the master's flow for a farm's worker or a pipeline stage that runs in another group
 * (a stage is a worker without a farm around it): sends each task to the
 * group on the worker's task channel, and passes on the results arriving on its result channel. A
 * reader thread takes the results as they arrive (so the remote side never waits on this node); the
 * node hands them on whenever it runs: before and after each task, and at end of stream, when it
 * waits for the remote worker's end of stream. Results in hand are bounded by the tasks in flight
 * (the task channel's window) times the results per task.
 */
final class RemoteWorker implements Node<Object, Object> {
    /** How long a failing channel waits for the group's own report of why it failed. */
    static final Duration REPORT_WAIT = Duration.ofSeconds(5);

    private final String group;
    private final String name;
    private final int taskId;
    private final Codec<Object> taskCodec;
    private final Codec<Object> resultCodec;
    private final ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
    private NetClient client;
    private RemoteInlet<Object> inlet;
    private GroupReports reports;
    private RemoteOutlet<Object> outlet;
    private Thread reader;
    private volatile boolean readerDone;
    private volatile RuntimeException readerFailure;
    private boolean completed;
    private NodeContext context;
    /** Items and results carry their routing ({@link Routed}): an all-to-all member's stand-in. */
    private final boolean routed;

    RemoteWorker(String farm, int worker, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec) {
        this("remote-worker[" + farm + "#" + worker + "@" + group + "]", group, taskId, taskCodec, resultCodec);
    }

    /** A stand-in named {@code name} (a pipeline stage's: {@code remote-stage[name@group]}). */
    RemoteWorker(String name, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec) {
        this(name, group, taskId, taskCodec, resultCodec, false);
    }

    /**
     * A stand-in that, when {@code routed}, sends each item as a {@link Routed} (its input port and this
     * node's counts) and routes each result as the remote {@link RoutedMember} chose.
     */
    RemoteWorker(String name, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec,
                 boolean routed) {
        this.routed = routed;
        this.group = group;
        this.name = name;
        this.taskId = taskId;
        this.taskCodec = taskCodec;
        this.resultCodec = resultCodec;
    }

    String group() {
        return group;
    }

    Codec<Object> resultCodec() {
        return resultCodec;
    }

    /** Connects this stand-in to the job's channels; called by the master before the flow starts. */
    void prepare(NetClient client, RemoteInlet<Object> inlet, GroupReports reports) {
        this.client = client;
        this.inlet = inlet;
        this.reports = reports;
    }

    @Override
    public void init(NodeContext ctx) {
        if (client == null) {
            throw new IllegalStateException(name + " runs only in the master group's flow, started by DistributedJob.run");
        }
        this.context = ctx;
        outlet = client.outlet(taskId, taskCodec);
        reader = new Thread(this::read, ctx.path() + "/results");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try {
            for (Object r; (r = inlet.take()) != null; ) {
                results.add(r);
            }
        } catch (RuntimeException e) {
            readerFailure = e;
        } finally {
            readerDone = true;
        }
    }

    @Override
    public void onItem(Object item, Outbox<Object> out) {
        handOn(out);
        try {
            outlet.send(routed ? new Routed(context.inputIndex(), context.inputCount(), out.outputCount(), item) : item);
        } catch (RemoteChannelException e) {
            throw explained(e);
        }
        handOn(out);
    }

    @Override
    public void onEos(Outbox<Object> out) throws InterruptedException {
        try {
            outlet.complete();
        } catch (RemoteChannelException e) {
            throw explained(e);
        }
        completed = true;
        while (!readerDone && !context.isCancelled()) {
            handOn(out);
            reader.join(10); // bounded: the inlet fails by itself once the peer stays away past the timeout
        }
        handOn(out);
    }

    private void handOn(Outbox<Object> out) {
        for (Object r; (r = results.poll()) != null; ) {
            if (!routed) {
                out.send(r);
            } else {
                Routed x = (Routed) r;
                if (x.port() == Routed.POLICY) {
                    out.send(x.item());
                } else if (x.port() == Routed.BROADCAST) {
                    out.broadcast(x.item());
                } else {
                    out.sendTo(x.port(), x.item());
                }
            }
        }
        RuntimeException f = readerFailure;
        if (f != null) {
            throw explained(f);
        }
    }

    /** The group's own account of the failure if it sends one in time, else the channel's. */
    private RuntimeException explained(RuntimeException e) {
        GroupFailedException reported = GroupReports.failure(group, reports.await(group, REPORT_WAIT), e);
        return reported != null ? reported : e;
    }

    @Override
    public void close() throws InterruptedException {
        if (outlet != null && !completed) {
            outlet.close(); // without complete(): aborts, so the group fails too
        }
        if (reader != null) {
            reader.interrupt();
            reader.join(5_000);
        }
        if (inlet != null) {
            inlet.close();
        }
    }

    @Override
    public String name() {
        return name;
    }
}
