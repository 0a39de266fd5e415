package org.bbflow.core.par;

import org.agrona.concurrent.IdleStrategy;

/**
 * One of a {@link ParallelFor} pool's threads: waits for the next job (spinning, then as the pool's
 * wait strategy says), runs its share, reports it done, waits again; ends when the pool closes.
 */
final class PoolThread extends Thread {
    final ParallelFor pool;
    /** This thread's worker index, 1..parallelism-1 (the calling thread is 0). */
    final int index;
    /**
     * Raised while this thread waits for a job; the publisher of a job unparks a thread that has it
     * raised. This flag and the pool's job are both volatile, so a publisher that misses the flag
     * published before this thread looked at the job (no lost wake-up).
     */
    volatile boolean waiting;
    /** The pools this thread works in: its own pool, then those it took the turn of (see WaitForGraph). */
    final PoolStack stack;

    PoolThread(ParallelFor pool, int index, String name) {
        super(name);
        this.pool = pool;
        this.index = index;
        this.stack = new PoolStack(pool);
        setDaemon(true);
    }

    @Override
    public void run() {
        IdleStrategy idle = pool.waitStrategy().newIdleStrategy();
        long seen = 0;
        while (true) {
            PoolJob job = pool.current;
            if (job != null && job.generation != seen) {
                seen = job.generation;
                if (index < job.workers() && job.take(index)) {
                    try {
                        job.participate(index, index);
                    } finally {
                        job.arrive();
                    }
                }
                continue;
            }
            if (pool.closed) {
                return;
            }
            waiting = true;
            while (!pool.closed && ((job = pool.current) == null || job.generation == seen)) {
                if (Thread.interrupted()) {
                    continue; // nothing interrupts a pool thread's wait but close(); a park would not hold
                }
                idle.idle();
            }
            waiting = false;
            idle.reset();
        }
    }
}
