package org.bbflow.core;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * The runtime side of a channel, kept apart from the public {@link Channel} (as Netty keeps a
 * channel's {@code Unsafe} apart): the queue (JCTools', or for a public MPSC channel BBFlow's
 * {@link ClosableMpscQueue}), the end-of-stream state, and the wiring fixed
 * when it is made: the waiters of its consumer and producer(s), whether either side must fence
 * before it looks for the other parked (the peer's wait strategy), and the in-flight count of the
 * feedback loop it belongs to. A flow makes one per {@link LinkPlan} from its plan; a public channel
 * has one of its own. Offers and polls take no lock and allocate nothing.
 */
final class Link {
    final Channel.Kind kind;
    /**
     * The JCTools queue; null on the link of a public MPSC channel, whose queue is {@link #mpsc} (the
     * runtime's hot paths, {@link #offerRaw} and {@link #pollRaw}, serve the flows' own edges only).
     */
    final MessagePassingQueue<Object> queue;
    /**
     * The queue of a public MPSC {@link Channel}, closed to offers with the channel (see
     * {@link #close()}); null for every other link, the flows' own MPSC edges included: they close
     * once every producer node has ended, so no offer can race their close.
     */
    final ClosableMpscQueue<Object> mpsc;
    /** The same queue when it is a bounded SPSC one: calls through this field are monomorphic. */
    private final SpscArrayQueue<Object> spsc;
    final int capacity;
    /** Capacity 1: offers check the bound themselves. */
    private final boolean oneSlot;
    private volatile boolean closed;
    /** Closed by a producer whose flow failed or was cancelled: the stream is incomplete. */
    private volatile boolean aborted;
    /** Producers that have not closed yet (MPSC channels shared by several producer nodes). */
    private final AtomicInteger openProducers;

    final Waiter consumerWaiter;
    /** The producer's waiter of an SPSC channel (unused by an MPSC one). */
    final Waiter producerWaiter;
    /** The producers' waiters of an MPSC channel (one each), else null. */
    final WaiterGroup producers;
    final boolean producerMustFence;
    final boolean consumerMustFence;
    /** Whether the consumer (a producer) may be parked in its waiter; if not, no wake-up is attempted. */
    final boolean consumerWakeable;
    final boolean producerWakeable;
    /** In-flight counter of the feedback loop this channel belongs to, or null. */
    final AtomicLong inFlight;

    /**
     * @param producerCount the producers that each close it once (1 unless several nodes share an MPSC channel)
     * @param consumer the consumer's waiting: its strategy (what a producer must do to wake it) and waiter
     * @param producerWaiter the waiter of the one producer of an SPSC channel (null for MPSC)
     * @param producerWaiters the producers' waiters known in advance (MPSC), may be empty
     * @param consumerMustFence whether the consumer must fence before waking producers (some producer's strategy asks it)
     * @param producerWakeable whether some producer may park
     * @param mpsc the closable queue of a public MPSC channel (kind MPSC; capacity is then its), else null
     */
    Link(Channel.Kind kind, int capacity, int producerCount, WaitStrategy consumer, Waiter consumerWaiter,
         Waiter producerWaiter, Waiter[] producerWaiters, boolean consumerMustFence, boolean producerWakeable,
         AtomicLong inFlight, ClosableMpscQueue<Object> mpsc) {
        this.kind = kind;
        this.mpsc = mpsc;
        // One slot (FastFlow's one-slot queues): the JCTools queues hold at least 2, so a
        // two-slot queue is used with a bound check on offer (see offerOneSlot). The fast SPSC
        // path (the spsc field) is left to channels of 2 and more, so they pay nothing for it.
        this.oneSlot = capacity == 1;
        switch (kind) {
            case SPSC: {
                SpscArrayQueue<Object> q = new SpscArrayQueue<>(oneSlot ? 2 : capacity);
                this.spsc = oneSlot ? null : q;
                this.queue = q;
                this.capacity = oneSlot ? 1 : q.capacity();
                break;
            }
            case MPSC:
                this.spsc = null;
                if (mpsc != null) {
                    this.queue = null; // one slot too: the closable queue holds 1
                    this.capacity = mpsc.capacity();
                } else {
                    this.queue = new MpscArrayQueue<>(oneSlot ? 2 : capacity);
                    this.capacity = oneSlot ? 1 : queue.capacity();
                }
                break;
            default:
                this.spsc = null;
                this.queue = new SpscUnboundedArrayQueue<>(Channel.UNBOUNDED_CHUNK);
                this.capacity = Integer.MAX_VALUE;
        }
        this.openProducers = new AtomicInteger(producerCount);
        this.consumerWaiter = consumerWaiter;
        this.producerWaiter = producerWaiter;
        if (kind == Channel.Kind.MPSC) {
            this.producers = new WaiterGroup();
            for (Waiter w : producerWaiters) {
                producers.add(w);
            }
        } else {
            this.producers = null;
        }
        this.producerMustFence = consumer.peerMustFence();
        this.consumerMustFence = consumerMustFence;
        this.consumerWakeable = consumer.wakeable();
        this.producerWakeable = producerWakeable;
        this.inFlight = inFlight;
    }

    /** The queue when it is a bounded SPSC one of 2 or more slots (the fast path's), else null. */
    SpscArrayQueue<Object> spscQueue() {
        return spsc;
    }

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
        if (kind == Channel.Kind.MPSC) {
            return ((MpscArrayQueue<Object>) queue).offerIfBelowThreshold(item, 1);
        }
        return queue.isEmpty() && queue.relaxedOffer(item);
    }

    /** Poll without wake-up: the runtime's hot path. */
    Object pollRaw() {
        SpscArrayQueue<Object> q = spsc;
        return q != null ? q.relaxedPoll() : queue.relaxedPoll();
    }

    boolean hasRoom() {
        return size() < capacity;
    }

    /** The items in the queue (approximate while threads use it). */
    int size() {
        ClosableMpscQueue<Object> q = mpsc;
        return q != null ? q.size() : queue.size();
    }

    /** Whether the queue holds no item (a public MPSC channel's slot claimed but not yet written counts as one). */
    boolean isEmpty() {
        ClosableMpscQueue<Object> q = mpsc;
        return q != null ? q.isEmpty() : queue.isEmpty();
    }

    /**
     * Whether the consumer can poll an item now (consumer thread only). It reads the head slot, as
     * a poll does, and not the queue's indices: the producer writes its index on every offer, so a
     * consumer waiting on {@code isEmpty()} would pull that cache line away from the producer on
     * every check and slow down the very producer it waits for.
     */
    boolean hasItem() {
        return peekRaw() != null;
    }

    /** The head item, not removed, or null (consumer thread only; see {@link #hasItem()}). */
    Object peekRaw() {
        SpscArrayQueue<Object> q = spsc;
        if (q != null) {
            return q.relaxedPeek();
        }
        ClosableMpscQueue<Object> m = mpsc;
        return m != null ? m.relaxedPeek() : queue.relaxedPeek();
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether a producer ended it because its flow failed or was cancelled. */
    boolean isAborted() {
        return aborted;
    }

    /**
     * One producer has ended: once every producer has, end of stream (items already in it are still
     * delivered). Idempotent for a channel of one producer.
     */
    void close() {
        if (openProducers.decrementAndGet() <= 0 && !closed) {
            closeQueue();
            closed = true;
            VarHandle.fullFence();
            consumerWaiter.wakeIfParked();
        }
    }

    /**
     * A public MPSC channel's queue is closed to offers before {@link #closed} is set: a consumer that
     * reads {@code closed} true then sees the flag in the producer index, and with it the final count
     * of slots claimed, which its strict poll waits for ({@link Channel#poll()}).
     */
    private void closeQueue() {
        ClosableMpscQueue<Object> q = mpsc;
        if (q != null) {
            q.close();
        }
    }

    /** Sets how many producers must close before end of stream (before use). */
    void expectProducers(int producers) {
        openProducers.set(producers);
    }

    /** Ends the stream at once as incomplete: the producer's flow failed or was cancelled. */
    void abort() {
        aborted = true;
        openProducers.set(0);
        closeQueue();
        closed = true;
        VarHandle.fullFence();
        consumerWaiter.wakeIfParked();
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

    /**
     * The waiter of this SPSC channel's one producer when that producer may park, else null (an MPSC
     * channel's producers are woken through {@link #wakeProducer}).
     */
    Waiter singleProducerWake() {
        return producers == null && producerWakeable ? producerWaiter : null;
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
}
