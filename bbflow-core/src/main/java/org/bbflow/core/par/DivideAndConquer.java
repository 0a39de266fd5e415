package org.bbflow.core.par;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.bbflow.core.Node;

/**
 * Divide and conquer from four functions (FastFlow's {@code ff_DC}): {@code divide} splits a
 * problem into subproblems, {@code combine} merges their results, {@code base} solves a problem the
 * {@code isBase} condition picks as small enough. Immutable and reusable; {@link #solve} runs it on a
 * {@link ParallelFor} pool, {@link #asNode(int)} makes it a node that solves each item of a stream.
 *
 * <pre>{@code
 * DivideAndConquer<Integer, Long> fib = DivideAndConquer.<Integer, Long>of(
 *         n -> List.of(n - 1, n - 2),           // divide
 *         rs -> rs.get(0) + rs.get(1),           // combine
 *         n -> (long) n,                         // base case
 *         n -> n < 2)                            // condition for the base case
 *     .cutoff(n -> n < 20);                      // below it: sequential recursion, no tasks
 * long f = fib.solve(pool, 40);
 * }</pre>
 *
 * <p><b>How it runs.</b> Every worker of the pool (the calling thread is worker 0) takes part.
 * A problem above the cutoff is divided; all its subproblems but the last become tasks on the
 * dividing worker's own deque and the worker goes on with the last one (as FastFlow's workers recur
 * on the last suboperand); an idle worker steals the oldest task of another (the largest), an idle
 * owner takes back its newest. The worker that delivers a node's last subresult combines that node,
 * so no worker ever blocks waiting for subresults. A problem the cutoff (or the base condition)
 * picks is solved by sequential recursion on one worker, with no task made: set the cutoff where a
 * subtree costs well over a task's hand-off (a few microseconds), as with a
 * {@code ForkJoinPool}'s sequential threshold.
 *
 * <p><b>Why not a farm with feedback.</b> FastFlow runs {@code ff_DC} on a farm whose emitter
 * schedules every task and receives every result. On the JVM that puts two hand-offs through one
 * thread per task, and that thread needs a core of its own; on few cores it competes with the
 * workers. Work stealing among the pool's workers, the caller included, needs no extra thread and
 * moves only the tasks that an idle worker actually needs (docs/parallel.md has the reasoning and
 * the figures against {@code ForkJoinPool}).
 *
 * <p><b>Failures.</b> The first exception thrown by a function stops the run: no worker starts
 * another task, and {@link #solve} throws a {@link DivideAndConquerException} naming the problem.
 * Interrupting the calling thread cancels the run between tasks
 * ({@link java.util.concurrent.CancellationException}); once the run has stopped, no worker calls
 * {@code divide} again (a deep branch is not divided on to its base case). Called from inside a body of the same pool,
 * {@code solve} runs sequentially on the calling worker (see {@link ParallelFor}).
 *
 * @param <P> the problem type
 * @param <R> the result type
 */
public final class DivideAndConquer<P, R> {
    private final Function<? super P, ? extends List<? extends P>> divide;
    private final Function<? super List<R>, ? extends R> combine;
    private final Function<? super P, ? extends R> base;
    private final Predicate<? super P> isBase;
    private final Predicate<? super P> cutoff;

    private DivideAndConquer(Function<? super P, ? extends List<? extends P>> divide,
            Function<? super List<R>, ? extends R> combine, Function<? super P, ? extends R> base,
            Predicate<? super P> isBase, Predicate<? super P> cutoff) {
        this.divide = divide;
        this.combine = combine;
        this.base = base;
        this.isBase = isBase;
        this.cutoff = cutoff;
    }

    /**
     * Divide and conquer from FastFlow's four functions, with no cutoff: every problem the condition
     * does not pick is divided into tasks.
     *
     * @param <P> the problem type
     * @param <R> the result type
     * @param divide splits a problem into its subproblems (at least one)
     * @param combine merges the subproblems' results, given in the order divide returned them
     * @param base solves a base-case problem
     * @param isBase the condition: true for a problem to solve with {@code base}
     * @return the divide and conquer
     */
    public static <P, R> DivideAndConquer<P, R> of(Function<? super P, ? extends List<? extends P>> divide,
            Function<? super List<R>, ? extends R> combine, Function<? super P, ? extends R> base,
            Predicate<? super P> isBase) {
        return new DivideAndConquer<>(Objects.requireNonNull(divide, "divide"), Objects.requireNonNull(combine, "combine"),
                Objects.requireNonNull(base, "base"), Objects.requireNonNull(isBase, "isBase"), p -> false);
    }

    /**
     * A copy that solves every problem {@code sequential} picks by sequential recursion on one
     * worker (divide, base and combine, without tasks).
     *
     * @param sequential true for a problem too small to be worth tasks
     * @return the new divide and conquer
     */
    public DivideAndConquer<P, R> cutoff(Predicate<? super P> sequential) {
        return new DivideAndConquer<>(divide, combine, base, isBase, Objects.requireNonNull(sequential, "sequential"));
    }

    /**
     * Solves a problem on the pool's workers (FastFlow's {@code ff_DC::run_and_wait_end}).
     *
     * @param pool the pool to run on
     * @param problem the problem
     * @return its result
     * @throws DivideAndConquerException if one of the functions threw
     * @throws IllegalStateException if the pool is closed
     */
    public R solve(ParallelFor pool, P problem) {
        Objects.requireNonNull(pool, "pool");
        DcJob<P, R> job = new DcJob<>(this, problem, pool.share());
        pool.execute(job);
        return job.result();
    }

    /**
     * Solves a problem on the calling thread alone, by plain recursion: the sequential oracle.
     *
     * @param problem the problem
     * @return its result
     */
    public R solveSequentially(P problem) {
        if (isBase.test(problem)) {
            return base.apply(problem);
        }
        List<? extends P> subs = divided(problem);
        Object[] results = new Object[subs.size()];
        for (int i = 0; i < results.length; i++) {
            results[i] = solveSequentially(subs.get(i));
        }
        return combined(results);
    }

    /**
     * A node that solves each item on a pool of its own (FastFlow's {@code ff_DC} as a stage), made
     * and closed with the node as a {@link MapNode}'s.
     *
     * @param parallelism the pool's workers, the node's thread included; in [1,
     *        {@link org.bbflow.core.Parallelism#MAX}]
     * @return the node
     * @throws IllegalArgumentException if parallelism is out of range
     */
    public Node<P, R> asNode(int parallelism) {
        return MapNode.of(parallelism, ParallelFor.defaultWaitStrategy(), (P p, ParallelFor pool) -> solve(pool, p));
    }

    boolean sequential(P problem) {
        return isBase.test(problem) || cutoff.test(problem);
    }

    List<? extends P> divided(P problem) {
        List<? extends P> subs = divide.apply(problem);
        if (subs == null || subs.isEmpty()) {
            throw new IllegalStateException("divide returned no subproblem for " + problem
                    + " (a problem that cannot be divided is a base case: make isBase true for it)");
        }
        return subs;
    }

    @SuppressWarnings("unchecked")
    R combined(Object[] results) {
        return combine.apply((List<R>) Collections.unmodifiableList(Arrays.asList(results)));
    }
}
