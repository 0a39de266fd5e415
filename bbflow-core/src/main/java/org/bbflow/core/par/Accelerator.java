package org.bbflow.core.par;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.agrona.concurrent.IdleStrategy;
import org.bbflow.core.Channel;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Parallelism;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.WaitStrategy;

/**
 * A farm run in the background and fed from the caller's own thread (FastFlow's accelerator: an
 * {@code ff_farm} built with {@code accelerator = true}).
 *
 * <pre>{@code
 * try (Accelerator<Long, Long> acc = Accelerator.builder(4, () -> Nodes.map((Long x) -> heavy(x)))
 *         .ordered()
 *         .start()) {                                 // run_then_freeze
 *     for (int burst = 0; burst < 10; burst++) {
 *         for (long i = 0; i < n; i++) {
 *             acc.offload(i);                          // offload
 *         }
 *         acc.endBurst();                              // offload(EOS)
 *         for (Long r; (r = acc.takeResult()) != null; ) {   // load_result until EOS
 *             use(r);
 *         }
 *         acc.waitFreezing();                          // wait_freezing
 *     }
 * }                                                    // wait: threads end
 * }</pre>
 *
 * <p><b>Bursts.</b> Items offloaded between two {@link #endBurst()} calls form a burst. The
 * accelerator's threads (an emitter, the workers and a collector: a {@link Farm} on a {@link Flow})
 * start once, at {@link Builder#start()}, and are kept until {@link #close()}: between bursts they
 * wait with the accelerator's {@link WaitStrategy}, {@link WaitStrategy#blocking()} by default, so a
 * frozen accelerator's threads are parked; the next {@link #offload} thaws them. FastFlow's
 * {@code run_then_freeze} is implicit here: offloading is enough.
 *
 * <p><b>Results</b> come back first-come (as workers finish) or, with {@link Builder#ordered()}, in
 * the order the items were offloaded, each worker sending zero, one or several results per item.
 * {@link #takeResult()} returns null at the end of each burst; {@link #pollResult()} never waits.
 * The result channel is unbounded, so workers never wait for the caller to take results (a caller
 * that offloads a whole burst before it takes anything cannot deadlock); take them, or build with
 * {@link Builder#withoutResults()} when the workers deliver elsewhere. The input channel is bounded:
 * {@link #offload} waits while it is full.
 *
 * <p><b>Threads.</b> {@code offload}, {@code endBurst} and {@code waitFreezing} are for one feeding
 * thread at a time, {@code takeResult} and {@code pollResult} for one taking thread at a time (it
 * may be the feeding thread). A worker's failure fails the farm: the next call that waits on it
 * throws the {@link FlowException} naming the node, as does {@link #close()}.
 *
 * @param <I> the type of the items offloaded
 * @param <O> the type of the results
 */
public final class Accelerator<I, O> implements AutoCloseable {
    private static final AtomicInteger ACCELERATORS = new AtomicInteger();

    private final Channel<Object> input;
    private final Channel<Object> results;
    private final Flow flow;
    private final IdleStrategy offerIdle;
    private final Object freezing = new Object();
    /** Bursts the caller ended, and bursts the collector saw end (guarded by {@link #freezing}). */
    private long burstsEnded;
    private long burstsFrozen;
    /** Items were offloaded since the last end of burst (feeding thread only). */
    private boolean inBurst;
    /** A result or end of burst read ahead by {@link #pollResult()} (taking thread only). */
    private Object lookahead;
    private boolean closed;

    private Accelerator(Builder<I, O> b) {
        this.input = Channel.spsc(b.capacity).waitStrategy(b.waitStrategy);
        this.results = b.results ? Channel.spscUnbounded().waitStrategy(b.waitStrategy) : null;
        this.offerIdle = b.waitStrategy.newIdleStrategy();
        // Each user node runs inside a wrapper (which passes the end-of-burst marker on), placed with
        // Nodes.wrapping so that the flow holds the user's node as its own: one node returned twice by
        // the factory is refused as a node in two places of a flow, one already running in another flow
        // (or accelerator) as a node running elsewhere, both before any thread starts; and the node is
        // free again once this accelerator's flow has ended.
        Farm<Object, Object> farm = Farm.of(b.workers, () -> {
            Node<? super I, ? extends O> w = Objects.requireNonNull(b.worker.get(), "the worker factory returned null");
            return Nodes.wrapping(w, new AcceleratorWorker<I, O>(w));
        });
        farm.emitter(new AcceleratorEmitter(input, b.ordered));
        if (b.onDemand) {
            farm.dispatch(Dispatch.onDemand());
        }
        if (b.ordered) {
            farm.ordered();
        }
        farm.collector(new AcceleratorCollector(this, results, b.ordered ? 1 : b.workers));
        farm.named(b.name);
        this.flow = Flow.start(farm, FlowOptions.defaults().withWaitStrategy(b.waitStrategy).withDaemon(true));
        flow.completion().whenComplete((stats, failure) -> {
            if (results != null) {
                results.close(); // wakes a taker; the collector's thread has ended, so no producer is left
            }
            synchronized (freezing) {
                freezing.notifyAll();
            }
        });
    }

    /**
     * Describes an accelerator of {@code workers} workers, each made by the factory.
     *
     * @param <I> the type of the items offloaded
     * @param <O> the type of the results
     * @param workers how many workers, at least 1
     * @param worker makes each worker node (called {@code workers} times, at {@link Builder#start()}); a
     *        new node each time: a factory that returns one node twice makes {@code start()} throw an
     *        {@link IllegalStateException}, as a farm of one node in two places is refused; the
     *        accelerator holds each worker node as a flow holds its nodes, from its start until its
     *        threads end, so a node running elsewhere meanwhile (in a flow, another accelerator) is
     *        refused at start, here or there
     * @return the builder
     * @throws IllegalArgumentException if workers is not in [1, {@link Parallelism#MAX}]
     */
    public static <I, O> Builder<I, O> builder(int workers, Supplier<? extends Node<? super I, ? extends O>> worker) {
        Parallelism.check("workers", workers);
        return new Builder<>(workers, Objects.requireNonNull(worker, "worker"));
    }

    /**
     * Hands an item to the accelerator (FastFlow's {@code offload}), waiting while its input channel
     * is full. Starts a burst if none is open; thaws a frozen accelerator.
     *
     * @param item the item, not null
     * @throws FlowException if the farm failed or was cancelled: at once once it has ended, even with
     *         room in the input channel (nothing would take the item)
     * @throws IllegalStateException if the accelerator was closed
     */
    public void offload(I item) {
        Objects.requireNonNull(item, "item");
        send(item);
        inBurst = true;
    }

    /**
     * Ends the current burst (FastFlow's {@code offload(EOS)}): {@link #takeResult()} returns null
     * once every result of the items offloaded so far has been taken. Each call ends one burst,
     * possibly empty.
     *
     * @throws FlowException if the farm failed
     * @throws IllegalStateException if the accelerator was closed
     */
    public void endBurst() {
        send(BurstEnd.INSTANCE);
        inBurst = false;
        synchronized (freezing) {
            burstsEnded++;
        }
    }

    private void send(Object x) {
        if (closed) {
            throw new IllegalStateException("accelerator '" + flow.name() + "' is closed");
        }
        // A farm that has ended (only a failure or a cancel ends it before close()) takes nothing more:
        // its emitter is gone, so an item put into the input channel's free room would be lost without
        // a word. Checked before the offer, not only while the channel is full.
        if (flow.isDone()) {
            throw failure("offload");
        }
        IdleStrategy idle = offerIdle;
        try {
            while (!input.offer(x)) {
                if (flow.isDone()) {
                    throw failure("offload");
                }
                idle.idle();
            }
        } finally {
            idle.reset();
        }
    }

    /**
     * Ends the burst if items were offloaded since the last end, then waits until every burst ended
     * so far is done: every item processed by its worker and every result on its way to the caller
     * (FastFlow's {@code wait_freezing}). The threads are then idle, parked with the default strategy,
     * until the next {@link #offload}. Results not taken yet stay available.
     *
     * @throws FlowException if the farm failed
     * @throws IllegalStateException if the thread was interrupted while waiting
     */
    public void waitFreezing() {
        if (inBurst) {
            endBurst();
        }
        synchronized (freezing) {
            while (burstsFrozen < burstsEnded && !flow.isDone()) {
                try {
                    freezing.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for accelerator '" + flow.name()
                            + "' to freeze", e);
                }
            }
            if (burstsFrozen < burstsEnded) {
                throw failure("waitFreezing");
            }
        }
    }

    /** Called by the collector when the last marker of a burst arrived. */
    void burstFrozen() {
        synchronized (freezing) {
            burstsFrozen++;
            freezing.notifyAll();
        }
    }

    /**
     * True when every burst ended so far is done and no item was offloaded since.
     *
     * @return whether the accelerator is frozen
     */
    public boolean isFrozen() {
        synchronized (freezing) {
            return !inBurst && burstsFrozen == burstsEnded;
        }
    }

    /**
     * The next result, waiting for it (FastFlow's {@code load_result}); null at the end of a burst
     * (each end of burst once, after that burst's results).
     *
     * @return the next result, or null at the end of a burst
     * @throws FlowException if the farm failed
     * @throws IllegalStateException if the accelerator has no results, or was closed with none left
     */
    @SuppressWarnings("unchecked")
    public O takeResult() {
        Channel<Object> r = resultChannel();
        Object x = lookahead;
        lookahead = null;
        if (x == null) {
            x = r.take();
        }
        if (x == null) {
            if (flow.isDone() && !closed) {
                throw failure("takeResult");
            }
            throw new IllegalStateException("accelerator '" + flow.name() + "' was closed: no more results");
        }
        return x == BurstEnd.INSTANCE ? null : (O) x;
    }

    /**
     * The next result if one is ready, without waiting (FastFlow's {@code load_result_nb}). An end
     * of burst is left for {@link #takeResult()}: at one, this returns null.
     *
     * @return the next result, or null if none is ready
     * @throws IllegalStateException if the accelerator has no results
     */
    @SuppressWarnings("unchecked")
    public O pollResult() {
        Channel<Object> r = resultChannel();
        Object x = lookahead;
        if (x == null) {
            x = r.poll();
        }
        if (x == null || x == BurstEnd.INSTANCE) {
            lookahead = x;
            return null;
        }
        lookahead = null;
        return (O) x;
    }

    private Channel<Object> resultChannel() {
        if (results == null) {
            throw new IllegalStateException("accelerator '" + flow.name() + "' was built without results");
        }
        return results;
    }

    private FlowException failure(String call) {
        try {
            flow.join();
        } catch (FlowException e) {
            return e;
        }
        return new FlowException("accelerator '" + flow.name() + "' ended before " + call, null, null);
    }

    /**
     * Ends the accelerator (FastFlow's {@code wait}): the items offloaded so far are processed, then
     * the farm's threads end; no thread is left when this returns. Results not taken are dropped.
     * Idempotent.
     *
     * @throws FlowException if the farm failed (at any time since it started)
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            input.close();
        }
        flow.join();
    }

    /**
     * The underlying flow, for its statistics ({@link Flow#stats()}).
     *
     * @return the flow running the farm
     */
    public Flow flow() {
        return flow;
    }

    @Override
    public String toString() {
        return "Accelerator[" + flow.name() + (closed ? ", closed" : isFrozen() ? ", frozen" : ", running") + "]";
    }

    /**
     * How to build an {@link Accelerator}: its farm's policies and waiting.
     *
     * @param <I> the type of the items offloaded
     * @param <O> the type of the results
     */
    public static final class Builder<I, O> {
        private final int workers;
        private final Supplier<? extends Node<? super I, ? extends O>> worker;
        private boolean ordered;
        private boolean onDemand;
        private boolean results = true;
        private int capacity = Channel.DEFAULT_CAPACITY;
        private WaitStrategy waitStrategy = WaitStrategy.blocking();
        private String name = "accelerator-" + ACCELERATORS.incrementAndGet();

        private Builder(int workers, Supplier<? extends Node<? super I, ? extends O>> worker) {
            this.workers = workers;
            this.worker = worker;
        }

        /**
         * Results in the order the items were offloaded (FastFlow's {@code set_ordered}).
         *
         * @return this builder
         */
        public Builder<I, O> ordered() {
            this.ordered = true;
            return this;
        }

        /**
         * Items go to the first free worker instead of round-robin (FastFlow's
         * {@code set_scheduling_ondemand}).
         *
         * @return this builder
         */
        public Builder<I, O> onDemand() {
            this.onDemand = true;
            return this;
        }

        /**
         * Drops the workers' results: the workers deliver elsewhere (to shared memory, say).
         *
         * @return this builder
         */
        public Builder<I, O> withoutResults() {
            this.results = false;
            return this;
        }

        /**
         * The capacity of the input channel ({@link Channel#DEFAULT_CAPACITY} by default).
         *
         * @param capacity at least 1
         * @return this builder
         */
        public Builder<I, O> capacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
            }
            this.capacity = capacity;
            return this;
        }

        /**
         * How the threads wait, between bursts too ({@link WaitStrategy#blocking()} by default: parked
         * while frozen; {@link WaitStrategy#backoff()} spins briefly first, for lower latency).
         *
         * @param strategy the wait strategy
         * @return this builder
         */
        public Builder<I, O> waitStrategy(WaitStrategy strategy) {
            this.waitStrategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * The farm's name, which its threads' names start with.
         *
         * @param name the name
         * @return this builder
         */
        public Builder<I, O> named(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Starts the farm's threads (FastFlow's first {@code run_then_freeze}); they wait for the
         * first item.
         *
         * @return the running accelerator
         * @throws IllegalStateException if the worker factory returned one node twice, or a node that is
         *         running in a flow or another accelerator (no thread starts); a node is free again once
         *         the accelerator holding it is closed, or its flow failed or was cancelled
         */
        public Accelerator<I, O> start() {
            return new Accelerator<>(this);
        }
    }
}
