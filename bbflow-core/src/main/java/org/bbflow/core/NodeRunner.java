package org.bbflow.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import org.jctools.queues.SpscArrayQueue;

/**
 * Runs one node on its own thread: init, generate (sources), the input loop of the node's collect
 * policy, onEos, end of stream downstream, close. Counters are written by this thread only.
 */
final class NodeRunner extends NodeRunnerPad1 implements Runnable, NodeContext, WaitCondition {
    private static final VarHandle ITEMS_IN;
    private static final VarHandle ITEMS_OUT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ITEMS_IN = l.findVarHandle(NodeRunnerHotFields.class, "itemsIn", long.class);
            ITEMS_OUT = l.findVarHandle(NodeRunnerHotFields.class, "itemsOut", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins (with a re-check) before a wait is timed and counted, so short gaps cost no clock reads. */
    static final int QUICK_SPINS = 32;
    /** The quick spins of a node of a flow with more threads than cores (see {@link Flow}'s build). */
    static final int QUICK_SPINS_OVERSUBSCRIBED = 4;

    final NodePlan plan;
    private final Node<Object, Object> node;
    private final Flow flow;
    private final CancelFlag cancel;
    final Waiter waiter;
    final WaitStrategy strategy;
    private final Idler idler;
    /** {@link #QUICK_SPINS}, or fewer in an oversubscribed flow (the plan's decision). */
    final int quickSpins;

    /**
     * The node reads one channel and hands its items straight to the node, in runs: no units, no loop
     * accounting, no feedback of a source ({@link CollectRuns}).
     */
    final boolean runInput;
    /** Yields before the usual wait when the plain edge this node reads is empty ({@link NodePlan#plainEdgeYields}), or 0. */
    final int plainInputYields;
    /** Yields before the usual wait when the plain edge this node sends on is full, or 0. */
    final int plainOutputYields;
    /** The most items {@link #deliverRun} hands over before it writes the node's statistics. */
    static final int RUN_BOUND = 256;

    /** The input channels (one when the inputs share an MPSC channel) and which are feedback or counted. */
    final Link[] inputs;
    final boolean[] inBack;
    private final boolean[] inCounted;
    private final int inputCount;
    private final boolean sharedInput;
    /** Items reach this node in units: {@link #deliver} hands them to {@link Units}. */
    private final boolean carriesUnits;
    /**
     * This node is an ordered or strict collector: its inputs carry the unit protocol's markers,
     * which it consumes without a call to its node ({@link #hasPendingInput()}).
     */
    private final boolean readsMarkers;
    private final OutboxImpl outbox;
    /** The feedback loop of this node, or null; whether it is one of its heads. */
    final Loop loop;
    private final boolean loopHead;
    private final boolean isSource;

    /** How this node reads its inputs (its collect policy); null for a node without inputs. */
    private final InputLoop inputLoop;
    /** The input an {@link #INPUT} wait waits on. */
    private int waitChannel;

    // statistics (single writer: this thread); itemsIn and itemsOut are NodeRunnerHotFields'
    long idleNanos;
    long emptyWaits;
    long fullWaits;
    volatile long startNanos;
    volatile long endNanos;
    /** This thread's CPU time when the node ended ({@link ThreadCpu}, -1 if unknown), published by endNanos. */
    private long cpuAtEnd = -1;

    Thread thread;
    /** The CPU this node's thread pins itself to as it starts (FlowOptions' ThreadMapping), or -1. */
    int cpu = -1;
    /** Guards {@link #running} against a concurrent {@link #interruptIfRunning()}. */
    private final Object interruptLock = new Object();
    private boolean running = true;

    /**
     * What this node's thread waits for ({@link #ready()}): {@link #INPUT}, {@link #ROOM} or
     * {@link #ANY_ROOM}. The runner is its own wait condition, one wait at a time, rather than
     * holding a lambda per kind of wait: each lambda is a class the JVM spins when the runner is
     * made, and a first flow's start is mostly class loading (the core guide, "A short-lived process").
     */
    private int waitingFor;
    private static final int INPUT = 0;
    private static final int ROOM = 1;
    private static final int ANY_ROOM = 2;
    /** The channel a {@link #ROOM} wait waits on. */
    private Link roomChannel;

    /**
     * A runner for the node of {@code plan}, on the flow's runtime channels, loops and reorder
     * windows (made from the same plan); {@code waiter} is the node's parking slot, which those
     * channels and windows already know.
     */
    NodeRunner(NodePlan plan, Flow flow, Waiter waiter, Link[] links, Loop[] loops, ReorderWindow[] windows) {
        this.plan = plan;
        this.node = plan.node;
        this.flow = flow;
        this.cancel = flow.cancel;
        this.waiter = waiter;
        this.strategy = plan.strategy;
        this.quickSpins = plan.quickSpins;
        this.idler = strategy.newIdler();
        this.loop = plan.loop >= 0 ? loops[plan.loop] : null;
        this.loopHead = plan.loopHead;
        this.isSource = plan.source;
        this.carriesUnits = plan.carriesUnits();
        this.readsMarkers = plan.read == NodePlan.Read.ORDERED || plan.read == NodePlan.Read.WINDOWED
                || plan.read == NodePlan.Read.ROUND_ROBIN || plan.read == NodePlan.Read.GATHER;
        this.sharedInput = plan.sharedInput;
        this.inputCount = plan.inputs.length;
        int reading = plan.inputLinks.length;
        this.inputs = new Link[reading];
        for (int i = 0; i < reading; i++) {
            inputs[i] = links[plan.inputLinks[i]];
        }
        this.inBack = plan.inputBack.clone();
        this.inCounted = plan.inputCounted.clone();
        this.runInput = plan.read == NodePlan.Read.SINGLE && reading == 1 && !carriesUnits && !isSource
                && !inBack[0] && !inCounted[0];
        this.plainInputYields = runInput && plan.inputs.length == 1 && plan.inputs[0].plain ? plan.plainEdgeYields : 0;
        this.plainOutputYields = plan.plainEdgeYields;
        this.outbox = new OutboxImpl(this, plan, links, loops, plan.window >= 0 ? windows[plan.window] : null, cancel);
        this.inputLoop = reading == 0 ? null : InputLoop.of(this, plan.window >= 0 ? windows[plan.window] : null);
    }

    // ---- NodeContext ---------------------------------------------------------------------------

    @Override
    public String name() {
        return node.name();
    }

    /** The node this runner runs. */
    Node<Object, Object> node() {
        return node;
    }

    @Override
    public String path() {
        return plan.path;
    }

    @Override
    public int workerIndex() {
        return plan.workerIndex;
    }

    @Override
    public int inputIndex() {
        return inputIndex;
    }

    @Override
    public int inputCount() {
        return inputCount;
    }

    @Override
    public boolean fromFeedback() {
        return fromFeedback;
    }

    @Override
    public boolean isCancelled() {
        return cancel.raised;
    }

    /** True once the flow is cancelled or has a failure recorded, even one that cancels nothing ({@link StreamFailure}). */
    @Override
    public boolean flowFailed() {
        return cancel.raised || flow.failed();
    }

    @Override
    public Throwable flowFailure() {
        return flow.failure();
    }

    /**
     * Inside an ordered or strict farm's worker always false: the results of an item must leave in
     * that item's unit, so a node that keeps values while input waits ({@code batch()}) must not.
     * In such a farm's collector only an item counts, not a marker (a dropped item's SKIP, a unit's
     * END): the collector consumes a marker without calling its node, so a node that kept items on
     * the strength of one would not be called again, and in a loop the loop could end with the items
     * kept. A marker ahead of an item hides the item: false is a hint anyway.
     */
    @Override
    public boolean hasPendingInput() {
        if (carriesUnits) {
            return false;
        }
        for (Link c : inputs) {
            if (readsMarkers ? Units.isItem(c.peekRaw()) : c.hasItem()) {
                return true;
            }
        }
        return false;
    }

    // ---- life cycle ----------------------------------------------------------------------------

    private static RuntimeException pin(int cpu) {
        try {
            CpuAffinity.pinCurrentThread(cpu);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void run() {
        // Pinned before the launch gate, while the other threads still start; a refusal fails this
        // node (and the flow) once launched, through the one path every node failure takes.
        RuntimeException pinFailure = cpu < 0 ? null : pin(cpu);
        if (!flow.awaitLaunch()) {
            return; // the flow's start was abandoned: no node code runs
        }
        ThreadCpu.prepare();
        startNanos = System.nanoTime();
        try {
            if (pinFailure != null) {
                throw pinFailure;
            }
            node.init(this);
            if (node instanceof Source) {
                try {
                    ((Source<Object>) (Node<?, ?>) node).generate(outbox);
                } catch (StreamFailure f) {
                    if (Comb.thrownAfterSource(node, f)) {
                        throw f; // a node fused after the source threw it: an ordinary failure
                    }
                    // the stream ended with an error: what was sent goes on, the flow fails at its end
                    flow.failAtEnd(this, f.getCause());
                }
                checkCancel();
            }
            if (inputLoop != null) {
                inputLoop.run();
            }
            if (loopHead) {
                // The loop has drained: nothing is in flight and no head will read again. Marked
                // before onEos, so that an item this head's onEos sends into the loop may go forward
                // but fails the flow if anything sends it back (no head would ever read it).
                loop.headDone = true;
            }
            if (plan.units == NodePlan.UnitRole.CARRIES_WITH_EOS) {
                outbox.units.open();
                node.onEos(outbox);
                outbox.units.close();
            } else {
                node.onEos(outbox);
            }
            outbox.closeAll();
        } catch (Cancelled c) {
            // the flow is being cancelled; the cause is recorded by whoever cancelled it
        } catch (Throwable t) {
            flow.fail(this, t);
        } finally {
            // From here on the node has ended: a cancellation may no longer interrupt this thread
            // (close() of a node that ended normally must run undisturbed). The flag is cleared
            // under the same lock the canceller interrupts under, so no interrupt arrives later.
            synchronized (interruptLock) {
                running = false;
                Thread.interrupted();
            }
            try {
                node.close();
            } catch (Throwable t) {
                flow.fail(this, t);
            }
            cpuAtEnd = ThreadCpu.current();
            endNanos = System.nanoTime();
            flow.runnerDone(this);
        }
    }

    private void checkCancel() {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
    }

    /** Whether what this node's thread waits for ({@link #waitingFor}) has come, or the flow is cancelled. */
    @Override
    public boolean ready() {
        switch (waitingFor) {
            case ROOM:
                return roomChannel.hasRoom() || cancel.raised;
            case ANY_ROOM:
                return anyOutputHasRoom();
            default:
                Link c = inputs[waitChannel];
                return c.hasItem() || c.isClosed() || cancel.raised;
        }
    }

    /** Waits for the next item of input w, or {@link Units#EOS}. */
    Object take(int w) {
        Link c = inputs[w];
        while (true) {
            Object x = c.pollRaw();
            if (x != null) {
                c.wakeProducer();
                return x;
            }
            if (c.isClosed()) {
                x = c.pollRaw();
                if (x == null) {
                    return Units.EOS;
                }
                c.wakeProducer();
                return x;
            }
            awaitItem(w);
        }
    }

    /** Waits until input w has an item or has ended. */
    void awaitItem(int w) {
        waitChannel = w;
        waitingFor = INPUT;
        awaitInput(this);
    }

    /**
     * Waits until c, the one input of a node that reads in runs, has an item or has ended: on a plain
     * edge first by yielding (up to {@link #plainInputYields} times; see
     * {@link WaitStrategy#yieldsFirstOnPlainEdges()}), then the usual wait. The yields are quick
     * waits, neither timed nor counted, as the quick spins are.
     */
    void awaitRunInput(Link c) {
        for (int y = 0; y < plainInputYields; y++) {
            Thread.yield();
            if (c.hasItem() || c.isClosed()) {
                return;
            }
            checkCancel();
        }
        awaitItem(0);
    }

    /**
     * Puts item on the plain output c, which was full: yields first, trying again after each yield
     * (up to {@link #plainOutputYields} times), then the usual wait for room.
     */
    void awaitPlainRoom(Link c, Object item) {
        for (int y = 0; y < plainOutputYields; y++) {
            Thread.yield();
            if (c.offerRaw(item)) {
                return;
            }
            checkCancel();
        }
        awaitRoom(c, item);
    }

    /**
     * Hands a gathered round (one result of each live input, read from {@code from[0 .. size-1]}) to
     * the node; each result leaves its loop's count once the node has handled the round.
     */
    void deliverRound(List<Object> round, int[] from) throws Exception {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        countIn(round.size());
        node.onItem(round, outbox);
        for (int k = 0, n = round.size(); k < n; k++) {
            consumed(from[k]);
        }
    }

    /** Hands item (or unit marker) x, read from input i, to the node. */
    @SuppressWarnings("unchecked")
    void deliver(int i, Object x) throws Exception {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        inputIndex = sharedInput ? -1 : i;
        fromFeedback = inBack[i];
        if (carriesUnits) {
            outbox.units.deliver(x, this);
        } else {
            countIn(1);
            if (isSource) {
                ((Source<Object>) (Node<?, ?>) node).onFeedback(x, outbox);
            } else {
                node.onItem(x, outbox);
            }
        }
        inputIndex = -1;
        fromFeedback = false;
        consumed(i);
    }

    /**
     * Hands {@code first}, and after it what input {@code c} holds (up to {@link #RUN_BOUND}
     * items), to the node: per item the producer's wake-up check, the cancellation check and the
     * node's call; the input index and the count of items in once per run.
     */
    void deliverRun(Link c, Object first) throws Exception {
        final Node<Object, Object> n = node;
        final OutboxImpl out = outbox;
        final CancelFlag flag = cancel;
        // What the run needs of the channel, read once into locals: the loop's own stores (the poll's)
        // keep the JIT from hoisting loads of the link's fields, so through the link each item would
        // read them again.
        final SpscArrayQueue<Object> q = c.spscQueue();
        final Waiter producer = c.singleProducerWake();
        final boolean fence = c.consumerMustFence;
        final boolean group = c.producers != null;
        int k = 0;
        inputIndex = sharedInput ? -1 : 0;
        try {
            Object x = first;
            do {
                if (producer != null) {
                    if (fence) {
                        VarHandle.fullFence();
                    }
                    producer.wakeIfParked();
                } else if (group) {
                    c.wakeProducer();
                }
                if (flag.raised) {
                    throw Cancelled.INSTANCE;
                }
                k++;
                n.onItem(x, out);
            } while (k < RUN_BOUND && (x = q != null ? q.relaxedPoll() : c.pollRaw()) != null);
        } finally {
            countIn(k);
            inputIndex = -1;
        }
    }

    /**
     * Adds k items read to this node's count, with release semantics: a snapshot that reads this
     * count with acquire and then a producer's {@code itemsOut} sees every item counted here counted
     * there too (the producer counts before its offer, the offer is a release and the read of it an
     * acquire). The single writer is this thread; on x86 this is a plain store.
     */
    void countIn(int k) {
        ITEMS_IN.setRelease(this, itemsIn + k);
    }

    /** This node's count of items in, read with acquire (the first pass of {@link Flow#stats()}). */
    long itemsInAcquire() {
        return (long) ITEMS_IN.getAcquire(this);
    }

    /**
     * What was read from input i (an item, or a marker of the unit protocol) has been handled: it
     * leaves the in-flight count of its loop, if the input is counted. Every read from a counted input
     * ends here exactly once, after what it caused was sent (and so counted): the loop's accounting.
     */
    void consumed(int i) {
        if (inCounted[i] && loop.inFlight.decrementAndGet() == 0) {
            loop.heads.wakeAll();
        }
    }

    /** Waits (spinning a little first, then by the idler, counted as an empty wait) until condition holds. */
    void awaitInput(WaitCondition condition) {
        await(condition, false);
    }

    /**
     * Spins briefly, then waits through the wait strategy until {@code condition} is ready (counted
     * as a full wait when waiting for room to send, else as an empty wait); the condition must
     * also be ready once the flow is cancelled.
     */
    private void await(WaitCondition condition, boolean forRoom) {
        for (int s = 0; s < quickSpins; s++) {
            if (condition.ready()) {
                checkCancel();
                return;
            }
            Thread.onSpinWait();
        }
        if (forRoom) {
            fullWaits++;
        } else {
            emptyWaits++;
        }
        long t0 = System.nanoTime();
        try {
            do {
                checkCancel();
                idler.idle(waiter, condition);
            } while (!condition.ready());
            checkCancel();
        } finally {
            idler.reset();
            idleNanos += System.nanoTime() - t0;
        }
    }

    /** Called by the outbox when channel c is full. */
    void awaitRoom(Link c, Object item) {
        roomChannel = c;
        waitingFor = ROOM;
        int spins = 0;
        while (spins < quickSpins) {
            if (c.offerRaw(item)) {
                return;
            }
            checkCancel();
            Thread.onSpinWait();
            spins++;
        }
        fullWaits++;
        long t0 = System.nanoTime();
        // an MPSC channel has several producers: each waits in its own waiter, announced to the consumer
        WaiterGroup group = c.producers;
        if (group != null) {
            group.beginWait();
        }
        try {
            while (!c.offerRaw(item)) {
                checkCancel();
                idler.idle(waiter, this);
            }
        } finally {
            if (group != null) {
                group.endWait();
            }
            idler.reset();
            idleNanos += System.nanoTime() - t0;
        }
    }

    /** Interrupts this node's thread if its node is still running (not yet in close()), unless it is the caller. */
    void interruptIfRunning() {
        synchronized (interruptLock) {
            Thread t = thread;
            if (running && t != null && t != Thread.currentThread()) {
                t.interrupt();
            }
        }
    }

    /**
     * Called by an outbox that waits for room other than a channel's (an ordered farm's reorder
     * window); the condition must also be ready once the flow is cancelled.
     */
    void awaitOutput(WaitCondition condition) {
        await(condition, true);
    }

    /** The outputs an {@link #ANY_ROOM} wait waits on. */
    private Link[] roomOutputs;

    private boolean anyOutputHasRoom() {
        if (cancel.raised) {
            return true;
        }
        for (Link c : roomOutputs) {
            if (c.hasRoom()) {
                return true;
            }
        }
        return false;
    }

    /** Called by an on-demand outbox when every output is full: waits until any has room. */
    void awaitAnyRoom(Link[] outs) {
        roomOutputs = outs;
        waitingFor = ANY_ROOM;
        // The full quick spins even in an oversubscribed flow: over one-slot worker queues an
        // on-demand emitter waits for every item, for a worker to finish its current one, so the
        // wait is short (measured: a 2-worker on-demand farm of ~1 us tasks took 207 ms per 100,000
        // items with 4 spins here, 125-140 ms with 32, 136-149 ms before the oversubscription change).
        for (int s = 0; s < QUICK_SPINS; s++) {
            if (anyOutputHasRoom()) {
                checkCancel();
                return;
            }
            Thread.onSpinWait();
        }
        fullWaits++;
        long t0 = System.nanoTime();
        for (Link c : outs) {
            if (c.producers != null) {
                c.producers.beginWait();
            }
        }
        try {
            do {
                checkCancel();
                idler.idle(waiter, this);
            } while (!anyOutputHasRoom());
            checkCancel();
        } finally {
            for (Link c : outs) {
                if (c.producers != null) {
                    c.producers.endWait();
                }
            }
            idler.reset();
            idleNanos += System.nanoTime() - t0;
        }
    }

    /**
     * The node's statistics now. Busy time is the thread's CPU time where the JVM can tell, at most its
     * time alive and not waiting; the rest of that time is off CPU (the thread waited for a core, or
     * blocked in the node's own code). Where CPU time is unknown, busy is the time alive and not waiting.
     */
    NodeStats stats(long nowNanos, long itemsInRead) {
        long start = startNanos;
        long end = endNanos;
        long total = start == 0 ? 0 : (end != 0 ? end : nowNanos) - start;
        long idle = idleNanos;
        long notWaiting = Math.max(0, total - idle);
        // the thread is the node's own, started for this flow: its CPU time is the node's
        long cpu = start == 0 ? -1 : end != 0 ? cpuAtEnd : ThreadCpu.of(thread);
        long busy = cpu < 0 ? notWaiting : Math.min(notWaiting, cpu);
        return new NodeStats(plan.path, node.name(), itemsInRead, (long) ITEMS_OUT.getAcquire(this),
                busy, idle, emptyWaits, fullWaits, notWaiting - busy);
    }
}
