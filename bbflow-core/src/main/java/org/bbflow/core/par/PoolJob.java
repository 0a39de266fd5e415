package org.bbflow.core.par;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One call on a {@link ParallelFor} pool: the work every participant runs, and the accounting of
 * who is still running it. The calling thread is participant 0; pool threads 1..{@link #workers()}-1
 * join it. A job is made per call and published once; pool threads tell jobs apart by
 * {@link #generation}.
 */
abstract class PoolJob {
    /** Unique per pool; set by the pool before the job is published. */
    long generation;
    /** The thread that published the job and runs participant 0. */
    Thread caller;
    /**
     * Which slots (participants' shares) have been taken, by their pool thread or by the caller:
     * set before the job is published. A pool thread runs its slot only if it takes it; once the
     * caller is done with its own slot it takes every slot no pool thread has taken yet and runs it
     * itself, so a pool thread that is slow to wake never holds the call up, and never touches the
     * job afterwards.
     */
    AtomicIntegerArray slots;
    /** Slots 1..workers-1 not finished yet. */
    final AtomicInteger pending = new AtomicInteger();
    /** Raised by the caller before it parks waiting for {@link #pending}; read by the last to arrive. */
    volatile boolean callerWaiting;
    /** Raised on the first failure or on cancellation: participants take no more work. */
    volatile boolean stop;
    /** The calling thread was interrupted while the job ran. */
    volatile boolean cancelled;
    /**
     * For a call nested in a body of the same pool: the pool's running job, whose stop stops this one
     * too (checked where this job checks its own); null otherwise. Without it a nested call on a pool
     * thread ran to its end after the enclosing call failed or was cancelled, and the enclosing call,
     * which waits for every worker, waited for it.
     */
    PoolJob enclosing;
    /** The name of the pool that runs the enclosing job, for {@link NestedCallStopped}'s message. */
    String enclosingPool;
    /** This nested job stopped because {@link #enclosing} did. */
    volatile boolean abandoned;

    /**
     * The number of participants (the caller included), at least 1.
     *
     * @return how many participants run this job
     */
    abstract int workers();

    /**
     * Runs this participant's share. Never throws for a failure of the user's code: it records it.
     *
     * @param slot the participant's place in the schedule, in [0, workers())
     * @param worker the index the user's code is told (the thread's index in its pool)
     */
    abstract void participate(int slot, int worker);

    /** The exception the call ends with, or null if the job succeeded. */
    abstract RuntimeException outcome();

    /** A nested job stopped by its enclosing job: what it throws (no failure of its own). */
    final RuntimeException abandonedOutcome() {
        return new NestedCallStopped(enclosingPool);
    }

    /**
     * Takes a slot for the calling thread.
     *
     * @return true if the slot was free: the calling thread must now run it and {@link #arrive()}
     */
    final boolean take(int slot) {
        return slots.get(slot) == 0 && slots.compareAndSet(slot, 0, 1);
    }

    /** A slot is done; the last one wakes the caller if it parked. */
    final void arrive() {
        if (pending.decrementAndGet() == 0 && callerWaiting) {
            LockSupport.unpark(caller);
        }
    }

    /**
     * Whether {@code t}, thrown by the user's code on the calling thread while that thread is
     * interrupted, is the cancellation of a call nested in it (a loop or a solve of the same pool,
     * which runs on the calling thread and stops at its interrupt): then this job is cancelled by the
     * same interrupt, not failed, and the call throws a {@link java.util.concurrent.CancellationException}
     * as the documentation promises, rather than a failure caused by the nested call's cancellation.
     *
     * @return true if the job is now cancelled and {@code t} is no failure
     */
    final boolean cancelledByCaller(Throwable t) {
        if (t instanceof NestedCallStopped) {
            // a nested call stopped because this job (or the one enclosing it) stopped: no failure
            stop = true;
            return true;
        }
        Thread me = Thread.currentThread();
        if (t instanceof java.util.concurrent.CancellationException && me == caller && me.isInterrupted()) {
            cancelled = true;
            stop = true;
            return true;
        }
        return false;
    }

    /**
     * Whether participants should stop taking work: a failure, the caller (which checks its own
     * interrupt status here) was interrupted, or, for a nested call, the enclosing job stopped.
     */
    final boolean halted() {
        if (stop) {
            return true;
        }
        PoolJob e = enclosing;
        if (e != null && e.stop) {
            abandoned = true;
            stop = true;
            return true;
        }
        Thread me = Thread.currentThread();
        if (me == caller && me.isInterrupted()) {
            cancelled = true;
            stop = true;
            return true;
        }
        return false;
    }
}
