package org.bbflow.core;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A FIFO channel between nodes (FastFlow's {@code ff_queue}) on a JCTools lock-free queue.
 *
 * <p>Three kinds: {@link #spsc(int) bounded single-producer single-consumer} (the default of every
 * edge), {@link #spscUnbounded() unbounded SPSC} and {@link #mpsc(int) bounded many-producer
 * single-consumer}. End of stream (EOS) is a state of the channel set by {@link #close()}, never an
 * item: {@code null} is not a valid item and is refused with an {@link IllegalArgumentException}.
 *
 * <p>The flows built from blocks create and wire their channels themselves. A channel can also be
 * used on its own between two threads, or to feed a flow from outside and read its results
 * ({@link Nodes#fromChannel(Channel)}, {@link Nodes#toChannel(Channel)}). Waiting operations
 * ({@link #put}, {@link #take}) use the channel's {@link WaitStrategy} and stop with an
 * {@link IllegalStateException} if the waiting thread is interrupted.
 *
 * <p>Threading: an SPSC channel must have one producer thread and one consumer thread at a time; an
 * MPSC channel any number of producers and one consumer. Offers and polls take no lock and allocate
 * nothing (the unbounded kind allocates a new chunk every {@value #UNBOUNDED_CHUNK} items).
 *
 * @param <T> the item type
 */
public final class Channel<T> {
    /** Capacity of a bounded channel when none is given. */
    public static final int DEFAULT_CAPACITY = 1024;
    static final int UNBOUNDED_CHUNK = 1024;

    enum Kind { SPSC, SPSC_UNBOUNDED, MPSC }

    /** The waiter of each thread that calls {@link #put} on an MPSC channel (a thread parks in one place at a time). */
    private static final ThreadLocal<Waiter> THREAD_WAITER = ThreadLocal.withInitial(Waiter::new);

    /** Numbers the channels of this JVM in the order they are made, so that messages tell them apart. */
    private static final AtomicInteger MADE = new AtomicInteger();

    private final Kind kind;
    private final int requestedCapacity;
    private final int number = MADE.incrementAndGet();
    /** The runtime side: queue, end of stream, wake-up wiring. Replaced only by {@link #waitStrategy} before use. */
    private Link link;
    private WaitStrategy waitStrategy = WaitStrategy.backoff();
    /** Waiting state of the (single) consumer and SPSC producer of put/take, made on first wait. */
    private Idler consumerIdler;
    private Idler producerIdler;
    /**
     * MPSC only (else null): offers between their check for {@link #close()} and their item being in
     * the queue. One producer can close an MPSC channel while another's offer, past that check, has not
     * yet put its item in; a consumer that then saw the channel closed and empty ended its stream, and
     * the accepted item was never delivered. A consumer's {@link #isClosed()} now waits for such offers
     * to land first (MpscCloseRaceTest). Two atomic updates per MPSC offer, which already takes a CAS on
     * a line its producers share; an SPSC channel has one producer, the thread that closes it.
     */
    private final AtomicInteger offersUnderWay;
    /** Test hook: run by an MPSC offer between its closed check and its item going in (null in production). */
    static volatile Runnable offerHook;
    private final WaitCondition roomCondition = () -> link.hasRoom();
    private final WaitCondition readyCondition = () -> link.hasItem() || link.isClosed();

    private Channel(Kind kind, int capacity) {
        this.kind = kind;
        this.requestedCapacity = capacity;
        this.offersUnderWay = kind == Kind.MPSC ? new AtomicInteger() : null;
        this.link = newLink(waitStrategy);
    }

    private Link newLink(WaitStrategy s) {
        return new Link(kind, requestedCapacity, 1, s, new Waiter(), new Waiter(), new Waiter[0], s.peerMustFence(),
                s.wakeable(), null);
    }

    /**
     * A bounded single-producer single-consumer channel; capacity is rounded up to a power of two
     * (1 stays 1: a one-slot channel, as FastFlow's on-demand farms use).
     *
     * @param <T> item type
     * @param capacity the least capacity, at least 1
     * @return the channel
     */
    public static <T> Channel<T> spsc(int capacity) {
        return new Channel<>(Kind.SPSC, checkCapacity(capacity));
    }

    /**
     * A bounded SPSC channel of {@link #DEFAULT_CAPACITY}.
     *
     * @param <T> item type
     * @return the channel
     */
    public static <T> Channel<T> spsc() {
        return spsc(DEFAULT_CAPACITY);
    }

    /**
     * An unbounded single-producer single-consumer channel: offers never fail, memory is the limit.
     *
     * @param <T> item type
     * @return the channel
     */
    public static <T> Channel<T> spscUnbounded() {
        return new Channel<>(Kind.SPSC_UNBOUNDED, 0);
    }

    /**
     * A bounded many-producer single-consumer channel; capacity is rounded up to a power of two
     * (1 stays 1).
     *
     * @param <T> item type
     * @param capacity the least capacity, at least 1
     * @return the channel
     */
    public static <T> Channel<T> mpsc(int capacity) {
        return new Channel<>(Kind.MPSC, checkCapacity(capacity));
    }

    private static int checkCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("channel capacity must be >= 1, got " + capacity);
        }
        return capacity;
    }

    /**
     * Sets the strategy {@link #put} and {@link #take} wait with. Call before the channel is used.
     *
     * @param strategy how a producer waits for room and a consumer for items
     * @return this channel
     * @throws IllegalStateException if the channel was already used (it holds items or was closed)
     */
    public Channel<T> waitStrategy(WaitStrategy strategy) {
        Objects.requireNonNull(strategy, "strategy");
        if (!link.queue.isEmpty() || link.isClosed()) {
            throw new IllegalStateException("set a channel's wait strategy before it is used: " + this);
        }
        this.waitStrategy = strategy;
        this.link = newLink(strategy);
        this.consumerIdler = null;
        this.producerIdler = null;
        return this;
    }

    /**
     * Adds an item if there is room.
     *
     * @param item the item, not null
     * @return false if the channel is full
     * @throws IllegalArgumentException if item is null
     * @throws IllegalStateException if the channel was closed
     */
    public boolean offer(T item) {
        if (item == null) {
            throw new IllegalArgumentException("null is not a valid channel item (end of stream is close())");
        }
        Link l = link;
        AtomicInteger under = offersUnderWay;
        if (under == null) {
            if (l.isClosed()) {
                throw new IllegalStateException("offer on a closed channel");
            }
            if (!l.offerRaw(item)) {
                return false;
            }
        } else {
            // MPSC: counted from before the check to after the item is in (see isClosed)
            under.getAndIncrement();
            try {
                if (l.isClosed()) {
                    throw new IllegalStateException("offer on a closed channel");
                }
                Runnable hook = offerHook;
                if (hook != null) {
                    hook.run();
                }
                if (!l.offerRaw(item)) {
                    return false;
                }
            } finally {
                under.getAndDecrement();
            }
        }
        l.wakeConsumer();
        return true;
    }

    /**
     * Adds an item, waiting with the wait strategy while the channel is full.
     *
     * @param item the item, not null
     */
    public void put(T item) {
        if (offer(item)) {
            return;
        }
        if (link.producers != null) {
            putShared(item);
            return;
        }
        // one producer on an SPSC channel: its waiting state is cached
        Idler idler = producerIdler();
        try {
            while (!offer(item)) {
                checkInterrupt();
                idler.idle(link.producerWaiter, roomCondition);
            }
        } finally {
            idler.reset();
        }
    }

    /**
     * An MPSC producer waits in its own thread's waiter, announced to the consumer (see
     * {@link WaiterGroup}) for the time of this wait only: a channel fed by many short-lived threads
     * keeps no trace of them.
     */
    private void putShared(T item) {
        Waiter self = THREAD_WAITER.get();
        WaiterGroup producers = link.producers;
        producers.add(self);
        Idler idler = waitStrategy.newIdler();
        producers.beginWait();
        try {
            while (!offer(item)) {
                checkInterrupt();
                idler.idle(self, roomCondition);
            }
        } finally {
            producers.endWait();
            producers.remove(self);
        }
    }

    /**
     * Removes the head item, or returns null if the channel is empty (or at EOS).
     *
     * @return the head item, or null
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        Link l = link;
        Object x = l.pollRaw();
        if (x != null) {
            l.wakeProducer();
        }
        return (T) x;
    }

    /**
     * Removes the head item, waiting with the wait strategy while the channel is empty.
     *
     * @return the item, or null when the channel is closed and drained (EOS)
     * @throws IllegalStateException if the waiting thread is interrupted, or once the items sent are
     *         drained if the flow feeding the channel ({@link Nodes#toChannel(Channel)}) failed or was
     *         cancelled: its stream is incomplete, so it does not end as a clean end of stream
     */
    public T take() {
        T x = poll();
        if (x != null) {
            return x;
        }
        Idler idler = consumerIdler();
        try {
            while (true) {
                x = poll();
                if (x != null) {
                    return x;
                }
                if (isClosed()) {
                    x = poll();
                    if (x == null) {
                        checkAborted();
                    }
                    return x;
                }
                checkInterrupt();
                idler.idle(link.consumerWaiter, readyCondition);
            }
        } finally {
            idler.reset();
        }
    }

    /**
     * Marks end of stream: no more items will be offered. Items already in the channel are still
     * delivered. Idempotent. On an MPSC channel any producer may close it while others still offer:
     * each such offer is either refused ({@link IllegalStateException}) or, if it returned true,
     * delivered before the end of stream.
     */
    public void close() {
        link.close();
    }

    /**
     * True once {@link #close()} was called (items may remain to be read). On an MPSC channel it
     * returns true only once every offer that began before the close has its item in the channel (or
     * was refused), so that a consumer that sees the channel closed and then finds it empty has seen
     * every item an offer accepted; it waits for those offers, which take no longer than an offer.
     *
     * @return whether the channel was closed
     */
    public boolean isClosed() {
        if (!link.isClosed()) {
            return false;
        }
        AtomicInteger under = offersUnderWay;
        if (under != null) {
            for (int spins = 0; under.get() != 0; spins++) {
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield(); // the offering thread may have been descheduled
                }
            }
        }
        return true;
    }

    /**
     * True when the channel is closed and every item has been read.
     *
     * @return whether the channel reached its end of stream
     */
    public boolean isEos() {
        return isClosed() && link.queue.isEmpty();
    }

    /**
     * The number of items in the channel (approximate while threads use it).
     *
     * @return the number of items
     */
    public int size() {
        return link.queue.size();
    }

    /**
     * The capacity, or {@link Integer#MAX_VALUE} for an unbounded channel.
     *
     * @return the capacity
     */
    public int capacity() {
        return link.capacity;
    }

    /**
     * The channel's number (channels are numbered in the order this JVM made them, so that an error
     * naming two channels tells them apart), kind, capacity, current size and whether it is closed,
     * as in {@code Channel#3[SPSC, capacity=1024, size=0]}.
     */
    @Override
    public String toString() {
        int capacity = capacity();
        return "Channel#" + number + "[" + kind + (capacity == Integer.MAX_VALUE ? "" : ", capacity=" + capacity)
                + ", size=" + size() + (isClosed() ? ", closed" : "") + "]";
    }

    // ---- the runtime's side (package-private) ---------------------------------------------------

    /**
     * The path of the {@link Nodes#toChannel} node that fills this channel in a running flow, and of
     * the {@link Nodes#fromChannel} node that drains it, or null; guarded by {@link Flow}'s registry of
     * running nodes (see {@link ChannelEnds}).
     */
    String filledAt;
    String drainedAt;
    /** The {@link Nodes#toChannel} node that holds the filling end, or null (same guard). */
    Nodes.ChannelSink<?> filler;
    /**
     * While a {@link Nodes#fromChannel} node drains this channel: the {@code toChannel} nodes of its
     * flow downstream of it, whose channels close only after this one; else null (same guard). Read
     * by {@link ChannelEnds#checkCycles} at flow starts only.
     */
    List<Nodes.ChannelSink<?>> feeds;

    /** The channel's runtime side. */
    Link link() {
        return link;
    }

    /** End of stream once {@code producers} threads have each called {@link #close()} (tests of shared channels). */
    void expectProducers(int producers) {
        link.expectProducers(producers);
    }

    /**
     * Ends the stream as incomplete (the flow feeding it failed or was cancelled): {@link #take()}
     * throws once the items sent are drained.
     */
    void abort() {
        link.abort();
    }

    /** Throws if the stream ended incomplete; called once it is drained. */
    void checkAborted() {
        if (link.isAborted()) {
            throw new IllegalStateException("the flow feeding this channel failed or was cancelled before its end of stream"
                    + " (the items it sent were delivered)");
        }
    }

    /** The consumer's waiting state, in this channel's strategy (one consumer thread). */
    Idler consumerIdler() {
        Idler i = consumerIdler;
        if (i == null) {
            consumerIdler = i = waitStrategy.newIdler();
        }
        return i;
    }

    private Idler producerIdler() {
        Idler i = producerIdler;
        if (i == null) {
            producerIdler = i = waitStrategy.newIdler();
        }
        return i;
    }

    private static void checkInterrupt() {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("interrupted while waiting on a channel");
        }
    }
}
