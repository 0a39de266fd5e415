package org.bbflow.bkd;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.bbflow.core.Channel;
import org.bbflow.core.ChannelSpec;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.WaitStrategy;

/**
 * The background bulk-loaders as a BBFlow flow:
 * {@code fromChannel(tickets) -> farm of merge workers -> sink(install)}.
 *
 * <p>The bounded MPSC ticket channel is the backlog: inserters {@code put} a ticket after
 * publishing a tree and wait (parked) while it is full. A worker, per ticket, claims and
 * bulk-loads jobs while some level has enough unclaimed trees and sends each merged tree on; the
 * single sink swaps it into the forest, retires the inputs and offers (never waits for) a ticket
 * so the next level gets looked at. Nothing in the flow waits on its own input channel, so a full
 * backlog cannot deadlock it. The flow's internal edges hold at most two items each, so the
 * backlog seen by inserters is the ticket channel plus a handful of tickets inside the flow.
 */
final class FlowMergeStage implements MergeStage {
    private static final Object TICKET = new Object();

    /** A merged tree on its way to the sink, or the end of one ticket's work. */
    private record Outcome(KdTree[] inputs, KdTree output, boolean ticketDone) {}

    private static final Outcome DONE = new Outcome(null, null, true);

    private final Merger merger;
    private final int workers;
    private final Channel<Object> tickets;
    private final AtomicInteger inFlight = new AtomicInteger();
    final MergeFailures failures = new MergeFailures();
    private volatile boolean closed;
    private Flow flow;

    /** Makes the flow's threads (tests), or null for the flow's own. */
    private final java.util.concurrent.ThreadFactory factory;

    FlowMergeStage(Merger merger, int workers, int backlog, java.util.concurrent.ThreadFactory factory) {
        this.merger = merger;
        this.factory = factory;
        this.workers = workers;
        this.tickets = Channel.<Object>mpsc(Math.max(2, backlog)).waitStrategy(WaitStrategy.blocking());
    }

    @Override
    public void start() {
        Farm<Object, Outcome> farm = Farm.<Object, Outcome>of(workers, () -> Nodes.flatMap(this::work))
                .dispatch(Dispatch.onDemand());
        Node<Outcome, Void> install = Nodes.sink(this::install);
        Pipeline<Void, Void> pipeline = Pipeline.of(Nodes.fromChannel(tickets), farm, install);
        FlowOptions options = FlowOptions.defaults()
                .withWaitStrategy(WaitStrategy.blocking())
                .withChannels(ChannelSpec.bounded(2))
                .withDaemon(true);
        // a Flow.start that fails has stopped the node threads it started (nothing to close here)
        flow = Flow.start(pipeline, factory == null ? options : options.withThreadFactory(factory));
    }

    /** Merge worker: one ticket in, zero or more merged trees and one DONE out. */
    private void work(Object ticket, Outbox<Outcome> out) {
        try {
            KdTree[] job;
            while (!closed && (job = merger.claim()) != null) {
                KdTree merged;
                try {
                    merged = merger.merge(job);
                } catch (RuntimeException | Error e) {
                    for (KdTree t : job) {
                        t.claimed.set(false);
                    }
                    merger.failed(job);
                    throw e;
                }
                out.send(new Outcome(job, merged, false));
            }
        } catch (Throwable t) {
            failures.record(t);
        }
        out.send(DONE);
    }

    /** Sink: installs merged trees (single thread) and accounts for finished tickets. */
    private void install(Outcome o) {
        if (o.ticketDone()) {
            inFlight.decrementAndGet();
            return;
        }
        try {
            merger.install(o.inputs(), o.output());
        } catch (Throwable t) {
            failures.record(t);
        }
        if (!closed) {
            offer();
        }
    }

    @Override
    public boolean submit() throws InterruptedException {
        inFlight.incrementAndGet();
        try {
            if (closed) {
                inFlight.decrementAndGet();
                return false;
            }
            tickets.put(TICKET);
            return true;
        } catch (IllegalStateException e) {
            inFlight.decrementAndGet();
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the merge backlog");
            }
            return false;
        }
    }

    @Override
    public boolean offer() {
        inFlight.incrementAndGet();
        try {
            if (!closed && tickets.offer(TICKET)) {
                return true;
            }
        } catch (IllegalStateException closedMeanwhile) {
            // fall through
        }
        inFlight.decrementAndGet();
        return false;
    }

    @Override
    public int backlog() {
        return inFlight.get();
    }

    @Override
    public void close() {
        closed = true;
        tickets.close();
        if (flow != null) {
            try {
                flow.join(Duration.ofSeconds(30));
            } catch (TimeoutException e) {
                flow.cancel();
            } catch (RuntimeException e) {
                failures.record(e);
            }
        }
        inFlight.set(0);
    }

    @Override
    public IllegalStateException takeFailure() {
        return failures.take();
    }

    @Override
    public long failures() {
        return failures.total();
    }

    @Override
    public String kind() {
        return "flow";
    }
}
