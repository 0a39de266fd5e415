package org.bbflow.core;

/**
 * The dispatch policy of one node's {@link OutboxImpl}: picks the output(s) of {@link Outbox#send}
 * and hands the item to {@link OutboxImpl#put}. One small subclass per policy, chosen once when the
 * node is wired ({@link #of}) and held in a final field of the outbox, so an item's way out is
 * node, outbox, policy, channel. A policy keeps its state (the next output) in its own fields and
 * allocates nothing per item (scatter excepted: it builds the chunks it sends).
 *
 * <p>An abstract class rather than an interface: where several policies meet at one call site the
 * call is a virtual one, cheaper than an interface call. The hot policies (single, round-robin,
 * on-demand, the unit protocol) are called through their own final types in {@link OutboxImpl#send},
 * so that HotSpot inlines them even when one flow uses several.
 */
abstract class Dispatcher {
    /** The outbox whose outputs this policy picks from. */
    final OutboxImpl out;
    /** Number of outputs. */
    final int n;

    Dispatcher(OutboxImpl out) {
        this.out = out;
        this.n = out.outputCount();
    }

    /** Sends a (non-null) user item to the output(s) this policy picks. */
    abstract void send(Object item);

    /**
     * The policy of vertex v: none without outputs, back to the item's origin for a right member of
     * an all-to-all with feedback, the one output when there is one (or v closes a feedback loop:
     * send goes back), otherwise v's {@link Dispatch} (round-robin by default).
     */
    static Dispatcher of(OutboxImpl out, Vertex v) {
        Dispatch d = v.dispatch == null ? Dispatch.roundRobin() : v.dispatch;
        int n = v.out.size();
        if (d.kind == Dispatch.Kind.SCATTER && n == 1 && !v.closesLoop) {
            throw new IllegalStateException("node " + v.path + ": scatter needs several outputs");
        }
        if (n == 0) {
            return new DispatchNone(out);
        }
        if (v.returnsToOrigin) {
            return new DispatchOrigin(out);
        }
        if (v.closesLoop || n == 1) {
            return new DispatchSingle(out);
        }
        switch (d.kind) {
            case ON_DEMAND: return new DispatchOnDemand(out);
            case BROADCAST: return new DispatchBroadcast(out);
            case SCATTER: return new DispatchScatter(out);
            case BY_KEY: return new DispatchByKey(out, d.key);
            default: return new DispatchRoundRobin(out);
        }
    }
}
