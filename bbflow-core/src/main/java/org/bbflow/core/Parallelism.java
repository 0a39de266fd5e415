package org.bbflow.core;

/**
 * The one bound on every worker count and parallelism the library takes (FastFlow's
 * {@code MAX_NUM_THREADS}), checked where the count is given: {@link Farm} (workers, however they
 * are added), {@link AllToAll} (each side), {@link org.bbflow.core.par.ParallelFor},
 * {@link org.bbflow.core.par.MapNode}, {@link org.bbflow.core.par.DivideAndConquer#asNode},
 * {@link org.bbflow.core.par.Accelerator}, {@link org.bbflow.core.sched.DependencyScheduler} and
 * {@link org.bbflow.core.io.NBufJob}. A count above it is a mistake (a size or an id passed where
 * a count was meant), and taking it started platform threads until the JVM failed with "unable to
 * create native thread", or made workers until the heap ran out.
 *
 * <p>Why {@value #MAX}: FastFlow caps a program at 256 threads by default, a compile-time setting.
 * Here each worker is a platform thread of its own (a stack of 1 MiB reserved by default, a kernel
 * task), and a block's count does not depend on the machine it runs on, so the bound must suit the
 * largest one and still refuse nonsense: 4,096 is 8 threads for each of 512 hardware threads (more
 * than any single JVM host offers today) and 2,048 for each core of a laptop's two, while a Linux
 * process usually may start tens of thousands of threads (threads-max, the user's process limit),
 * so a count within the bound fails for lack of threads only where the system is set far below its
 * defaults. Blocks nest (a farm of pipelines, a farm in an all-to-all), so a flow may have more
 * threads than this; the bound is per count, as FastFlow's is per program.
 */
public final class Parallelism {
    /** The largest worker count or parallelism any block accepts. */
    public static final int MAX = 4096;

    private Parallelism() {
    }

    /**
     * Checks a worker count or parallelism given to a block.
     *
     * @param argument the argument's name, as the message shows it (e.g. {@code "workers"})
     * @param count the count given
     * @return {@code count}
     * @throws IllegalArgumentException naming the argument and the bound, if count is not in
     *         {@code [1, MAX]}
     */
    public static int check(String argument, int count) {
        if (count < 1 || count > MAX) {
            throw new IllegalArgumentException(argument + " must be in [1, " + MAX + "] (Parallelism.MAX; each is a"
                    + " thread of its own), got " + count);
        }
        return count;
    }
}
