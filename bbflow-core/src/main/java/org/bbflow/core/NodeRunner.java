package org.bbflow.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * Runs one node on its own thread: init, generate (sources), the input loop of the node's collect
 * policy, onEos, end of stream downstream, close. Counters are written by this thread only.
 */
final class NodeRunner implements Runnable, NodeContext {
    private static final VarHandle ITEMS_IN;
    private static final VarHandle ITEMS_OUT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ITEMS_IN = l.findVarHandle(NodeRunner.class, "itemsIn", long.class);
            ITEMS_OUT = l.findVarHandle(NodeRunner.class, "itemsOut", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins (with a re-check) before a wait is timed and counted, so short gaps cost no clock reads. */
    static final int QUICK_SPINS = 32;
    /** The quick spins of a node of a flow with more threads than cores (see {@link Flow}'s build). */
    static final int QUICK_SPINS_OVERSUBSCRIBED = 4;

    final Vertex vertex;
    private final Node<Object, Object> node;
    private final Flow flow;
    private final CancelFlag cancel;
    final Waiter waiter = new Waiter();
    final WaitStrategy strategy;
    private final Idler idler;
    /** {@link #QUICK_SPINS}, or fewer in an oversubscribed flow. */
    final int quickSpins;

    /** The input channels (one when the inputs share an MPSC channel) and which are feedback. */
    Channel<Object>[] inputs;
    boolean[] inBack;
    private boolean[] inCounted;
    private int inputCount;
    private boolean sharedInput;
    private OutboxImpl outbox;
    private final Loop loop;
    private final boolean loopHead;
    private final boolean isSource;

    // context state
    private int inputIndex = -1;
    private boolean fromFeedback;

    /** How this node reads its inputs (its collect policy). */
    private InputLoop inputLoop;
    /** The input {@link #oneInput} waits on. */
    private int waitChannel;

    // statistics (single writer: this thread)
    long itemsIn;
    long itemsOut;
    long idleNanos;
    long emptyWaits;
    long fullWaits;
    volatile long startNanos;
    volatile long endNanos;
    /** This thread's CPU time when the node ended ({@link ThreadCpu}, -1 if unknown), published by endNanos. */
    private long cpuAtEnd = -1;

    Thread thread;
    /** Guards {@link #running} against a concurrent {@link #interruptIfRunning()}. */
    private final Object interruptLock = new Object();
    private boolean running = true;

    private final WaitCondition oneInput = this::channelReady;
    private Channel<Object> roomChannel;
    private final WaitCondition room = () -> roomChannel.hasRoom() || cancelRaised();

    /**
     * A runner for {@code vertex} waiting with {@code strategy}; in an {@code oversubscribed} flow
     * (more node threads than cores) it spins briefly before it yields and parks: fewer quick spins,
     * and the default backoff's short form ({@link WaitStrategy#whenOversubscribed()}).
     */
    NodeRunner(Vertex vertex, Flow flow, WaitStrategy strategy, boolean oversubscribed) {
        this.quickSpins = oversubscribed ? QUICK_SPINS_OVERSUBSCRIBED : QUICK_SPINS;
        if (oversubscribed) {
            strategy = strategy.whenOversubscribed();
        }
        this.vertex = vertex;
        this.node = vertex.node;
        this.flow = flow;
        this.cancel = flow.cancel;
        this.strategy = strategy;
        this.idler = strategy.newIdler();
        this.loop = vertex.loop;
        this.loopHead = loop != null && loop.heads.contains(vertex);
        this.isSource = node instanceof Source;
    }

    /** Called once channels exist, before threads start. */
    @SuppressWarnings("unchecked")
    void wire() {
        List<Edge> in = vertex.in;
        sharedInput = vertex.sharesMpscInput();
        if (sharedInput) {
            inputs = new Channel[] {in.get(0).channel};
            inBack = new boolean[1];
            inCounted = new boolean[] {in.get(0).counted()};
        } else {
            inputs = new Channel[in.size()];
            inBack = new boolean[in.size()];
            inCounted = new boolean[in.size()];
            for (int i = 0; i < in.size(); i++) {
                inputs[i] = in.get(i).channel;
                inBack[i] = in.get(i).back;
                inCounted[i] = in.get(i).counted();
            }
        }
        inputCount = in.size();
        outbox = new OutboxImpl(this, vertex, cancel);
        inputLoop = InputLoop.of(this, vertex);
        if (loopHead) {
            loop.heads.attach(waiter);
        }
        if (vertex.reorder != null) {
            vertex.reorder.attach(vertex, waiter);
        }
    }

    // ---- NodeContext ---------------------------------------------------------------------------

    @Override
    public String name() {
        return node.name();
    }

    @Override
    public String path() {
        return vertex.path;
    }

    @Override
    public int workerIndex() {
        return vertex.workerIndex;
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

    @Override
    public boolean hasPendingInput() {
        for (Channel<Object> c : inputs) {
            if (c.hasItem()) {
                return true;
            }
        }
        return false;
    }

    // ---- life cycle ----------------------------------------------------------------------------

    @Override
    @SuppressWarnings("unchecked")
    public void run() {
        if (!flow.awaitLaunch()) {
            return; // the flow's start was abandoned: no node code runs
        }
        ThreadCpu.prepare();
        startNanos = System.nanoTime();
        try {
            node.init(this);
            if (node instanceof Source) {
                ((Source<Object>) (Node<?, ?>) node).generate(outbox);
                checkCancel();
            }
            if (inputs.length > 0) {
                inputLoop.run();
            }
            if (vertex.unitEos) {
                outbox.units.open();
                node.onEos(outbox);
                outbox.units.close();
            } else {
                node.onEos(outbox);
            }
            if (loopHead) {
                loop.headDone = true;
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

    private boolean cancelRaised() {
        return cancel.raised;
    }

    private boolean channelReady() {
        Channel<Object> c = inputs[waitChannel];
        return c.hasItem() || c.isClosed() || cancel.raised;
    }

    /** Waits for the next item of input w, or {@link Units#EOS}. */
    Object take(int w) {
        Channel<Object> c = inputs[w];
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
        awaitInput(oneInput);
    }

    /** Hands a gathered round (one result of each live input) to the node. */
    void deliverRound(List<Object> round) throws Exception {
        inputIndex = -1;
        node.onItem(round, outbox);
    }

    /** Hands item (or unit marker) x, read from input i, to the node. */
    @SuppressWarnings("unchecked")
    void deliver(int i, Object x) throws Exception {
        if (cancel.raised) {
            throw Cancelled.INSTANCE;
        }
        inputIndex = sharedInput ? -1 : i;
        fromFeedback = inBack[i];
        if (vertex.unitIn && vertex.unitOut) {
            outbox.units.deliver(x, this);
        } else {
            itemsIn++;
            if (isSource) {
                ((Source<Object>) (Node<?, ?>) node).onFeedback(x, outbox);
            } else {
                node.onItem(x, outbox);
            }
        }
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
    void awaitRoom(Channel<Object> c, Object item) {
        roomChannel = c;
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
                idler.idle(waiter, room);
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

    private Channel<Object>[] roomOutputs;
    private final WaitCondition anyRoom = this::anyOutputHasRoom;

    private boolean anyOutputHasRoom() {
        if (cancel.raised) {
            return true;
        }
        for (Channel<Object> c : roomOutputs) {
            if (c.hasRoom()) {
                return true;
            }
        }
        return false;
    }

    /** Called by an on-demand outbox when every output is full: waits until any has room. */
    void awaitAnyRoom(Channel<Object>[] outs) {
        roomOutputs = outs;
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
        for (Channel<Object> c : outs) {
            if (c.producers != null) {
                c.producers.beginWait();
            }
        }
        try {
            do {
                checkCancel();
                idler.idle(waiter, anyRoom);
            } while (!anyOutputHasRoom());
            checkCancel();
        } finally {
            for (Channel<Object> c : outs) {
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
    NodeStats stats(long nowNanos) {
        long start = startNanos;
        long end = endNanos;
        long total = start == 0 ? 0 : (end != 0 ? end : nowNanos) - start;
        long idle = idleNanos;
        long notWaiting = Math.max(0, total - idle);
        // the thread is the node's own, started for this flow: its CPU time is the node's
        long cpu = start == 0 ? -1 : end != 0 ? cpuAtEnd : ThreadCpu.of(thread);
        long busy = cpu < 0 ? notWaiting : Math.min(notWaiting, cpu);
        return new NodeStats(vertex.path, node.name(), (long) ITEMS_IN.getOpaque(this), (long) ITEMS_OUT.getOpaque(this),
                busy, idle, emptyWaits, fullWaits, notWaiting - busy);
    }
}
