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
     * The policy the plan chose for the node ({@link NodePlan#route}; the unit protocol excepted, made by the outbox).
     * Each policy is made by its own class's {@code create}, not constructed here: the bytecode
     * verifier loads every class a method returns as another type, so constructing them here would
     * load all eight policies for the first node of a fresh JVM, whose first flow is mostly class
     * loading (with {@link InputLoop#of} done the same way, 15 classes and about 1 ms fewer in a
     * first flow of one item; the core guide's "A short-lived process").
     */
    static Dispatcher of(OutboxImpl out, NodePlan plan) {
        switch (plan.route) {
            case NONE: return DispatchNone.create(out);
            case SINGLE: return DispatchSingle.create(out);
            case ORIGIN: return DispatchOrigin.create(out);
            case ON_DEMAND: return DispatchOnDemand.create(out);
            case BROADCAST: return DispatchBroadcast.create(out);
            case SCATTER: return DispatchScatter.create(out);
            case BY_KEY: return DispatchByKey.create(out, plan.key);
            case ROUND_ROBIN: return DispatchRoundRobin.create(out);
            default: throw new IllegalStateException("no dispatcher for route " + plan.route + " of " + plan.path);
        }
    }
}
