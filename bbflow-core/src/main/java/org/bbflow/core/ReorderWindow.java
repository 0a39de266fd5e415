package org.bbflow.core;

import java.lang.invoke.VarHandle;

/**
 * The reorder memory of an ordered farm whose emitter does not dispatch in strict turn (on demand,
 * or any farm given a window): the emitter records which worker got each item, in input order, in
 * this bounded single-producer single-consumer ring; the collector reads the ring and takes the
 * next unit (the results of one input item) from exactly that worker. A worker's results arrive in
 * the order it received its items, so this restores input order without tagging items.
 *
 * <p>The window bounds the items dispatched and not yet collected: the emitter waits for a free
 * slot before it dispatches, and the collector frees the slot once it has delivered the unit. The
 * results waiting to be put back in order sit in the worker-to-collector channels, so at most
 * {@code window} units wait at any time, and no more than those channels hold. Any window of 1 or
 * more is free of deadlock: the unit the collector waits for was dispatched before it was recorded,
 * and every earlier unit of that worker has already been collected.
 *
 * <p>The emitter's thread writes {@link #tail}, the collector's {@link #head}: no lock, no
 * allocation per item.
 */
final class ReorderWindow {
    private final int[] workers;
    private final int capacity;
    /** Next slot the collector reads; written by the collector only. */
    private volatile long head;
    /** Next slot the emitter writes; written by the emitter only. */
    private volatile long tail;
    private volatile boolean closed;
    /** The emitter's and the collector's waiters. */
    private final Waiter emitterWaiter;
    private final Waiter collectorWaiter;
    /** The emitter's own copy of head seen last, to avoid a volatile read per item while there is room. */
    private long headSeen;

    ReorderWindow(int capacity, Waiter emitterWaiter, Waiter collectorWaiter) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an ordered farm's reorder window must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.workers = new int[capacity];
        this.emitterWaiter = emitterWaiter;
        this.collectorWaiter = collectorWaiter;
    }

    int capacity() {
        return capacity;
    }

    // ---- emitter side ---------------------------------------------------------------------------

    /** Whether the emitter may dispatch one more item. */
    boolean hasRoom() {
        if (tail - headSeen < capacity) {
            return true;
        }
        headSeen = head;
        return tail - headSeen < capacity;
    }

    /** Records that the next item in input order went to worker {@code w}; call only with room. */
    void record(int w) {
        long t = tail;
        workers[(int) (t % capacity)] = w;
        tail = t + 1;
        VarHandle.fullFence(); // the collector's re-check after publishing itself as parked must see it
        collectorWaiter.wakeIfParked();
    }

    /** The emitter has ended: no more records. */
    void close() {
        closed = true;
        VarHandle.fullFence();
        collectorWaiter.wakeIfParked();
    }

    // ---- collector side -------------------------------------------------------------------------

    /** Whether the collector can read a record or learn the end. */
    boolean readable() {
        return head != tail || closed;
    }

    /**
     * The worker holding the next unit in input order, or -1 once the emitter closed the window and
     * every record was read. Call only when {@link #readable()}.
     */
    int next() {
        long h = head;
        if (h != tail) {
            return workers[(int) (h % capacity)];
        }
        // closed: a record written before close is visible once closed is (volatile order)
        return h != tail ? workers[(int) (h % capacity)] : -1;
    }

    /** The unit of the record returned by {@link #next()} was delivered: frees its slot. */
    void release() {
        head = head + 1;
        VarHandle.fullFence();
        emitterWaiter.wakeIfParked();
    }
}
