package org.bbflow.core;

import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;

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

    final Kind kind;
    final MessagePassingQueue<Object> queue;
    /** The same queue when it is a bounded SPSC one: calls through this field are monomorphic. */
    private final SpscArrayQueue<Object> spsc;
    final int capacity;
    /** Capacity 1: offers check the bound themselves. */
    private final boolean oneSlot;
    private volatile boolean closed;
    /** Producers that have not closed yet (MPSC channels shared by several producer nodes). */
    private final AtomicInteger openProducers = new AtomicInteger(1);

    /** The waiter of each thread that calls {@link #put} on an MPSC channel (a thread parks in one place at a time). */
    private static final ThreadLocal<Waiter> THREAD_WAITER = ThreadLocal.withInitial(Waiter::new);

    // Wiring done before any thread starts; read-only afterwards.
    Waiter consumerWaiter = new Waiter();
    /** The producer's waiter of an SPSC channel. */
    Waiter producerWaiter = new Waiter();
    /** The producers' waiters of an MPSC channel (one each), else null. */
    final WaiterGroup producers;
    boolean producerMustFence;
    boolean consumerMustFence;
    /** Whether the consumer (producer) may be parked in its waiter; if not, no wake-up is attempted. */
    boolean consumerWakeable = true;
    boolean producerWakeable = true;
    /** In-flight counter of the feedback loop this channel belongs to, or null. */
    AtomicLong inFlight;
    private WaitStrategy waitStrategy = WaitStrategy.backoff();
    /** Waiting state of the (single) consumer and SPSC producer of put/take, made on first wait. */
    private Idler consumerIdler;
    private Idler producerIdler;
    private final WaitCondition roomCondition = this::hasRoom;
    private final WaitCondition readyCondition = this::hasItemOrEos;

    private Channel(Kind kind, int capacity) {
        this.kind = kind;
        this.producers = kind == Kind.MPSC ? new WaiterGroup() : null;
        // One slot (FastFlow's one-slot queues): the JCTools queues hold at least 2, so a
        // two-slot queue is used with a bound check on offer (see offerOneSlot). The fast SPSC
        // path (the spsc field) is left to channels of 2 and more, so they pay nothing for it.
        this.oneSlot = capacity == 1;
        switch (kind) {
            case SPSC:
                SpscArrayQueue<Object> q = new SpscArrayQueue<>(oneSlot ? 2 : capacity);
                this.spsc = oneSlot ? null : q;
                this.queue = q;
                this.capacity = oneSlot ? 1 : queue.capacity();
                break;
            case MPSC:
                this.spsc = null;
                this.queue = new MpscArrayQueue<>(oneSlot ? 2 : capacity);
                this.capacity = oneSlot ? 1 : queue.capacity();
                break;
            default:
                this.spsc = null;
                this.queue = new SpscUnboundedArrayQueue<>(UNBOUNDED_CHUNK);
                this.capacity = Integer.MAX_VALUE;
        }
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

    static <T> Channel<T> create(ChannelSpec spec) {
        switch (spec.kind()) {
            case SPSC: return spsc(spec.capacity());
            case MPSC: return mpsc(spec.capacity());
            default: return spscUnbounded();
        }
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
     */
    public Channel<T> waitStrategy(WaitStrategy strategy) {
        this.waitStrategy = Objects.requireNonNull(strategy, "strategy");
        this.consumerIdler = null;
        this.producerIdler = null;
        boolean fence = strategy.peerMustFence();
        this.producerMustFence = fence;
        this.consumerMustFence = fence;
        this.consumerWakeable = strategy.wakeable();
        this.producerWakeable = strategy.wakeable();
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
        if (closed) {
            throw new IllegalStateException("offer on a closed channel");
        }
        if (!offerRaw(item)) {
            return false;
        }
        wakeConsumer();
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
        if (producers != null) {
            putShared(item);
            return;
        }
        // one producer on an SPSC channel: its waiting state is cached
        Idler idler = producerIdler();
        try {
            while (!offer(item)) {
                checkInterrupt();
                idler.idle(producerWaiter, roomCondition);
            }
        } finally {
            idler.reset();
        }
    }

    /** An MPSC producer waits in its own thread's waiter, announced to the consumer (see {@link WaiterGroup}). */
    private void putShared(T item) {
        Waiter self = THREAD_WAITER.get();
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
        }
    }

    /**
     * Removes the head item, or returns null if the channel is empty (or at EOS).
     *
     * @return the head item, or null
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        Object x = pollRaw();
        if (x != null) {
            wakeProducer();
        }
        return (T) x;
    }

    /**
     * Removes the head item, waiting with the wait strategy while the channel is empty.
     *
     * @return the item, or null when the channel is closed and drained (EOS)
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
                if (closed) {
                    return poll();
                }
                checkInterrupt();
                idler.idle(consumerWaiter, readyCondition);
            }
        } finally {
            idler.reset();
        }
    }

    /**
     * Marks end of stream: no more items will be offered. Items already in the channel are still
     * delivered. Idempotent. On a channel shared by several producer nodes of a flow, EOS is reached
     * when every producer has closed.
     */
    public void close() {
        if (openProducers.decrementAndGet() <= 0 && !closed) {
            closed = true;
            VarHandle.fullFence();
            consumerWaiter.wakeIfParked();
        }
    }

    /**
     * True once {@link #close()} was called (items may remain to be read).
     *
     * @return whether the channel was closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * True when the channel is closed and every item has been read.
     *
     * @return whether the channel reached its end of stream
     */
    public boolean isEos() {
        return closed && queue.isEmpty();
    }

    /**
     * The number of items in the channel (approximate while threads use it).
     *
     * @return the number of items
     */
    public int size() {
        return queue.size();
    }

    /**
     * The capacity, or {@link Integer#MAX_VALUE} for an unbounded channel.
     *
     * @return the capacity
     */
    public int capacity() {
        return capacity;
    }

    @Override
    public String toString() {
        return "Channel[" + kind + (capacity == Integer.MAX_VALUE ? "" : ", capacity=" + capacity)
                + ", size=" + size() + (closed ? ", closed" : "") + "]";
    }

    // ---- runtime side (package-private) --------------------------------------------------------

    /** Offer without checks or wake-up: the runtime's hot path. */
    boolean offerRaw(Object item) {
        SpscArrayQueue<Object> q = spsc;
        if (q != null) {
            return q.relaxedOffer(item);
        }
        return oneSlot ? offerOneSlot(item) : queue.relaxedOffer(item);
    }

    /**
     * Offer into a one-slot channel: only into an empty queue. With one producer, an empty queue
     * stays empty until that producer offers (the consumer only removes), so check-then-offer is
     * exact; producers of an MPSC channel race, so there the queue's own threshold offer (a CAS on
     * the producer index after the size check) keeps the bound.
     */
    @SuppressWarnings("unchecked")
    private boolean offerOneSlot(Object item) {
        if (kind == Kind.MPSC) {
            return ((MpscArrayQueue<Object>) queue).offerIfBelowThreshold(item, 1);
        }
        return queue.isEmpty() && queue.relaxedOffer(item);
    }

    /** Poll without wake-up: the runtime's hot path. */
    Object pollRaw() {
        SpscArrayQueue<Object> q = spsc;
        return q != null ? q.relaxedPoll() : queue.relaxedPoll();
    }

    void expectProducers(int producers) {
        openProducers.set(producers);
    }

    boolean hasRoom() {
        return queue.size() < capacity;
    }

    private boolean hasItemOrEos() {
        return hasItem() || closed;
    }

    /**
     * Whether the consumer can poll an item now (consumer thread only). It reads the head slot, as
     * a poll does, and not the queue's indices: the producer writes its index on every offer, so a
     * consumer waiting on {@code isEmpty()} would pull that cache line away from the producer on
     * every check and slow down the very producer it waits for.
     */
    boolean hasItem() {
        SpscArrayQueue<Object> q = spsc;
        return (q != null ? q.relaxedPeek() : queue.relaxedPeek()) != null;
    }

    void wakeConsumer() {
        if (!consumerWakeable) {
            return;
        }
        if (producerMustFence) {
            VarHandle.fullFence();
        }
        consumerWaiter.wakeIfParked();
    }

    void wakeProducer() {
        if (!producerWakeable) {
            return;
        }
        if (consumerMustFence) {
            VarHandle.fullFence();
        }
        WaiterGroup g = producers;
        if (g == null) {
            producerWaiter.wakeIfParked();
        } else {
            g.wakeWaiting();
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
