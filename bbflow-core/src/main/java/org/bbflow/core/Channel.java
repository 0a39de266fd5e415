package org.bbflow.core;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

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
     * MPSC only (else null): offers begun, counted by each MPSC offer before its check for
     * {@link #close()}; with {@link #offersRefused} and the queue's producer index, the account that
     * lets a consumer tell that no accepted offer is still on its way (see {@link #isClosed()}).
     *
     * <p>Why an account at all: one producer can close an MPSC channel while another's offer, past its
     * closed check, has not yet put its item in; a consumer that then saw the channel closed and
     * empty ended its stream, and the accepted item was never delivered (MpscCloseRaceTest).
     *
     * <p>Why this one (one atomic update per offer besides the queue's own CAS, where the first fix
     * counted each offer in and out: two): every offer begun is, once it ends, exactly one of refused
     * (closed or full: the slow paths count it in {@code offersRefused}) or accepted, and an accepted
     * offer is exactly one claim of a queue slot, which the queue counts in its producer index. So
     * "refused + claimed == begun" means no offer is between its count and its claim. A slot claimed
     * but not yet written is not a lost item: the queue's strict poll waits for it (see
     * {@link #poll()}). Other designs weighed, in docs/benchmarks.md ("A many-producer
     * {@code Channel}'s offer"): an end-of-stream marker item needs the same account for the offers
     * that land behind it; the closed flag folded into the producer index needs a queue of our own.
     */
    private final AtomicLong offersBegun;
    /** MPSC only (else null): begun offers that were refused, closed or full (slow paths only). */
    private final AtomicLong offersRefused;
    /** Test hook: run by an MPSC offer between its closed check and its claim of a slot (null in production). */
    static volatile Runnable offerHook;
    private final WaitCondition roomCondition = () -> link.hasRoom();
    private final WaitCondition readyCondition = () -> link.hasItem() || link.isClosed();

    private Channel(Kind kind, int capacity) {
        this.kind = kind;
        this.requestedCapacity = capacity;
        this.offersBegun = kind == Kind.MPSC ? new AtomicLong() : null;
        this.offersRefused = kind == Kind.MPSC ? new AtomicLong() : null;
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
        if (offersBegun != null) {
            // the account restarts with the new queue's producer index (the old queue was drained)
            offersBegun.set(0);
            offersRefused.set(0);
        }
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
        AtomicLong begun = offersBegun;
        if (begun == null) {
            if (l.isClosed()) {
                throw new IllegalStateException("offer on a closed channel");
            }
            if (!l.offerRaw(item)) {
                return false;
            }
        } else {
            // MPSC: counted before the closed check; ends refused (counted) or as one slot claimed
            // (counted by the queue's producer index). Nothing in between may throw: isClosed()
            // would wait for this offer forever.
            begun.getAndIncrement();
            if (l.isClosed()) {
                offersRefused.getAndIncrement();
                throw new IllegalStateException("offer on a closed channel");
            }
            Runnable hook = offerHook;
            if (hook != null) {
                hook.run();
            }
            if (!l.offerRaw(item)) {
                offersRefused.getAndIncrement();
                return false;
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
        if (x == null && offersBegun != null && l.isClosed()) {
            // MPSC, closed: a slot may be claimed by an accepted offer and its item not yet written,
            // which the relaxed poll reports as empty; the strict poll waits for the item. Before
            // the close a poll stays wait-free (a later poll will get the item).
            x = l.pollClaimed();
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
     * delivered before the end of stream.
     */
    public void close() {
        link.close();
    }

    /**
     * True once {@link #close()} was called (items may remain to be read). On an MPSC channel it
     * returns true only once every offer that began before the close has its place in the channel (or
     * was refused), so that a consumer that sees the channel closed and then finds it empty with
     * {@link #poll()} has seen every item an offer accepted; it waits for those offers, which take no
     * longer than an offer.
     *
     * @return whether the channel was closed
     */
    public boolean isClosed() {
        Link l = link;
        if (!l.isClosed()) {
            return false;
        }
        AtomicLong begun = offersBegun;
        if (begun != null) {
            // Every offer counts itself begun before it reads the closed flag, and ends as one refusal
            // or one claimed slot. Read in this order (all volatile: one synchronization order):
            // refused, then begun, then claimed. Each refusal read had begun before, so it is among
            // the begun read; an offer that begins after the begun read reads the flag after this
            // thread read it true, so it is refused and claims nothing: every claim read belongs to
            // an offer among the begun read. Refusal and claim are exclusive, so refused + claimed
            // <= begun, and equality means no offer among them is still between its count and its
            // claim, and no later one can claim: all accepted items hold a slot below the producer
            // index read, and poll() waits for any of those not yet written.
            for (int spins = 0; ; spins++) {
                long refused = offersRefused.get();
                long started = begun.get();
                if (refused + l.claimedSlots() == started) {
                    break;
                }
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
