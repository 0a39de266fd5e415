package org.bbflow.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import jdk.jfr.FlightRecorder;

/**
 * A running flow (FastFlow's {@code run} / {@code wait}): the handle returned by
 * {@link #start(Block)}.
 *
 * <p>Starting compiles the block into nodes and channels and validates the graph before any thread
 * starts: an unconnected input, a source that is not first, a topology whose port counts do not
 * fit, a node used twice or a block started twice is an {@link IllegalStateException} naming the
 * block. Then every node gets its own platform thread named after its block path. Starting is all
 * or nothing: if the start is refused, or a thread cannot be started, no node code has run, no
 * thread is left and every node and block can be used in another flow.
 *
 * <p>The first exception thrown by any node cancels the flow: every node stops at its next item or
 * wait (the threads of nodes still running are also interrupted; a node that already ended and is
 * in {@link Node#close()} is not), {@link Node#close()} runs everywhere, and {@link #join()}
 * throws a {@link FlowException} naming the node, with the original cause; later failures of other
 * nodes are attached to that cause as suppressed exceptions. {@link #cancel()} does
 * the same on request. A source that ends its stream with a {@link StreamFailure} is the one
 * exception: nothing is cancelled, what it sent reaches the sinks, and {@code join} throws once the
 * flow has ended. When {@code join} returns or throws, every thread of the flow has ended.
 *
 * <p>A flow is also an {@link AutoCloseable} and has a {@link CompletableFuture} view, as JVM code
 * expects of a running task:
 *
 * <pre>{@code
 * try (Flow flow = Flow.start(pipeline)) {
 *     flow.completion().thenAccept(stats -> System.out.println(stats));
 *     ... // leaving the block early (an exception) cancels the flow; close() waits for its threads
 *     flow.join();
 * }
 * }</pre>
 */
public final class Flow implements AutoCloseable {
    private static final Set<Node<?, ?>> ACTIVE_NODES = Collections.newSetFromMap(new IdentityHashMap<>());

    private final String name;
    final CancelFlag cancel = new CancelFlag();
    private final List<NodeRunner> runners = new ArrayList<>();
    private final CountDownLatch done;
    private final AtomicInteger remaining;
    private final Object failureLock = new Object();
    private Throwable failure;
    private String failedPath;
    private boolean cancelledByUser;
    private long startNanos;
    /** Opened once every thread has started (or the start was abandoned): no node code runs before. */
    private final CountDownLatch gate = new CountDownLatch(1);
    private volatile boolean aborted;
    /** Test hook: called with the number of threads started so far before each thread start. */
    static volatile IntConsumer threadStartHook;
    private volatile long endNanos;
    /** Completed (by {@link #complete()}) once every thread of the flow has ended. */
    private final CompletableFuture<RunStats> completion = new FlowCompletion<>(this, true);
    /**
     * Whether anyone asked for {@link #completion()} before the flow ended ({@link #FUTURE_WANTED}),
     * or the flow ended first ({@link #ENDED}). Only a wanted future is completed when the flow ends,
     * off the last node's thread; an unwanted one is completed by the first {@link #completion()}
     * call after the end, on its caller's thread. The asynchronous completion of every flow cost
     * each flow's end a thread start on a machine of two cores ({@code CompletableFuture.runAsync}
     * then starts a thread per task: its common pool has a parallelism of 1), on the last node's
     * thread before it could end: ~60-100 us of a one-item flow's ~400 us (issue 31).
     */
    private final AtomicInteger futureState = new AtomicInteger(NO_FUTURE);
    private static final int NO_FUTURE = 0;
    private static final int FUTURE_WANTED = 1;
    private static final int ENDED = 2;
    /** Test hook: run each time the flow's future is completed asynchronously at its end. */
    static volatile Runnable asyncCompletionHook;

    private Flow(String name, int nodes) {
        this.name = name;
        this.done = new CountDownLatch(nodes);
        this.remaining = new AtomicInteger(nodes);
    }

    /**
     * Starts a block with {@link FlowOptions#defaults()}.
     *
     * @param block the block to run (a node or a composition)
     * @return the running flow
     */
    public static Flow start(Block<?, ?> block) {
        return start(block, FlowOptions.defaults());
    }

    /**
     * Validates, wires and starts a block.
     *
     * @param block the block to run (a node or a composition)
     * @param options wait strategy, channels and other settings of the flow
     * @return the running flow
     * @throws IllegalStateException if the composition is invalid or the block was started before
     */
    public static Flow start(Block<?, ?> block, FlowOptions options) {
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(options, "options");
        FlowPlan plan = PlanCompiler.compile(block, options);
        for (Composite<?, ?> c : plan.composites) {
            if (c.isStarted()) {
                throw new IllegalStateException("block '" + c.name() + "' was already started; blocks are single-use,"
                        + " build a new one");
            }
        }
        // All or nothing: everything that can refuse the graph (building channels and outboxes
        // included) runs before any node is registered, and a failure to start a thread undoes the
        // registration, so a refused start leaves its nodes and blocks as they were.
        Flow flow = new Flow(plan.name, plan.nodes.size());
        int[] capacities = flow.build(plan);
        List<Node<?, ?>> members = plan.members();
        synchronized (ACTIVE_NODES) {
            for (NodePlan n : plan.nodes) {
                for (Node<?, ?> m : n.members) {
                    if (ACTIVE_NODES.contains(m)) {
                        throw new IllegalStateException("node '" + m.name() + "' at " + n.path
                                + (m == n.node ? "" : n.node instanceof Comb ? " (inside comb '" + n.node.name() + "')"
                                        : " (run by '" + n.node.name() + "')")
                                + " is already running in another flow");
                    }
                }
            }
            if (Nodes.channelEndsMade) {
                ChannelEnds.check(plan.nodes);
                ChannelEnds.take(plan);
                try {
                    ChannelEnds.checkCycles(plan);
                } catch (IllegalStateException e) {
                    ChannelEnds.giveBack(members);
                    throw e;
                }
            }
            for (Composite<?, ?> c : plan.composites) {
                c.markStarted();
            }
            ACTIVE_NODES.addAll(members);
        }
        try {
            // Only now, with every node registered to this flow, may its nodes be changed: a refused
            // start must not touch a node another flow is running.
            BatchStage.recycle(plan, capacities);
            flow.launch(options);
        } catch (RuntimeException | Error e) {
            BatchStage.forget(members);
            synchronized (ACTIVE_NODES) {
                for (Node<?, ?> m : members) {
                    ACTIVE_NODES.remove(m);
                }
                ChannelEnds.giveBack(members);
                for (Composite<?, ?> c : plan.composites) {
                    c.unmarkStarted();
                }
            }
            throw e;
        }
        return flow;
    }

    /**
     * Makes the flow's runtime from its plan, before any thread starts: a waiter per node, the
     * loops, the channels (each knowing the waiters and strategies of its ends), the reorder windows,
     * then the node runners. Reads the plan; decides nothing.
     *
     * @return the capacity of each channel, by link index
     */
    private int[] build(FlowPlan plan) {
        List<NodePlan> nodes = plan.nodes;
        Waiter[] waiters = new Waiter[nodes.size()];
        for (int i = 0; i < waiters.length; i++) {
            waiters[i] = new Waiter();
        }
        Loop[] loops = new Loop[plan.loops.size()];
        for (LoopPlan l : plan.loops) {
            Waiter[] heads = new Waiter[l.heads.length];
            for (int k = 0; k < heads.length; k++) {
                heads[k] = waiters[l.heads[k]];
            }
            loops[l.index] = new Loop(heads);
        }
        Link[] links = new Link[plan.links.size()];
        int[] capacities = new int[links.length];
        for (LinkPlan l : plan.links) {
            boolean consumerMustFence = false;
            boolean producerWakeable = false;
            Waiter[] producers = new Waiter[l.producers.length];
            for (int k = 0; k < producers.length; k++) {
                WaitStrategy s = nodes.get(l.producers[k]).strategy;
                consumerMustFence |= s.peerMustFence();
                producerWakeable |= s.wakeable();
                producers[k] = waiters[l.producers[k]];
            }
            links[l.index] = new Link(l.kind, l.capacity, producers.length, nodes.get(l.consumer).strategy,
                    waiters[l.consumer], producers.length == 1 ? producers[0] : null, producers, consumerMustFence,
                    producerWakeable, l.loop >= 0 ? loops[l.loop].inFlight : null, null);
            capacities[l.index] = links[l.index].capacity;
        }
        ReorderWindow[] windows = new ReorderWindow[plan.windows.length];
        for (int w = 0; w < windows.length; w++) {
            Waiter emitter = null;
            Waiter collector = null;
            for (NodePlan n : nodes) {
                if (n.window == w) {
                    if (n.orderedEmitter) {
                        emitter = waiters[n.index];
                    } else {
                        collector = waiters[n.index];
                    }
                }
            }
            windows[w] = new ReorderWindow(plan.windows[w], emitter, collector);
        }
        for (NodePlan n : nodes) {
            runners.add(new NodeRunner(n, this, waiters[n.index], links, loops, windows));
        }
        return capacities;
    }

    /** The flow's node runners, in plan order (tests read their wait settings). */
    List<NodeRunner> runners() {
        return Collections.unmodifiableList(runners);
    }

    private void launch(FlowOptions options) {
        startNanos = System.nanoTime();
        int started = 0;
        try {
            ThreadMapping mapping = options.threadMapping();
            Set<Thread> made = options.threadFactory() == null ? null : Collections.newSetFromMap(new IdentityHashMap<>());
            for (NodeRunner r : runners) {
                r.thread = newThread(r, options);
                if (made != null && !made.add(r.thread)) {
                    // a caching factory: the second start would throw a bare IllegalThreadStateException
                    throw new IllegalStateException("the flow's thread factory returned one thread for two nodes (the"
                            + " second is " + r.path() + "); it must return a new thread per call");
                }
                if (made != null && r.plan.strategy.neverYields() && ThreadMapping.isVirtual(r.thread)) {
                    // nothing preempts a virtual thread: spinners would keep every carrier, and the nodes
                    // they wait for would never run (a 6-node pipeline on 2 cores hung)
                    throw new IllegalStateException("the flow's thread factory returned a virtual thread for node "
                            + r.path() + ", which waits with the busy-spin strategy: nothing preempts a virtual thread,"
                            + " so spinning nodes would keep every carrier thread and the nodes they wait for would"
                            + " never run; use backoff() or blocking(), or platform threads");
                }
                if (mapping != null) {
                    if (ThreadMapping.isVirtual(r.thread)) {
                        // sched_setaffinity would pin the carrier thread under it, a thread of a pool
                        // the flow does not own, for as long as that thread lives
                        throw new IllegalStateException("the flow's thread factory returned a virtual thread for node "
                                + r.path() + ", which a thread mapping cannot pin (it would pin its carrier thread);"
                                + " use platform threads or no thread mapping");
                    }
                    r.cpu = mapping.cpuOf(r.plan.index);
                }
            }
            for (NodeRunner r : runners) {
                IntConsumer hook = threadStartHook;
                if (hook != null) {
                    hook.accept(started);
                }
                r.thread.start();
                started++;
            }
        } catch (RuntimeException | Error e) {
            // the threads already started wait at the gate: release them into a no-op and wait for them
            aborted = true;
            gate.countDown();
            for (int i = 0; i < started; i++) {
                joinUninterruptibly(runners.get(i).thread);
            }
            throw e;
        }
        gate.countDown();
    }

    /**
     * Called by every node thread before it runs any node code.
     *
     * @return false if the start was abandoned (another thread could not start): run nothing
     */
    boolean awaitLaunch() {
        boolean interrupted = false;
        while (true) {
            try {
                gate.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return !aborted;
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A node's thread, from the options' thread factory if any, named after the node's block path. */
    private static Thread newThread(NodeRunner r, FlowOptions options) {
        ThreadFactory factory = options.threadFactory();
        if (factory == null) {
            Thread t = new Thread(r, r.path());
            t.setDaemon(options.daemon());
            return t;
        }
        Thread t = factory.newThread(r);
        if (t == null) {
            throw new IllegalStateException("the flow's thread factory returned null for node " + r.path());
        }
        if (t.getState() != Thread.State.NEW) {
            throw new IllegalStateException("the flow's thread factory returned a thread already started, for node "
                    + r.path());
        }
        t.setName(r.path());
        if (options.daemon()) {
            t.setDaemon(true);
        }
        return t;
    }

    /**
     * Waits for every node to end.
     *
     * @return the per-node statistics
     * @throws FlowException if a node failed (naming it, with its exception as the cause), if the
     *         flow was cancelled, or if the waiting thread was interrupted
     * @throws IllegalStateException if called from one of this flow's own node threads, which would
     *         wait for itself (a node stops its flow with {@link #cancel()})
     */
    public RunStats join() {
        refuseOwnNode("join()");
        try {
            // Wait for the threads themselves: every node has ended once its thread has (runnerDone
            // comes first), and waiting on the end-of-flow latch first would add a second wake-up to
            // every join (a park costs ~80 us to wake from on the CI machine; measured in issue 31).
            for (NodeRunner r : runners) {
                r.thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowException("interrupted while joining flow '" + name + "'", null, e);
        }
        return finish();
    }

    /**
     * Waits at most {@code timeout} for every node to end.
     *
     * @param timeout how long to wait at most (zero or negative: not at all; one too long to count in
     *        nanoseconds, as {@code ChronoUnit.FOREVER.getDuration()}: as long as it takes)
     * @return the final statistics
     * @throws TimeoutException if the flow is still running after the timeout (it keeps running)
     * @throws FlowException as {@link #join()}
     * @throws IllegalStateException as {@link #join()}
     */
    public RunStats join(Duration timeout) throws TimeoutException {
        refuseOwnNode("join(Duration)");
        try {
            // converted with saturation: a timeout beyond ~292 years (ChronoUnit.FOREVER's duration)
            // waits as long as it takes, where toNanos() threw an ArithmeticException
            if (!done.await(TimeUnit.NANOSECONDS.convert(Objects.requireNonNull(timeout, "timeout")),
                    TimeUnit.NANOSECONDS)) {
                throw new TimeoutException("flow '" + name + "' still running after " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowException("interrupted while joining flow '" + name + "'", null, e);
        }
        return finish();
    }

    /**
     * Refuses a wait for this flow's end from one of its own node threads: that thread would wait for
     * itself, so the flow could never end (close() from there looped on for ever, join() until the
     * thread was interrupted). A node that wants its flow to stop calls {@link #cancel()}.
     */
    /** Throws if the calling thread is one of this flow's node threads (which {@code call} would wait for). */
    void refuseOwnNode(String call) {
        NodeRunner own = ownNode();
        if (own != null) {
            throw waitsForItself(call, own);
        }
    }

    /** The runner whose thread is the calling thread, or null (a few reference compares per call). */
    private NodeRunner ownNode() {
        Thread me = Thread.currentThread();
        for (NodeRunner r : runners) {
            if (r.thread == me) {
                return r;
            }
        }
        return null;
    }

    private IllegalStateException waitsForItself(String call, NodeRunner own) {
        return new IllegalStateException(call + " called from node " + own.path() + " of flow '" + name
                + "' itself: it would wait for its own thread, so the flow could never end; a node stops its"
                + " flow with cancel()" + (call.equals("close()") ? " (close() cancelled it)" : ""));
    }

    private RunStats finish() {
        joinThreads();
        FlowException e = outcome();
        if (e != null) {
            throw e;
        }
        return snapshot();
    }

    /** Waits until every node thread has terminated, keeping the caller's interrupt status. */
    private void joinThreads() {
        for (NodeRunner r : runners) {
            boolean interrupted = false;
            while (true) {
                try {
                    r.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The exception {@link #join()} throws once every node has ended, or null if the flow succeeded. */
    private FlowException outcome() {
        synchronized (failureLock) {
            if (failure != null) {
                return new FlowException("node " + failedPath + " failed: " + failure, failedPath, failure);
            }
            if (cancelledByUser) {
                return new FlowException("flow '" + name + "' was cancelled", null,
                        new CancellationException("cancelled by Flow.cancel()"));
            }
        }
        return null;
    }

    /**
     * Cancels the flow if it is still running and waits until every one of its threads has ended:
     * for use with try-with-resources. Idempotent; returns at once after the first call (or after
     * {@link #join()}) has returned. Unlike {@code join}, it does not throw the flow's failure: get it
     * from {@link #join()} or {@link #completion()}. If the calling thread is interrupted, close still
     * waits for the flow's threads, then restores the interrupt status. Called from one of the flow's
     * own node threads, which it would wait for, it cancels the flow and throws an
     * {@link IllegalStateException} (a node stops its flow with {@link #cancel()}).
     */
    @Override
    public void close() {
        NodeRunner own = ownNode();
        if (own != null) {
            cancel();
            throw waitsForItself("close()", own);
        }
        if (!isDone()) {
            cancel();
        }
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        joinThreads();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The flow's outcome as a future (a {@link java.util.concurrent.CompletionStage}): completed with
     * the final statistics once every node thread has ended, or exceptionally with the
     * {@link FlowException} {@link #join()} would throw (a node's failure, or cancellation).
     *
     * <p>Each call returns a new dependent copy: completing or cancelling it does not affect the
     * flow or other callers (use {@link #cancel()} to stop the flow). Dependent actions registered
     * with the non-async methods run on the thread that completes the flow's future (a thread of
     * {@link CompletableFuture}'s default async pool, never a node thread) or on the caller's thread if
     * the flow has already ended.
     *
     * <p>A flow completes its future at its end only if this method was called before: after the
     * end, the first call completes it on the calling thread (which waits for the flow's threads to
     * terminate, a matter of microseconds once its last node has ended). A flow that is only joined
     * never hands work to another thread.
     *
     * <p>A wait on the future ({@code join}, {@code get}), or on a stage made from it, from one of
     * the flow's own node threads would never end: it throws an {@link IllegalStateException}
     * instead, as {@link #join()} does. Stages that can complete without the flow (the "either"
     * forms, {@code orTimeout}, {@code completeOnTimeout}) may be waited on.
     *
     * @return a future of the flow's statistics
     */
    public CompletableFuture<RunStats> completion() {
        if (futureState.get() == NO_FUTURE && futureState.compareAndSet(NO_FUTURE, FUTURE_WANTED)) {
            return completion.copy(); // the flow's end completes it
        }
        if (futureState.get() == ENDED && !completion.isDone()) {
            complete(); // ended before anyone asked: no node thread is left to run code here
        }
        return completion.copy();
    }

    /** Cancels the flow: every node stops promptly, whatever it is waiting on. Idempotent. */
    public void cancel() {
        synchronized (failureLock) {
            if (failure == null && !isDone()) {
                cancelledByUser = true;
            }
        }
        raiseCancel();
    }

    /**
     * True once every node has ended.
     *
     * @return whether every node has ended
     */
    public boolean isDone() {
        return done.getCount() == 0;
    }

    /**
     * The flow's name (its root block's name).
     *
     * @return the name of the flow
     */
    public String name() {
        return name;
    }

    /**
     * A live snapshot of the statistics (approximate while the flow runs: each count is read once,
     * while the nodes go on). On every edge the snapshot never shows the consumer with more items in
     * than its producer sent, so {@code itemsOut - itemsIn} of an edge, the items in flight on it, is
     * never negative (a producer counts an item before it offers it; the snapshot reads all items in
     * before any items out).
     *
     * @return the statistics so far
     */
    public RunStats stats() {
        return snapshot();
    }

    private RunStats snapshot() {
        long now = System.nanoTime();
        // every node's items in before any node's items out: with the counts' release/acquire order
        // (NodeRunner.countIn), no edge then shows its consumer ahead of its producer
        int n = runners.size();
        long[] in = new long[n];
        for (int i = 0; i < n; i++) {
            in[i] = runners.get(i).itemsInAcquire();
        }
        List<NodeStats> s = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            s.add(runners.get(i).stats(now, in[i]));
        }
        long end = endNanos;
        return new RunStats(name, s, Duration.ofNanos((end != 0 ? end : now) - startNanos));
    }

    void fail(NodeRunner r, Throwable t) {
        recordFailure(r, t);
        raiseCancel();
    }

    /**
     * Records t, the error a source's stream ended with ({@link StreamFailure}), as the flow's failure
     * without cancelling anything: the items already sent go on to the sinks and the flow ends its
     * stream, then {@link #join()} throws.
     */
    void failAtEnd(NodeRunner r, Throwable t) {
        recordFailure(r, t);
    }

    private void recordFailure(NodeRunner r, Throwable t) {
        synchronized (failureLock) {
            if (failure == null && !cancelledByUser) {
                failure = t;
                failedPath = r.path();
            } else if (failure != null && failure != t) {
                failure.addSuppressed(t); // a later failure (often a consequence) is kept, not dropped
            }
        }
    }

    /** The failure recorded so far (a node's, or a stream's error that waits for the flow's end), or null. */
    Throwable failure() {
        synchronized (failureLock) {
            return failure;
        }
    }

    /** True once a failure is recorded (a node's, or a stream's error that waits for the flow's end). */
    boolean failed() {
        synchronized (failureLock) {
            return failure != null;
        }
    }

    private void raiseCancel() {
        if (cancel.raised) {
            return;
        }
        cancel.raised = true;
        for (NodeRunner r : runners) {
            r.waiter.wakeIfParked();
            r.interruptIfRunning();
        }
    }

    void runnerDone(NodeRunner r) {
        synchronized (ACTIVE_NODES) {
            for (Node<?, ?> m : r.plan.members) { // a loop, not a method reference: no class spun at a first flow's end
                ACTIVE_NODES.remove(m);
            }
            if (Nodes.channelEndsMade) {
                ChannelEnds.giveBack(r.plan.members);
            }
        }
        try {
            // Only once JFR is up (a recording was started: -XX:StartFlightRecording, jcmd, or the
            // Recording API): initialising the event class sets up JFR's metadata, which took about
            // 50 ms of the first flow's end in every process, recording or not (the cold start).
            if (FlightRecorder.isInitialized()) {
                NodeEndEvent.emit(name, r);
            }
        } catch (LinkageError e) {
            // a runtime without jdk.jfr: the event is optional, the flow's accounting below is not
        }
        boolean last = remaining.decrementAndGet() == 0;
        if (last) {
            endNanos = System.nanoTime();
        }
        done.countDown();
        if (last && !futureState.compareAndSet(NO_FUTURE, ENDED)) {
            // someone holds the future: complete it, but not on this node thread (it is still alive,
            // and dependents may join the flow)
            Runnable hook = asyncCompletionHook;
            if (hook != null) {
                hook.run();
            }
            CompletableFuture.runAsync(this::complete);
        }
    }

    /** Completes {@link #completion} once every node thread (the last one included) has terminated. */
    private void complete() {
        joinThreads();
        FlowException e = outcome();
        if (e != null) {
            completion.completeExceptionally(e);
        } else {
            completion.complete(snapshot());
        }
    }

    @Override
    public String toString() {
        return "Flow[" + name + ", " + runners.size() + " nodes" + (isDone() ? ", done" : ", running") + "]";
    }
}
