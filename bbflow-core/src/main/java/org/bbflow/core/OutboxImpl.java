package org.bbflow.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A node's outputs and its dispatch policy. Used only by the node's own thread. */
final class OutboxImpl implements Outbox<Object> {
    private static final int SINGLE = 0;
    private static final int ROUND_ROBIN = 1;
    private static final int ON_DEMAND = 2;
    private static final int BROADCAST = 3;
    private static final int SCATTER = 4;
    private static final int BY_KEY = 5;
    private static final int NONE = 6;
    private static final int ORIGIN = 7;

    private final NodeRunner runner;
    private final Channel<Object>[] outs;
    private final Edge[] edges;
    private final int n;
    private final int policy;
    private final java.util.function.Function<Object, ?> key;
    private final boolean strictOrder;
    private final boolean unitOut;
    private final CancelFlag cancel;
    private int next;
    /** An ordered farm's reorder window (emitter side), or null. */
    private final ReorderWindow reorder;
    private final WaitCondition windowRoom;

    // unit state (ordered farm workers)
    private int unitCount = -1;
    private Object pending;

    @SuppressWarnings("unchecked")
    OutboxImpl(NodeRunner runner, Vertex v, CancelFlag cancel) {
        this.runner = runner;
        this.cancel = cancel;
        this.n = v.out.size();
        this.outs = new Channel[n];
        this.edges = v.out.toArray(new Edge[0]);
        for (int i = 0; i < n; i++) {
            outs[i] = edges[i].channel;
        }
        Dispatch d = v.dispatch == null ? Dispatch.roundRobin() : v.dispatch;
        if (n == 0) {
            policy = NONE;
        } else if (v.returnsToOrigin) {
            policy = ORIGIN;
        } else if (v.closesLoop || n == 1) {
            policy = SINGLE;
        } else {
            switch (d.kind) {
                case ON_DEMAND: policy = ON_DEMAND; break;
                case BROADCAST: policy = BROADCAST; break;
                case SCATTER: policy = SCATTER; break;
                case BY_KEY: policy = BY_KEY; break;
                default: policy = ROUND_ROBIN;
            }
        }
        if (d.kind == Dispatch.Kind.SCATTER && n == 1 && !v.closesLoop) {
            throw new IllegalStateException("node " + v.path + ": scatter needs several outputs");
        }
        this.key = d.key;
        this.strictOrder = v.orderedEmitter;
        this.unitOut = v.unitOut;
        this.reorder = v.orderedEmitter ? v.reorder : null;
        this.windowRoom = reorder == null ? null : () -> reorder.hasRoom() || cancel.raised;
    }

    @Override
    public void send(Object item) {
        if (item == null) {
            throw nullItem();
        }
        if (unitOut) {
            unitSend(item);
        } else if (reorder != null) {
            windowedSend(item);
        } else {
            dispatch(item);
        }
    }

    /** An ordered farm's emitter with a reorder window: waits for a slot, dispatches, records the worker. */
    private void windowedSend(Object item) {
        if (!reorder.hasRoom()) {
            runner.awaitOutput(windowRoom);
        }
        int i;
        if (policy == ON_DEMAND) {
            while (!tryOffer(i = leastLoaded(), item)) {
                runner.awaitAnyRoom(outs);
            }
            runner.itemsOut++;
        } else {
            i = policy == ROUND_ROBIN ? next : 0;
            next = i + 1 == n ? 0 : i + 1;
            put(i, item);
        }
        reorder.record(i);
    }

    private void dispatch(Object item) {
        switch (policy) {
            case SINGLE:
                put(0, item);
                return;
            case ROUND_ROBIN: {
                int i = next;
                next = i + 1 == n ? 0 : i + 1;
                put(i, item);
                return;
            }
            case ON_DEMAND:
                onDemand(item);
                return;
            case ORIGIN:
                put(origin(), item);
                return;
            case BROADCAST:
                for (int i = 0; i < n; i++) {
                    put(i, item);
                }
                return;
            case SCATTER:
                scatter(item);
                return;
            case BY_KEY: {
                Object k = key.apply(item);
                int h = k == null ? 0 : k.hashCode();
                h ^= h >>> 16;
                put(Math.floorMod(h * 0x9E3779B9, n), item);
                return;
            }
            default:
                throw new IllegalStateException("node " + runner.path() + " has no output to send to"
                        + " (end the flow with a sink, or do not send from it)");
        }
    }

    /** The way back to the left member the current item came from (all-to-all feedback). */
    private int origin() {
        int i = runner.inputIndex();
        if (i < 0) {
            throw new IllegalStateException("node " + runner.path() + " is a right member of an all-to-all with feedback:"
                    + " send(x) returns x to the left member the current item came from, and there is none here"
                    + " (onEos?); use sendTo(i, x) to pick a left member, or an output past them to go forward");
        }
        return i;
    }

    @Override
    public void sendTo(int output, Object item) {
        if (item == null) {
            throw nullItem();
        }
        if (output < 0 || output >= n) {
            throw new IndexOutOfBoundsException("node " + runner.path() + ": output " + output + " does not exist, it has "
                    + n + " output(s)");
        }
        if (strictOrder) {
            throw new UnsupportedOperationException("node " + runner.path()
                    + " is the emitter of an ordered farm: it can only send() (round-robin)");
        }
        if (unitOut) {
            unitSend(item); // a worker of an ordered farm has exactly one output
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
            throw new UnsupportedOperationException("node " + runner.path()
                    + " is the emitter of an ordered farm: it can only send() (round-robin)");
        }
        if (n == 0) {
            dispatch(item);
        }
        if (unitOut) {
            unitSend(item);
            return;
        }
        for (int i = 0; i < n; i++) {
            put(i, item);
        }
    }

    @Override
    public int outputCount() {
        return n;
    }

    private IllegalArgumentException nullItem() {
        return new IllegalArgumentException("node " + runner.path() + " sent null; null is not a valid item");
    }

    /** Sends a user item on output i, waiting while it is full. */
    private void put(int i, Object item) {
        offer(i, item);
        runner.itemsOut++;
    }

    /** Sends anything (item or marker) on output i. */
    private void offer(int i, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        Channel<Object> c = outs[i];
        countInFlight(i, c);
        if (!c.offerRaw(item)) {
            runner.awaitRoom(c, item);
        }
        c.wakeConsumer();
    }

    /** On a loop edge, counts the item as in flight before it becomes visible; refuses sends after the loop ended. */
    private void countInFlight(int i, Channel<Object> c) {
        AtomicLong inFlight = c.inFlight;
        if (inFlight != null) {
            Edge e = edges[i];
            if (e.back && e.to.loop.headDone) {
                throw new IllegalStateException("node " + runner.path() + " sent an item back to " + e.to.path
                        + " after the feedback loop ended (items cannot be fed back from onEos)");
            }
            inFlight.incrementAndGet();
        }
    }

    /** To the least-loaded output; when all are full, waits for whichever frees a slot first. */
    private void onDemand(Object item) {
        while (!tryOffer(leastLoaded(), item)) {
            runner.awaitAnyRoom(outs);
        }
        runner.itemsOut++;
    }

    /** Offers a user item on output i without waiting. */
    private boolean tryOffer(int i, Object item) {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        Channel<Object> c = outs[i];
        countInFlight(i, c);
        if (!c.offerRaw(item)) {
            if (c.inFlight != null) {
                c.inFlight.decrementAndGet();   // counted above, but never sent
            }
            return false;
        }
        c.wakeConsumer();
        return true;
    }

    private int leastLoaded() {
        int best = next;
        int bestSize = Integer.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            int i = next + k;
            if (i >= n) {
                i -= n;
            }
            int s = outs[i].queue.size();
            if (s == 0) {
                best = i;
                break;
            }
            if (s < bestSize) {
                bestSize = s;
                best = i;
            }
        }
        next = best + 1 == n ? 0 : best + 1;
        return best;
    }

    private void scatter(Object item) {
        List<?> list;
        if (item instanceof List) {
            list = (List<?>) item;
        } else if (item instanceof Collection) {
            list = new ArrayList<>((Collection<?>) item);
        } else if (item instanceof Object[]) {
            list = Arrays.asList((Object[]) item);
        } else {
            throw new IllegalArgumentException("node " + runner.path() + " scatters, but the item is not a Collection or"
                    + " an object array: " + item.getClass().getName());
        }
        int size = list.size();
        int base = size / n;
        int extra = size % n;
        int from = 0;
        for (int i = 0; i < n; i++) {
            int len = base + (i < extra ? 1 : 0);
            put(i, new ArrayList<>(list.subList(from, from + len)));
            from += len;
        }
    }

    // ---- units: ordered farm workers -----------------------------------------------------------

    void openUnit() {
        unitCount = 0;
    }

    void closeUnit() {
        if (unitCount == 0) {
            offer(0, Units.SKIP);
        } else if (unitCount == 1) {
            Object p = pending;
            pending = null;
            put(0, p);
        } else if (unitCount > 1) {
            offer(0, Units.END);
        }
        unitCount = -1;
    }

    private void unitSend(Object item) {
        if (unitCount < 0) {
            // outside any unit: onEos of a worker behind a strict collector sends plain items
            put(0, item);
            return;
        }
        if (unitCount == 0) {
            pending = item;
        } else if (unitCount == 1) {
            offer(0, Units.START);
            Object p = pending;
            pending = null;
            put(0, p);
            put(0, item);
        } else {
            put(0, item);
        }
        unitCount++;
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
