package org.bbflow.core.par;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which pools wait for which, so that the call that would close a cycle is refused instead of
 * waiting for ever (two threads whose loop bodies each call the other's pool; or one thread whose
 * body calls pool B, whose pool thread's body calls back the pool A the first thread is running).
 *
 * <p><b>The graph.</b> Its nodes are pools; an edge {@code P -> X} says that P's running job cannot
 * end until a job of X has run: some thread T working in P's job (its caller, which holds P's turn,
 * or one of P's pool threads running a share; {@code P} is the innermost pool of T's
 * {@link PoolStack}) made a non-nested call on X and is waiting for X's turn or running that call.
 * A job of P ends only once every thread working in it has returned, and T returns only once its call
 * on X has got X's turn, that is once X's running job has ended, and has run. An edge is added when T
 * decides to call X (before it tries the turn) and removed when the call ends, before T gives X's turn
 * back: so at every moment an edge is a real dependency of P's running job (see "stale edges").
 * A call adds one edge only, from the innermost pool of T's stack: the pools lower in the stack reach
 * P by the edges that T's own enclosing calls added (each took its turn from inside the pool below
 * it), so every pool of T's stack waits for X, as it should.
 *
 * <p><b>Why a cycle is a deadlock.</b> If X reaches, by edges, a pool of T's stack, then X's running
 * job waits (through the pools on the path) for the job T works in, which waits for T, which waits for
 * X's running job to end: none of them can end. Nothing else releases a turn: a turn is given back
 * only when its job ends.
 *
 * <p><b>Which call is refused.</b> The one that adds the last edge of the cycle, and only if it must
 * wait for the turn: it is refused at once, its edge is not kept, and the graph stays acyclic.
 * A call that gets the turn at once cannot close a cycle: the edges out of X belong to threads
 * working in X's running job, and the job T is about to publish has none yet (the previous job's
 * threads removed theirs before returning from it, hence before it ended). So the check runs only on
 * the slow path, when {@code tryLock} failed. Every edge is added and checked under one global lock,
 * so of two calls closing a cycle from both ends, the second sees the first's edge: a cycle cannot
 * form unseen. With many threads pushing into the same cycle (every worker of pool A calling pool B
 * while every worker of B calls A), the first edge's direction wins: every later call that would
 * close the cycle is refused while that edge lasts, and that edge lasts until the refused side's job
 * has ended; so one side's calls are refused, the other's complete.
 *
 * <p><b>Stale edges.</b> An edge removed late would be a false refusal: a call on X ended, the job of
 * P goes on, and a thread of X's next job asking for P would see {@code P -> X -> P}. So an edge is
 * removed before the turn of X is given back (the caller holds X's turn while it takes this lock,
 * and nobody waits for a turn while holding this lock: the lock orders after every turn and cannot
 * deadlock). An edge added before the turn is tried is already true: T is committed to wait.
 *
 * <p><b>What is not in the graph.</b> A thread in no pool's job (a top-level caller) adds no edge
 * and never takes this lock: no job waits for it, so its waiting cannot close a cycle; the common
 * call pays only its {@link PoolStack}'s look-up. A nested call of a pool the thread is already
 * working in takes no turn and adds nothing. A body waiting for anything but a pool's turn (a lock, a
 * latch, a queue, a flow, another thread's result) is invisible: such cycles still hang.
 *
 * <p>Every method must be called with {@link #LOCK} held.
 */
final class WaitForGraph {
    /** Guards every pool's {@link ParallelFor#waitsFor}. Never held while waiting for a turn. */
    static final Object LOCK = new Object();

    private WaitForGraph() {
    }

    /** Adds the edge from -> to (one per call: a multigraph). */
    static void add(ParallelFor from, ParallelFor to) {
        from.waitsFor.add(to);
    }

    /** Removes one edge from -> to. */
    static void remove(ParallelFor from, ParallelFor to) {
        from.waitsFor.remove(to);
    }

    /**
     * The shortest path of edges from {@code to} to a pool the calling thread is working in, as the
     * pools along it ({@code to} first), or null if there is none: then waiting for {@code to}'s turn
     * closes no cycle.
     */
    static List<ParallelFor> cycle(ParallelFor to, PoolStack mine) {
        if (to.waitsFor.isEmpty()) {
            return null;
        }
        Map<ParallelFor, ParallelFor> reachedFrom = new IdentityHashMap<>();
        ArrayDeque<ParallelFor> queue = new ArrayDeque<>();
        reachedFrom.put(to, to);
        queue.add(to);
        while (!queue.isEmpty()) {
            ParallelFor p = queue.poll();
            if (mine.contains(p)) {
                ArrayList<ParallelFor> path = new ArrayList<>();
                for (ParallelFor q = p; q != to; q = reachedFrom.get(q)) {
                    path.add(0, q);
                }
                path.add(0, to);
                return path;
            }
            for (ParallelFor q : p.waitsFor) {
                if (!reachedFrom.containsKey(q)) {
                    reachedFrom.put(q, p);
                    queue.add(q);
                }
            }
        }
        return null;
    }

    /**
     * The refusal's message: "parallel loop on pool 'b' refused: it would wait for pool 'b', whose
     * loop waits for pool 'a', whose loop this thread is running ...".
     */
    static String refusal(String call, List<ParallelFor> path) {
        StringBuilder s = new StringBuilder(call).append(" on pool '").append(path.get(0).name())
                .append("' refused: it would wait for pool '").append(path.get(0).name()).append('\'');
        for (int i = 1; i < path.size(); i++) {
            s.append(", whose loop waits for pool '").append(path.get(i).name()).append('\'');
        }
        return s.append(", whose loop this thread is running: a cycle of pools waiting for each other"
                + " (a deadlock); call the pools in one order, or give each thread a pool of its own").toString();
    }
}
