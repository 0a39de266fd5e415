package org.bbflow.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded many-producer single-consumer array queue that can be closed to offers: the queue under
 * a public {@link Channel#mpsc(int) MPSC Channel}. Written for BBFlow after the layout of JCTools'
 * {@code MpscArrayQueue} (padded indices, a cached producer limit, ordered stores of the elements),
 * with one addition: the producer index carries the closed flag.
 *
 * <p>Why: with a closed flag apart from the queue, an offer that has passed its check of the flag
 * can still claim a slot after another producer's close, and a consumer that then sees the channel
 * closed and empty ends its stream before that accepted item (MpscCloseRaceTest). Keeping an account
 * of offers under way costs an atomic update per offer besides the queue's CAS (BBFlow's design
 * before this queue, docs/benchmarks.md). Here the flag is bit {@link #CLOSED} of the producer
 * index, so the claim of a slot and the check of the flag are one CAS:
 * <ul>
 *   <li>an offer is one CAS of the producer index from {@code p} to {@code p + 1}, attempted only if
 *       {@code p} has no flag: once the close's CAS has set it, every later claim fails, and a claim
 *       that succeeded came before the close in the index's order;</li>
 *   <li>a closed index is at least 2^62, above every producer limit, so the offer's fast path needs
 *       no test of its own for the flag: the "looks full" test sends it to the slow path, which
 *       refuses it;</li>
 *   <li>after the close, the index without the flag is exactly the number of slots ever claimed, so
 *       the consumer's {@link #poll() strict poll} knows whether a slot still to come was claimed:
 *       it waits for the item of a slot claimed but not yet written (the claiming offer writes it
 *       right after its CAS) and returns null only when no slot is left, which is the true end.</li>
 * </ul>
 * 2^62 offers at one per nanosecond take 146 years, so the count never reaches the flag.
 *
 * <p>Capacity: a power of two, the requested one rounded up; 1 stays 1 (FastFlow's one-slot queues;
 * the mask is then 0 and every index maps to the one slot).
 *
 * <p>Memory order (VarHandles, no Unsafe): a producer writes its element with a release store after
 * its CAS; the consumer reads the slot with an acquire load, clears it with a plain store and
 * publishes its index with a release store, so a producer that sees the new consumer index (directly
 * or through the producer limit another producer published with a release store) writes the slot
 * after it was cleared.
 *
 * <p>Not final for one reason: tests subclass it to widen the window between an offer's claim and
 * its write ({@link #claimed(long)}). In production no subclass is loaded, so the JIT inlines that
 * call to nothing.
 *
 * @param <E> the element type
 */
class ClosableMpscQueue<E> extends ClosableMpscQueuePad4 {
    /** The closed flag, a bit of the producer index. */
    static final long CLOSED = 1L << 62;

    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle PRODUCER_LIMIT;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(ClosableMpscQueueProducerIndex.class, "producerIndex", long.class);
            PRODUCER_LIMIT = lookup.findVarHandle(ClosableMpscQueueProducerLimit.class, "producerLimit", long.class);
            CONSUMER_INDEX = lookup.findVarHandle(ClosableMpscQueueConsumerIndex.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins of the strict poll before it yields to a claiming producer that may have been descheduled. */
    private static final int SPINS_BEFORE_YIELD = 64;

    /**
     * @param capacity the least capacity, 1 to 2^30
     */
    ClosableMpscQueue(int capacity) {
        super(capacity);
    }

    /** The capacity: a power of two (1 included). */
    final int capacity() {
        return mask + 1;
    }

    private int slot(long index) {
        return ((int) index & mask) + ARRAY_PAD;
    }

    /**
     * Adds an element if there is room and the queue is not closed (any thread).
     *
     * @param e the element, not null (unchecked)
     * @return false if the queue is full or closed ({@link #isClosed()} tells which)
     */
    final boolean offer(E e) {
        long limit = (long) PRODUCER_LIMIT.getAcquire(this);
        long p;
        do {
            p = (long) PRODUCER_INDEX.getVolatile(this);
            if (p >= limit) {
                // Full by the cached limit, or closed (a closed index is above every limit).
                if ((p & CLOSED) != 0) {
                    return false;
                }
                limit = (long) CONSUMER_INDEX.getAcquire(this) + mask + 1;
                if (p >= limit) {
                    return false;
                }
                PRODUCER_LIMIT.setRelease(this, limit);
            }
            // One CAS claims slot p and checks the flag: it fails if a close (or a claim) came first.
        } while (!PRODUCER_INDEX.compareAndSet(this, p, p + 1));
        claimed(p);
        SLOT.setRelease(buffer, slot(p), e);
        return true;
    }

    /**
     * Test seam, between an offer's claim of slot {@code index} and its write of the element: empty,
     * overridden only by test subclasses.
     */
    void claimed(long index) {
    }

    /**
     * Closes the queue to offers: every offer whose claim did not come before this one is refused.
     * Idempotent (any thread).
     *
     * @return true if this call closed it, false if it was closed already
     */
    final boolean close() {
        long p;
        do {
            p = (long) PRODUCER_INDEX.getVolatile(this);
            if ((p & CLOSED) != 0) {
                return false;
            }
        } while (!PRODUCER_INDEX.compareAndSet(this, p, p | CLOSED));
        return true;
    }

    /** Whether {@link #close()} was called (any thread; reads the producers' line). */
    final boolean isClosed() {
        return ((long) PRODUCER_INDEX.getVolatile(this) & CLOSED) != 0;
    }

    /** The slots ever claimed by accepted offers (any thread). */
    final long claimedSlots() {
        return (long) PRODUCER_INDEX.getVolatile(this) & ~CLOSED;
    }

    /**
     * Removes the head element, or returns null if its slot holds none yet (consumer thread only).
     * Wait-free: a slot claimed by an offer but not yet written reads as empty.
     */
    @SuppressWarnings("unchecked")
    final E relaxedPoll() {
        long c = (long) CONSUMER_INDEX.get(this);
        Object[] b = buffer;
        int i = slot(c);
        Object e = SLOT.getAcquire(b, i);
        if (e == null) {
            return null;
        }
        SLOT.set(b, i, null);
        CONSUMER_INDEX.setRelease(this, c + 1);
        return (E) e;
    }

    /**
     * Removes the head element, or returns null if no slot is claimed beyond the consumer's (consumer
     * thread only). If the head slot is claimed but its element not yet written, waits for it: spins,
     * then yields (the claiming producer writes it right after its CAS, unless descheduled). After
     * {@link #close()} (seen by this thread), null therefore means no accepted offer is left.
     */
    @SuppressWarnings("unchecked")
    final E poll() {
        long c = (long) CONSUMER_INDEX.get(this);
        Object[] b = buffer;
        int i = slot(c);
        Object e = SLOT.getAcquire(b, i);
        if (e == null) {
            if (c == ((long) PRODUCER_INDEX.getVolatile(this) & ~CLOSED)) {
                return null;
            }
            for (int spins = 0; (e = SLOT.getAcquire(b, i)) == null; spins++) {
                if (spins < SPINS_BEFORE_YIELD) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }
        SLOT.set(b, i, null);
        CONSUMER_INDEX.setRelease(this, c + 1);
        return (E) e;
    }

    /** The head element, not removed, or null if its slot holds none yet (consumer thread only). */
    @SuppressWarnings("unchecked")
    final E relaxedPeek() {
        return (E) SLOT.getAcquire(buffer, slot((long) CONSUMER_INDEX.get(this)));
    }

    /**
     * The number of slots claimed and not yet consumed (any thread; exact when no other thread acts):
     * the items in the queue, counting those claimed and still being written.
     */
    final int size() {
        long after = (long) CONSUMER_INDEX.getVolatile(this);
        while (true) {
            long before = after;
            long p = (long) PRODUCER_INDEX.getVolatile(this) & ~CLOSED;
            after = (long) CONSUMER_INDEX.getVolatile(this);
            if (before == after) {
                return (int) Math.min(p - after, mask + 1L);
            }
        }
    }

    /** Whether no slot is claimed beyond the consumer's (any thread; a claimed, unwritten slot counts). */
    final boolean isEmpty() {
        long c = (long) CONSUMER_INDEX.getVolatile(this);
        return c == ((long) PRODUCER_INDEX.getVolatile(this) & ~CLOSED);
    }
}
