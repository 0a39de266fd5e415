package org.bbflow.core.par;

/**
 * The pools whose jobs a thread is working in, innermost last: S(T) of the wait-for graph (see
 * {@link WaitForGraph}). A pool is pushed when the thread takes its turn (a non-nested call) and popped
 * when that call ends; a nested call of a pool already here pushes nothing (it takes no turn and runs
 * inside the job the thread is already in). A pool thread is, besides, always in a job of its own pool
 * whenever it runs user code (it runs user code only inside its share of one of that pool's jobs):
 * that pool is its {@link #base}, below everything pushed.
 *
 * <p>Read and written by its own thread only: no lock, no volatile. Pool threads keep theirs in a
 * field; every other thread in a thread-local, looked up once per non-nested call (nothing per
 * iteration, and nothing at all for a nested call).
 */
final class PoolStack {
    private static final ThreadLocal<PoolStack> CALLERS = ThreadLocal.withInitial(() -> new PoolStack(null));

    /** The pool whose pool thread owns this stack, or null for any other thread. */
    private final ParallelFor base;
    private ParallelFor[] pools = new ParallelFor[4];
    private int depth;

    PoolStack(ParallelFor base) {
        this.base = base;
    }

    /** The stack of the given thread, which must be the calling thread. */
    static PoolStack of(Thread me) {
        return me instanceof PoolThread ? ((PoolThread) me).stack : CALLERS.get();
    }

    /**
     * The innermost pool whose job the thread is working in, or null if it is in none: a pool
     * thread's own pool, or a pool it took the turn of from inside it.
     */
    ParallelFor innermost() {
        return depth > 0 ? pools[depth - 1] : base;
    }

    /** Whether the thread is working in a job of the pool. */
    boolean contains(ParallelFor pool) {
        if (pool == base) {
            return true;
        }
        for (int i = 0; i < depth; i++) {
            if (pools[i] == pool) {
                return true;
            }
        }
        return false;
    }

    void push(ParallelFor pool) {
        if (depth == pools.length) {
            pools = java.util.Arrays.copyOf(pools, depth * 2);
        }
        pools[depth++] = pool;
    }

    void pop() {
        pools[--depth] = null; // let a closed pool be collected
    }
}
