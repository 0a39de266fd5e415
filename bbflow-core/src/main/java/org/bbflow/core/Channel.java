package org.bbflow.core;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A FIFO channel between nodes (FastFlow's {@code ff_queue}) on a lock-free queue (JCTools' SPSC
 * queues; for MPSC a queue of BBFlow's own, after JCTools' {@code MpscArrayQueue}, that can be
 * closed to offers).
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
 * nothing (the unbounded kind allocates a new chunk every {@value #UNBOUNDED_CHUNK} items). An MPSC
 * offer is one compare-and-set, as in JCTools' {@code MpscArrayQueue}, which also makes it safe
 * against another producer's {@link #close()} (see there).
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
     * Test hook: when set, makes the queue of each MPSC channel made (tests widen the window between
     * an offer's claim of a slot and its write with a subclass); null in production, read only when a
     * channel is made.
     */
    static volatile IntFunction<ClosableMpscQueue<Object>> mpscQueueHook;
    private final WaitCondition roomCondition = () -> link.hasRoom();
    private final WaitCondition readyCondition = () -> link.hasItem() || link.isClosed();

    private Channel(Kind kind, int capacity) {
        this.kind = kind;
        this.requestedCapacity = capacity;
        this.link = newLink(waitStrategy);
    }

    private Link newLink(WaitStrategy s) {
        ClosableMpscQueue<Object> q = null;
        if (kind == Kind.MPSC) {
            IntFunction<ClosableMpscQueue<Object>> hook = mpscQueueHook;
            q = hook != null ? hook.apply(requestedCapacity) : new ClosableMpscQueue<>(requestedCapacity);
        }
        return new Link(kind, requestedCapacity, 1, s, new Waiter(), new Waiter(), new Waiter[0], s.peerMustFence(),
                s.wakeable(), null, q);
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
        if (!link.isEmpty() || link.isClosed()) {
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
        ClosableMpscQueue<Object> q = l.mpsc;
        if (q == null) {
            if (l.isClosed()) {
                throw new IllegalStateException("offer on a closed channel");
            }
            if (!l.offerRaw(item)) {
                return false;
            }
        } else if (!q.offer(item)) {
            // MPSC: the queue's one CAS claimed no slot, the queue being full or closed (the close
            // sets its flag in the producer index before the channel reads as closed: Link.close)
            if (q.isClosed()) {
                throw new IllegalStateException("offer on a closed channel");
            }
            return false;
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
        ClosableMpscQueue<Object> q = l.mpsc;
        Object x;
        if (q == null) {
            x = l.pollRaw();
        } else if ((x = q.relaxedPoll()) == null && l.isClosed()) {
            // MPSC, closed: a slot may be claimed by an accepted offer and its item not yet written,
            // which the relaxed poll reports as empty; the strict poll knows from the producer index
            // (final since the close) whether a slot is still to come, and waits for its item. Before
            // the close a poll stays wait-free (a later poll will get the item).
            x = q.poll();
        }
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
     * delivered before the end of stream. (How: the queue's closed flag is a bit of its producer
     * index, so an offer's claim of a slot and its check of the flag are one compare-and-set; after
     * the close, {@link #poll()} knows how many slots were claimed and waits for an accepted item
     * still being written, so a consumer that sees {@link #isClosed()} and then an empty
     * {@code poll()} has seen every accepted item.)
     */
    public void close() {
        link.close();
    }

    /**
     * True once {@link #close()} was called (items may remain to be read: once it returns true, a
     * {@link #poll()} that returns null means end of stream, also on an MPSC channel whose producers
     * raced the close).
     *
     * @return whether the channel was closed
     */
    public boolean isClosed() {
        return link.isClosed();
    }

    /**
     * True when the channel is closed and every item has been read.
     *
     * @return whether the channel reached its end of stream
     */
    public boolean isEos() {
        return isClosed() && link.isEmpty();
    }

    /**
     * The number of items in the channel (approximate while threads use it).
     *
     * @return the number of items
     */
    public int size() {
        return link.size();
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
