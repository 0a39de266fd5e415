package org.bbflow.core;

import org.jctools.queues.MpmcArrayQueue;

/**
 * Batches that outlive their flow: when both ends of a recycling edge ({@link BatchReturns}) have
 * closed, the batches left on its way back come here, and the next flow's batch stages take them
 * before they make new ones. A flow that starts often then starts on the last one's batches instead
 * of allocating a channel's worth, which on a fresh heap is mostly page faults (measured: see
 * docs/core.md, "Unboxed longs and doubles", and bench-results/pool/).
 *
 * <p>Only batches given back after their last read ever come here, so no batch a node of the user's
 * keeps, no broadcast batch and none still in a channel of a cancelled flow: {@link BatchReturns}
 * holds nothing else, and it is emptied here only when neither of its ends can use it any more.
 *
 * <p>Off unless asked for: the system property {@value #PROPERTY} gives the number of batches kept
 * per kind, from 0 (the default: no pool) to 65,536, rounded up to a power of two; 1,024 is about
 * what one flow of longs has in circulation. It is read by the first flow that recycles batches
 * (and kept once it is valid); any other value stops the start of that flow, and of every later one
 * that recycles, with an {@link IllegalArgumentException} naming the property. Why off:
 * once the heap is warm a pooled batch is slower to fill than a new one (most likely its cache
 * lines, last read on another core, against a new one zeroed in the filling core's cache), so in a
 * JVM that has run hundreds of flows a million-value flow runs about a quarter slower with it,
 * while in a process that starts flows on a fresh heap it saves page faults, collections and about
 * 40 % of its resident memory (measured: bench-results/pool/).
 *
 * <p>Held for the life of the JVM, so bounded: at most {@link #capacity()} batches of each kind, each
 * of at most {@link #MAX_VALUES} values (8 KiB); 2 MiB per kind at the default batch size and a
 * capacity of 1,024. A full pool drops what does not fit (the GC takes it). Lock-free: JCTools'
 * {@code MpmcArrayQueue}, whose offer (a release) follows the last use of a batch in its old flow
 * and whose poll (an acquire) precedes the first write in the new one.
 */
final class BatchPool {
    /** The system property giving the number of batches kept per kind. */
    static final String PROPERTY = "bbflow.batchPool";
    /** The number of batches kept per kind unless {@value #PROPERTY} says otherwise: none. */
    static final int DEFAULT_CAPACITY = 0;
    /** The largest batch kept, in values: 4 default batches, so that an odd batch size pins little memory. */
    static final int MAX_VALUES = 4 * LongBatch.DEFAULT_CAPACITY;
    private static final int MOST = 1 << 16;

    /**
     * The pool every flow uses, made by {@link #shared()} from the property; null until then. Not
     * final so that tests can watch a pool of their own; not made in a static initializer, where a bad
     * property would fail the class for good (an {@code ExceptionInInitializerError} with no message,
     * then a {@code NoClassDefFoundError} on every later start).
     */
    static volatile BatchPool shared;

    /**
     * The pool every flow uses, made on first use from the property.
     *
     * @throws IllegalArgumentException if the property is not a number of batches from 0 to 65,536
     */
    static BatchPool shared() {
        BatchPool p = shared;
        if (p == null) {
            synchronized (BatchPool.class) {
                p = shared;
                if (p == null) {
                    shared = p = new BatchPool(capacityFrom(System.getProperty(PROPERTY)));
                }
            }
        }
        return p;
    }

    private final MpmcArrayQueue<LongBatch> longs;
    private final MpmcArrayQueue<DoubleBatch> doubles;

    /** @param capacity the most batches kept per kind, rounded up to a power of two; 0 keeps none */
    BatchPool(int capacity) {
        this.longs = capacity == 0 ? null : new MpmcArrayQueue<>(Math.max(2, capacity));
        this.doubles = capacity == 0 ? null : new MpmcArrayQueue<>(Math.max(2, capacity));
    }

    /**
     * The capacity a value of {@value #PROPERTY} asks for.
     *
     * @throws IllegalArgumentException for anything but a whole number from 0 to 65,536
     */
    static int capacityFrom(String property) {
        if (property == null) {
            return DEFAULT_CAPACITY;
        }
        try {
            int n = Integer.parseInt(property.trim());
            if (n >= 0 && n <= MOST) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + PROPERTY
                + " is the number of batches kept per kind, from 0 (none) to " + MOST + "; got '" + property + "'");
    }

    /** The most batches kept per kind (what was asked for, rounded up to a power of two). */
    int capacity() {
        return longs == null ? 0 : longs.capacity();
    }

    /** A kept batch of longs with room for at least {@code n} values, or null. */
    LongBatch takeLongs(int n) {
        if (longs == null) {
            return null;
        }
        LongBatch b = longs.poll();
        // a batch too small for this stage is dropped: batches of the usual size will replace it
        return b != null && b.values.length >= n ? b : null;
    }

    /** As {@link #takeLongs}, for doubles. */
    DoubleBatch takeDoubles(int n) {
        if (doubles == null) {
            return null;
        }
        DoubleBatch b = doubles.poll();
        return b != null && b.values.length >= n ? b : null;
    }

    /**
     * Keeps the batches left on a way back whose two ends have closed; what is not a batch, is too
     * big, or does not fit is dropped.
     */
    void keep(BatchReturns returns) {
        if (longs == null) {
            return;
        }
        for (Object b; (b = returns.poll()) != null; ) {
            // too big: dropped; full: the rest goes with the way back
            if (b instanceof LongBatch) {
                LongBatch l = (LongBatch) b;
                if (l.values.length <= MAX_VALUES && !longs.offer(l)) {
                    return;
                }
            } else if (b instanceof DoubleBatch) {
                DoubleBatch d = (DoubleBatch) b;
                if (d.values.length <= MAX_VALUES && !doubles.offer(d)) {
                    return;
                }
            }
        }
    }

    /** How many batches of longs are kept now. */
    int longs() {
        return longs == null ? 0 : longs.size();
    }

    /** How many batches of doubles are kept now. */
    int doubles() {
        return doubles == null ? 0 : doubles.size();
    }
}
