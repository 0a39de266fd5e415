package org.bbflow.core.par;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@link DivideAndConquer#solve} on a pool: work stealing among the participants. Each has a
 * deque of tasks; it pushes and pops at the tail, thieves take from the head. A task's result goes
 * to its parent node; the participant that delivers a node's last result combines it and goes on up.
 */
final class DcJob<P, R> extends PoolJob {
    /** A problem, its place in its parent, and once divided, its children's results. */
    static final class Task<P> {
        final P problem;
        final Task<P> parent;
        final int slot;
        Object[] results;
        AtomicInteger remaining;

        Task(P problem, Task<P> parent, int slot) {
            this.problem = problem;
            this.parent = parent;
            this.slot = slot;
        }
    }

    private final DivideAndConquer<P, R> dc;
    private final int workers;
    private final ConcurrentLinkedDeque<Task<P>>[] deques;
    private final Task<P> root;
    private volatile boolean done;
    private R result;
    private Throwable failure;
    private Object failedProblem;

    @SuppressWarnings("unchecked")
    DcJob(DivideAndConquer<P, R> dc, P problem, int parallelism) {
        this.dc = dc;
        boolean sequential;
        try {
            sequential = dc.sequential(problem);
        } catch (Throwable t) { // the user's condition or cutoff, on the root: the run fails as for any problem
            fail(problem, t);
            sequential = true;
        }
        // a problem solved sequentially needs one worker
        this.workers = sequential ? 1 : parallelism;
        this.deques = new ConcurrentLinkedDeque[workers];
        for (int i = 0; i < workers; i++) {
            deques[i] = new ConcurrentLinkedDeque<>();
        }
        this.root = new Task<>(problem, null, 0);
    }

    @Override
    int workers() {
        return workers;
    }

    @Override
    void participate(int slot, int worker) {
        ConcurrentLinkedDeque<Task<P>> own = deques[slot];
        if (slot == 0 && !stop) {
            run(root, own);
        }
        int idle = 0;
        while (!done && !halted()) {
            Task<P> t = own.pollLast();
            if (t == null) {
                t = steal(slot);
            }
            if (t != null) {
                run(t, own);
                idle = 0;
            } else if (++idle < 64) {
                Thread.onSpinWait();
            } else if (idle < 512) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(20_000L);
            }
        }
    }

    private Task<P> steal(int slot) {
        for (int i = 1; i < workers; i++) {
            Task<P> t = deques[(slot + i) % workers].pollFirst();
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** Runs a task: divides down its last branch, leaving the other branches as tasks, then solves. */
    private void run(Task<P> task, ConcurrentLinkedDeque<Task<P>> own) {
        P problem = task.problem;
        try {
            while (!dc.sequential(problem)) {
                // the descent is as much new work as a task: a stopped run (a failure elsewhere, the
                // caller's interrupt) divides no further, or a deep branch would be divided to its base
                if (halted()) {
                    return;
                }
                List<? extends P> subs = dc.divided(problem);
                int k = subs.size();
                task.results = new Object[k];
                task.remaining = new AtomicInteger(k);
                for (int i = 0; i < k - 1; i++) {
                    own.addLast(new Task<>(subs.get(i), task, i));
                }
                task = new Task<>(subs.get(k - 1), task, k - 1);
                problem = task.problem;
            }
            complete(task, dc.solveSequentially(problem));
        } catch (Throwable t) {
            fail(problem, t);
        }
    }

    /** Delivers a result to the task's parent, combining every node whose last result this is. */
    private void complete(Task<P> task, Object r) {
        while (true) {
            Task<P> parent = task.parent;
            if (parent == null) {
                @SuppressWarnings("unchecked")
                R root = (R) r;
                result = root;
                done = true;
                return;
            }
            parent.results[task.slot] = r;
            if (parent.remaining.decrementAndGet() != 0) {
                return;
            }
            Object[] all = parent.results;
            parent.results = null;
            task = parent;
            try {
                r = dc.combined(all);
            } catch (Throwable t) {
                fail(parent.problem, t);
                return;
            }
        }
    }

    private void fail(Object problem, Throwable t) {
        if (cancelledByCaller(t)) {
            return;
        }
        synchronized (this) {
            if (failure == null) {
                failure = t;
                failedProblem = problem;
            } else if (failure != t) {
                failure.addSuppressed(t);
            }
        }
        stop = true;
    }

    R result() {
        return result;
    }

    @Override
    RuntimeException outcome() {
        synchronized (this) {
            if (failure != null) {
                return new DivideAndConquerException(failedProblem, failure);
            }
        }
        if (abandoned && !cancelled && !done) {
            return abandonedOutcome();
        }
        if (cancelled || !done) {
            return new CancellationException("divide and conquer cancelled: the calling thread was interrupted");
        }
        return null;
    }
}
