package org.bbflow.core;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.SpscArrayQueue;

/**
 * A node's outputs: the user's {@link Outbox} calls, the node's {@link Dispatcher} (its dispatch
 * policy, or the {@link Units} of a node inside an ordered farm) and the put of one item on one
 * channel (cancellation, loop accounting, waiting while full). Used only by the node's own thread.
 */
final class OutboxImpl implements Outbox<Object> {
    private final NodeRunner runner;
    final Link[] outs;
    /** Per output: the loop it leads back into (a way back), else null. */
    private final Loop[] backInto;
    /** Per output: the node it leads to (for error messages). */
    private final String[] targets;
    private final int n;
    private final CancelFlag cancel;
    /** The emitter of an ordered farm: strict round-robin, no sendTo/broadcast. */
    private final boolean strictOrder;
    /** The emitter of a farm with a strict collector: no sendTo (its workers are read in turn). */
    private final boolean inTurn;
    /** The unit protocol of a node inside an ordered (or strict) farm, else null. */
    final Units units;
    /** An ordered farm's reorder window (emitter side), or null. */
    private final ReorderWindow reorder;
    /** The only output when it is a plain one-to-one edge ({@link EdgePlan#plain}): {@link #send} puts there directly; else null. */
    private final Link plainOut;
    /**
     * The plain output's bounded SPSC queue (capacity 2 or more), read by {@link #send} straight from
     * this field, else null; with it, what the consumer's wake-up needs, decided once: its waiter (null
     * when its strategy never parks) and whether to fence first. An item's way to such an edge is then
     * a few loads of this object's own fields, not of the {@link Link}'s.
     */
    private final SpscArrayQueue<Object> plainQueue;
    private final Waiter plainWake;
    private final boolean plainFence;
    /** Where {@link #send} goes: the dispatch policy, the emitter's {@link DispatchWindowed}, or {@link #units}. */
    private final Dispatcher dispatcher;

    OutboxImpl(NodeRunner runner, NodePlan plan, Link[] links, Loop[] loops, ReorderWindow window, CancelFlag cancel) {
        this.runner = runner;
        this.cancel = cancel;
        this.n = plan.outputs.length;
        this.outs = new Link[n];
        this.backInto = new Loop[n];
        this.targets = new String[n];
        for (int i = 0; i < n; i++) {
            EdgePlan e = plan.outputs[i];
            outs[i] = links[e.link];
            backInto[i] = e.back && e.counted() ? loops[e.loop] : null;
            targets[i] = e.toPath;
        }
        this.strictOrder = plan.orderedEmitter;
        this.inTurn = plan.inTurnEmitter;
        this.units = plan.route == NodePlan.Route.UNITS ? new Units(this) : null;
        this.reorder = plan.orderedEmitter ? window : null;
        Dispatcher policy = units != null ? units.asDispatcher() : Dispatcher.of(this, plan);
        this.dispatcher = reorder != null ? DispatchWindowed.create(this, reorder, policy, cancel) : policy;
        this.plainOut = n == 1 && plan.outputs[0].plain && units == null && reorder == null && backInto[0] == null
                && outs[0].inFlight == null && policy instanceof DispatchSingle ? outs[0] : null;
        this.plainQueue = plainOut != null ? plainOut.spscQueue() : null;
        this.plainWake = plainOut != null && plainOut.consumerWakeable ? plainOut.consumerWaiter : null;
        this.plainFence = plainOut != null && plainOut.producerMustFence;
    }

    @Override
    public void send(Object item) {
        if (item == null) {
            throw nullItem();
        }
        // The hot policies are called through their own (final) types: one flow has several policies
        // at this call site (a farm: round-robin or on-demand in the emitter, the unit protocol in its
        // workers, single in the collector), which makes the virtual call megamorphic and stops HotSpot
        // from inlining the item's way to its channel (measured: an ordered farm of 2 workers took
        // 2.4 x the time per item). A type check per policy keeps each branch inlined.
        SpscArrayQueue<Object> q = plainQueue;
        if (q != null) {
            sendPlain(q, item);
            return;
        }
        Link p = plainOut;
        if (p != null) {
            putPlain(p, item);
            return;
        }
        Dispatcher d = dispatcher;
        if (d instanceof DispatchSingle) {
            ((DispatchSingle) d).send(item);
        } else if (d instanceof Units) {
            ((Units) d).send(item);
        } else if (d instanceof DispatchRoundRobin) {
            ((DispatchRoundRobin) d).send(item);
        } else if (d instanceof DispatchOnDemand) {
            ((DispatchOnDemand) d).send(item);
        } else {
            d.send(item);
        }
    }

    @Override
    public void sendTo(int output, Object item) {
        if (item == null) {
            throw nullItem();
        }
        if (output < 0 || output >= n) {
            throw new IndexOutOfBoundsException("node " + path() + ": output " + output + " does not exist, it has "
                    + n + " output(s)");
        }
        if (strictOrder) {
            throw new UnsupportedOperationException("node " + path()
                    + " is the emitter of an ordered farm: it can only send() (round-robin)");
        }
        if (inTurn) {
            throw new UnsupportedOperationException("node " + path() + " is the emitter of a farm whose collector"
                    + " reads the workers in strict turn: sendTo(" + output + ", x) would feed one worker more than the"
                    + " others and stall the farm; use send() (the farm's dispatch) or broadcast(), or collect"
                    + " FIRST_COME");
        }
        if (units != null) {
            units.send(item); // a node inside an ordered farm has exactly one output
            return;
        }
        put(output, item);
    }

    @Override
    public void broadcast(Object item) {
        if (item == null) {
            throw nullItem();
        }
        if (strictOrder) {
            throw new UnsupportedOperationException("node " + path()
                    + " is the emitter of an ordered farm: it can only send() (round-robin)");
        }
        if (n == 0) {
            throw DispatchNone.noOutput(path());
        }
        if (units != null) {
            units.send(item);
            return;
        }
        putAll(item);
    }

    @Override
    public int outputCount() {
        return n;
    }

    String path() {
        return runner.path();
    }

    private IllegalArgumentException nullItem() {
        return new IllegalArgumentException("node " + path() + " sent null; null is not a valid item");
    }

    /**
     * Sends a user item on output i, waiting while it is full. The item is counted before it is
     * offered (and the count undone if the flow is cancelled first), so that no consumer can count an
     * item its producer has not: see {@link Flow#stats()}.
     */
    void put(int i, Object item) {
        runner.itemsOut++;
        try {
            offer(i, item);
        } catch (Cancelled e) {
            runner.itemsOut--;
            throw e;
        }
    }

    /**
     * Sends a user item on the plain output whose bounded SPSC queue is q: what {@link #putPlain} does,
     * with every field it needs read from this object, not through the link (measured in the perf kit
     * against the link's way, paired by round: 0.65 of the time at 1M with JDK 25 and pinned threads,
     * 0.85 over every configuration; see docs/benchmarks.md). The wait for room and its accounting are
     * out of line, so that the way of an item that finds room stays short.
     */
    private void sendPlain(SpscArrayQueue<Object> q, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        runner.itemsOut++;   // before the offer, as put's
        if (!q.relaxedOffer(item)) {
            awaitPlainRoom(item);
        }
        wakePlainConsumer();
    }

    /** Wakes the plain output's consumer if it is parked (what {@link Link#wakeConsumer} does, from this object's fields). */
    private void wakePlainConsumer() {
        Waiter w = plainWake;
        if (w != null) {
            if (plainFence) {
                VarHandle.fullFence();
            }
            w.wakeIfParked();
        }
    }

    /** Waits for room on the plain output and puts item there, or undoes its count if the flow is cancelled first. */
    private void awaitPlainRoom(Object item) {
        try {
            runner.awaitPlainRoom(plainOut, item);
        } catch (Cancelled e) {
            runner.itemsOut--;
            throw e;
        }
    }

    /**
     * Sends a user item on the plain output p: no loop to count it in, no dispatch to choose it. For a
     * plain channel without a bounded SPSC queue of 2 or more slots (one slot, unbounded); the others go
     * by {@link #sendPlain}.
     */
    private void putPlain(Link p, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        runner.itemsOut++;   // before the offer, as put's
        if (!p.offerRaw(item)) {
            awaitPlainRoom(item);
        }
        wakePlainConsumer();
    }

    /** Sends a user item on every output. */
    void putAll(Object item) {
        for (int i = 0; i < n; i++) {
            put(i, item);
        }
    }

    /** Sends anything (item or marker) on output i, waiting while it is full. */
    void offer(int i, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        Link c = outs[i];
        countInFlight(i, c);
        if (!c.offerRaw(item)) {
            runner.awaitRoom(c, item);
        }
        c.wakeConsumer();
    }

    /** Sends a user item on output i if it has room, without waiting. */
    boolean tryPut(int i, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        Link c = outs[i];
        countInFlight(i, c);
        runner.itemsOut++;   // before the offer, as put's
        if (!c.offerRaw(item)) {
            runner.itemsOut--;   // counted above, but never sent
            if (c.inFlight != null) {
                c.inFlight.decrementAndGet();
            }
            return false;
        }
        c.wakeConsumer();
        return true;
    }

    /** The input the current item came from, or -1 outside onItem (see {@link NodeRunner#inputIndex}). */
    int inputIndex() {
        return runner.inputIndex();
    }

    /** Waits until {@code condition} holds (room other than a channel's; see {@link NodeRunner#awaitOutput}). */
    void awaitOutput(WaitCondition condition) {
        runner.awaitOutput(condition);
    }

    /** Waits until any output has room (all were full). */
    void awaitAnyRoom() {
        runner.awaitAnyRoom(outs);
    }

    /** On a loop edge, counts the item as in flight before it becomes visible; refuses sends after the loop ended. */
    private void countInFlight(int i, Link c) {
        AtomicLong inFlight = c.inFlight;
        if (inFlight != null) {
            Loop back = backInto[i];
            if (back != null && back.headDone) {
                throw new IllegalStateException("node " + path() + " sent an item back to " + targets[i]
                        + " after the feedback loop ended (items cannot be fed back from onEos, nor an item that"
                        + " a head of the loop sent from its onEos: such an item may only leave the loop)");
            }
            inFlight.incrementAndGet();
        }
    }

    /** End of stream on every output. */
    void closeAll() {
        for (int i = 0; i < n; i++) {
            outs[i].close();
        }
        if (reorder != null) {
            reorder.close();
        }
    }
}
