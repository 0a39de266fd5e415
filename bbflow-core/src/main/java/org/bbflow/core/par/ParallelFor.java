package org.bbflow.core.par;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntConsumer;
import java.util.function.LongBinaryOperator;
import java.util.function.LongConsumer;
import org.agrona.concurrent.IdleStrategy;
import org.bbflow.core.Parallelism;
import org.bbflow.core.WaitStrategy;

/**
 * A pool of workers that runs parallel loops and reductions, kept between calls (FastFlow's
 * {@code ParallelFor} and {@code ParallelForReduce}).
 *
 * <pre>{@code
 * try (ParallelFor pf = ParallelFor.create(4)) {
 *     pf.parallelFor(0, n, i -> a[(int) i] = f(i));                              // static blocks
 *     pf.parallelFor(0, n, 1, Schedule.dynamic(64), i -> a[(int) i] = g(i));    // dynamic chunks
 *     long sum = pf.parallelReduceLong(0, n, 1, Schedule.staticBlocks(), 0L,
 *             (acc, i) -> acc + a[(int) i], Long::sum);
 * }
 * }</pre>
 *
 * <p><b>Workers.</b> A pool of parallelism p runs each loop on p workers: the calling thread (worker 0)
 * and p-1 threads the pool started (workers 1..p-1), platform daemon threads named
 * {@code <name>/worker-<i>}. Between loops they wait as the pool's {@link WaitStrategy} says
 * (FastFlow's {@code spinWait}): {@link #defaultWaitStrategy()} spins for tens of microseconds, then
 * parks, and a new loop unparks them at once; {@link WaitStrategy#busySpin()} keeps them spinning
 * (FastFlow's {@code spinWait = true}: the lowest latency for loops called back to back, one core per
 * worker burnt meanwhile); {@link WaitStrategy#blocking()} parks at once. The calling thread waits for
 * the others the same way. {@link #close()} stops the threads; no thread is left after it returns.
 *
 * <p><b>Loops.</b> {@code parallelFor(first, last, step, schedule, body)} runs {@code body} for
 * {@code first, first + step, ...} up to {@code last}, excluded (a negative step counts down to
 * {@code last}, excluded): FastFlow's {@code for (i = first; i < last; i += step)}. Ranges may reach
 * either end of the long range; a range of more than {@code Long.MAX_VALUE} iterations is refused.
 * The {@link Schedule} says static blocks (the default), static chunks or dynamic chunks of a grain,
 * on all workers or fewer. A call returns when every iteration has run; what the iterations wrote is
 * then visible to the caller.
 *
 * <p><b>Reductions.</b> Each worker folds its iterations into its own accumulator, starting from the
 * identity; the caller then combines the workers' partial results in worker order. The combine must
 * be associative; it must also be commutative unless the schedule is {@link Schedule#staticBlocks()}
 * (whose blocks are contiguous and in worker order), and the identity must be one for it. Long and
 * double reductions never box. An overflowing long sum gives the sequential loop's result (two's
 * complement addition is associative and commutative); a double sum may differ from it in the last
 * bits, as any reordering of floating-point additions does.
 *
 * <p><b>Failures and cancellation.</b> The first exception thrown by a body stops the loop: no worker
 * starts another chunk (a worker in a long static block stops within {@value LoopJob#CHECK_EVERY}
 * iterations), the call waits for the chunks already running, then throws a
 * {@link ParallelForException} naming the failing index and its chunk. Interrupting the calling
 * thread cancels the loop the same way, and the call throws a
 * {@link java.util.concurrent.CancellationException} (the interrupt status stays set), also when the
 * caller's share was inside a nested call of this pool, which the interrupt stops too. A failure or
 * a cancellation also stops the nested calls of this pool that other workers' bodies are running
 * (within {@value LoopJob#CHECK_EVERY} iterations, or between two tasks of a solve): such a call
 * throws a {@link java.util.concurrent.CancellationException} out of its body, which the outer call
 * counts as no failure of its own. The pool remains usable after either.
 *
 * <p><b>Nesting and threads.</b> A loop called from inside a body of the same pool (from any of its
 * workers) runs sequentially on the calling worker, with that worker's index: nesting never
 * deadlocks and never oversubscribes. Loops called from several threads at once on one pool take
 * turns: one runs, the others wait until it ends (the pool runs one loop at a time; a caller
 * interrupted while it waits for its turn gets a {@link java.util.concurrent.CancellationException}).
 *
 * <p><b>Pools calling each other.</b> A body may call another pool; that call takes the other pool's
 * turn as any caller does, so the pools could wait for each other in a cycle: two threads whose loop
 * bodies each call the other's pool (as two locks taken in opposite orders), three pools in a ring,
 * or one thread whose body on pool a calls pool b, whose pool thread's body calls a. Pools record
 * which pool's loop waits for which (only for calls made from inside another pool's body, and only
 * while they last), and the call that would close a cycle is refused at once, instead of waiting
 * for ever, with an {@link IllegalStateException} that names the pools of the cycle ("parallel loop
 * on pool 'b' refused: it would wait for pool 'b', whose loop waits for pool 'a', whose loop this
 * thread is running ..."); {@link #close()} from a body is refused the same way. Thrown out of a
 * body, it fails the enclosing call ({@link ParallelForException} with the refusal as its cause),
 * which ends and gives its turn back: the other calls of the cycle then go on and complete, and every
 * pool stays usable. Calls that only contend (pools called in one order) wait their turn and are
 * never refused. What cannot be seen is a body waiting for anything else than a pool's turn: a lock,
 * a latch, a queue, a flow or an accelerator, another thread's result. So a body must still not wait
 * that way for a thread that is itself waiting for the body's pool (directly, or through a chain of
 * pool calls): that hangs as before.
 */
public final class ParallelFor implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();
    /** The pool's default waiting: see {@link #defaultWaitStrategy()}. */
    private static final WaitStrategy DEFAULT_WAIT = WaitStrategy.backoff(4096, 64, Duration.ofNanos(1000),
            Duration.ofMillis(1));

    private final String name;
    private final int parallelism;
    private final WaitStrategy waitStrategy;
    /** The pool's threads; index 0 is unused (worker 0 is the calling thread). */
    private final PoolThread[] threads;
    /** One loop at a time: held by the calling thread for the whole call. */
    private final ReentrantLock turn = new ReentrantLock();
    /** The caller's waiting state, used under {@link #turn} only. */
    private final IdleStrategy callerIdle;
    private long generation;

    /**
     * This pool's edges in the {@link WaitForGraph}: the pools that calls made from inside its running
     * job wait for or run (one entry per call). Guarded by {@link WaitForGraph#LOCK}.
     */
    final ArrayList<ParallelFor> waitsFor = new ArrayList<>();

    /** The job the pool's threads run, or null between jobs. */
    volatile PoolJob current;
    volatile boolean closed;

    private ParallelFor(String name, int parallelism, WaitStrategy waitStrategy) {
        this.name = name;
        this.parallelism = parallelism;
        this.waitStrategy = waitStrategy;
        this.callerIdle = waitStrategy.newIdleStrategy();
        this.threads = new PoolThread[parallelism];
        int started = 0;
        try {
            for (int i = 1; i < parallelism; i++) {
                threads[i] = new PoolThread(this, i, name + "/worker-" + i);
                threads[i].start();
                started = i;
            }
        } catch (RuntimeException | Error e) {
            closed = true;
            for (int i = 1; i <= started; i++) {
                LockSupport.unpark(threads[i]);
            }
            throw e;
        }
    }

    /**
     * How a pool made without a strategy waits: a backoff that spins 4,096 times
     * ({@link Thread#onSpinWait()}: tens of microseconds), yields 64 times, then parks from 1 µs
     * doubling to 1 ms, and is unparked at once by the next loop. The spinning covers the gap
     * between loops called back to back (and a worker's wait for a slower one), so such loops find
     * their workers awake; a pool left idle parks within a fraction of a millisecond. The flows'
     * {@link WaitStrategy#backoff()} spins 64 times only: measured on 2 cores, its workers parked
     * between fine-grained loops and each call paid for waking them.
     *
     * @return the default wait strategy of a pool
     */
    public static WaitStrategy defaultWaitStrategy() {
        return DEFAULT_WAIT;
    }

    /**
     * A pool with one worker per available processor, waiting with {@link #defaultWaitStrategy()}.
     *
     * @return the pool
     */
    public static ParallelFor create() {
        return create(Math.min(Runtime.getRuntime().availableProcessors(), Parallelism.MAX));
    }

    /**
     * A pool of {@code parallelism} workers (the calling thread and parallelism-1 threads), waiting
     * with {@link #defaultWaitStrategy()}.
     *
     * @param parallelism the number of workers, at least 1
     * @return the pool
     * @throws IllegalArgumentException if parallelism is not in [1, {@link Parallelism#MAX}]
     */
    public static ParallelFor create(int parallelism) {
        return create(parallelism, DEFAULT_WAIT);
    }

    /**
     * A pool of {@code parallelism} workers whose threads wait between loops (and whose calling thread
     * waits for them) with the given strategy.
     *
     * @param parallelism the number of workers, at least 1
     * @param waitStrategy how workers wait between loops: FastFlow's {@code spinWait}
     * @return the pool
     * @throws IllegalArgumentException if parallelism is not in [1, {@link Parallelism#MAX}]
     */
    public static ParallelFor create(int parallelism, WaitStrategy waitStrategy) {
        return create("parallel-for-" + POOLS.incrementAndGet(), parallelism, waitStrategy);
    }

    /**
     * A named pool: its threads are {@code <name>/worker-1} and so on.
     *
     * @param name the pool's name, used in its threads' names
     * @param parallelism the number of workers, at least 1
     * @param waitStrategy how workers wait between loops
     * @return the pool
     * @throws IllegalArgumentException if parallelism is not in [1, {@link Parallelism#MAX}]
     */
    public static ParallelFor create(String name, int parallelism, WaitStrategy waitStrategy) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(waitStrategy, "waitStrategy");
        Parallelism.check("parallelism", parallelism);
        return new ParallelFor(name, parallelism, waitStrategy);
    }

    /**
     * The number of workers, the calling thread included.
     *
     * @return the pool's parallelism
     */
    public int parallelism() {
        return parallelism;
    }

    /**
     * The pool's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    // ---- loops -------------------------------------------------------------------------------

    /**
     * Runs {@code body} for every index of {@code first..last-1} in static blocks on every worker
     * (FastFlow's {@code parallel_for(first, last, f)}).
     *
     * @param first the first index
     * @param last the index after the last one
     * @param body the loop body
     * @throws ParallelForException if the body threw
     */
    public void parallelFor(long first, long last, LongConsumer body) {
        parallelFor(first, last, 1, Schedule.staticBlocks(), body);
    }

    /**
     * Runs {@code body} for {@code first, first + step, ...} up to {@code last}, excluded (FastFlow's
     * {@code parallel_for(first, last, step, grain, f, nw)} and {@code parallel_for_static}).
     *
     * @param first the first index
     * @param last the bound, excluded: the loop runs while {@code i < last} (step &gt; 0) or
     *        {@code i > last} (step &lt; 0)
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param body the loop body
     * @throws IllegalArgumentException if step is 0 or the range has more than Long.MAX_VALUE iterations
     * @throws ParallelForException if the body threw
     */
    public void parallelFor(long first, long last, long step, Schedule schedule, LongConsumer body) {
        Objects.requireNonNull(body, "body");
        execute(new LongLoop(first, last, step, check(schedule), share(), body));
    }

    /**
     * Runs {@code body} for every int index of {@code first..last-1} in static blocks on every worker.
     *
     * @param first the first index
     * @param last the index after the last one
     * @param body the loop body
     * @throws ParallelForException if the body threw
     */
    public void parallelForInt(int first, int last, IntConsumer body) {
        parallelForInt(first, last, 1, Schedule.staticBlocks(), body);
    }

    /**
     * Runs {@code body} for the int indices {@code first, first + step, ...} up to {@code last},
     * excluded: {@link #parallelFor(long, long, long, Schedule, LongConsumer)} for int ranges, with
     * no cast in the body.
     *
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param body the loop body
     * @throws ParallelForException if the body threw
     */
    public void parallelForInt(int first, int last, int step, Schedule schedule, IntConsumer body) {
        Objects.requireNonNull(body, "body");
        execute(new IntLoop(first, last, step, check(schedule), share(), body));
    }

    /**
     * Runs {@code body} for every index, telling it which worker runs it (FastFlow's
     * {@code parallel_for_thid}).
     *
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param body the loop body, given the index and the worker (0..parallelism-1)
     * @throws ParallelForException if the body threw
     */
    public void parallelForWorker(long first, long last, long step, Schedule schedule, WorkerBody body) {
        Objects.requireNonNull(body, "body");
        execute(new WorkerLoop(first, last, step, check(schedule), share(), body));
    }

    /**
     * Runs {@code body} once per chunk of the schedule, which walks the chunk itself (FastFlow's
     * {@code parallel_for_idx}). With {@link Schedule#staticBlocks()} a worker's whole block is one
     * chunk.
     *
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how chunks are formed and shared among workers
     * @param body the chunk body
     * @throws IllegalArgumentException also if the range's exclusive end does not fit a long
     * @throws ParallelForException if the body threw
     */
    public void parallelForChunks(long first, long last, long step, Schedule schedule, ChunkBody body) {
        Objects.requireNonNull(body, "body");
        execute(new ChunkLoop(first, last, step, check(schedule), share(), body));
    }

    // ---- reductions ------------------------------------------------------------------------------

    /**
     * A long reduction over {@code first..last-1} in static blocks (FastFlow's
     * {@code ParallelForReduce<long>::parallel_reduce}).
     *
     * @param first the first index
     * @param last the index after the last one
     * @param identity each worker's starting value; an identity of {@code combine}
     * @param body folds one iteration into a worker's accumulator
     * @param combine combines two partial results (associative)
     * @return the combined result; the identity for an empty range
     * @throws ParallelForException if the body threw
     */
    public long parallelReduceLong(long first, long last, long identity, LongReducer body, LongBinaryOperator combine) {
        return parallelReduceLong(first, last, 1, Schedule.staticBlocks(), identity, body, combine);
    }

    /**
     * A long reduction, without boxing.
     *
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param identity each worker's starting value; an identity of {@code combine}
     * @param body folds one iteration into a worker's accumulator
     * @param combine combines two partial results (associative; commutative unless static blocks)
     * @return the combined result; the identity for an empty range
     * @throws ParallelForException if the body threw (an exception of the combine, which runs on
     *         the calling thread after the loop, propagates as it is)
     */
    public long parallelReduceLong(long first, long last, long step, Schedule schedule, long identity,
            LongReducer body, LongBinaryOperator combine) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combine, "combine");
        LongReduction job = new LongReduction(first, last, step, check(schedule), share(), identity, body);
        execute(job);
        return job.result(combine);
    }

    /**
     * A double reduction over {@code first..last-1} in static blocks.
     *
     * @param first the first index
     * @param last the index after the last one
     * @param identity each worker's starting value; an identity of {@code combine}
     * @param body folds one iteration into a worker's accumulator
     * @param combine combines two partial results
     * @return the combined result; the identity for an empty range
     * @throws ParallelForException if the body threw
     */
    public double parallelReduceDouble(long first, long last, double identity, DoubleReducer body,
            DoubleBinaryOperator combine) {
        return parallelReduceDouble(first, last, 1, Schedule.staticBlocks(), identity, body, combine);
    }

    /**
     * A double reduction, without boxing.
     *
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param identity each worker's starting value; an identity of {@code combine}
     * @param body folds one iteration into a worker's accumulator
     * @param combine combines two partial results (associative; commutative unless static blocks)
     * @return the combined result; the identity for an empty range
     * @throws ParallelForException if the body threw
     */
    public double parallelReduceDouble(long first, long last, long step, Schedule schedule, double identity,
            DoubleReducer body, DoubleBinaryOperator combine) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combine, "combine");
        DoubleReduction job = new DoubleReduction(first, last, step, check(schedule), share(), identity, body);
        execute(job);
        return job.result(combine);
    }

    /**
     * An object reduction (FastFlow's {@code ParallelForReduce<T>::parallel_reduce}): each worker
     * folds its iterations into its own accumulator starting from {@code identity}, and the partial
     * results are combined in worker order.
     *
     * @param <R> the result type
     * @param first the first index
     * @param last the bound, excluded
     * @param step the increment, not 0
     * @param schedule how iterations are shared among workers
     * @param identity each worker's starting value (shared: the body must not change it); an identity
     *        of {@code combine}
     * @param body folds one iteration into a worker's accumulator
     * @param combine combines two partial results (associative; commutative unless static blocks)
     * @return the combined result; the identity for an empty range
     * @throws ParallelForException if the body threw
     */
    public <R> R parallelReduce(long first, long last, long step, Schedule schedule, R identity, Reducer<R> body,
            BinaryOperator<R> combine) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combine, "combine");
        ObjectReduction<R> job = new ObjectReduction<>(first, last, step, check(schedule), share(), identity, body);
        execute(job);
        return job.result(combine);
    }

    // ---- running a job ---------------------------------------------------------------------------

    private static Schedule check(Schedule schedule) {
        return Objects.requireNonNull(schedule, "schedule");
    }

    /** The workers a new job may use: 1 for a call nested in one of this pool's bodies. */
    int share() {
        return isNested() ? 1 : parallelism;
    }

    /** Whether the calling thread is running one of this pool's jobs (as caller or as pool thread). */
    boolean isNested() {
        Thread me = Thread.currentThread();
        return turn.isHeldByCurrentThread() || (me instanceof PoolThread && ((PoolThread) me).pool == this);
    }

    /** The worker index of the calling thread inside this pool's job, 0 outside it. */
    private static int workerIndex(Thread me) {
        return me instanceof PoolThread ? ((PoolThread) me).index : 0;
    }

    /**
     * Runs the job on its workers (the calling thread as worker 0) and throws its outcome. A job made
     * for a nested call (one worker) runs on the calling thread with that thread's worker index.
     */
    void execute(PoolJob job) {
        Thread me = Thread.currentThread();
        if (isNested()) {
            job.caller = me;
            job.enclosing = current; // null if the enclosing job runs on the caller alone: nothing else stops it
            job.enclosingPool = name;
            job.participate(0, workerIndex(me));
        } else {
            PoolStack stack = PoolStack.of(me);
            ParallelFor from = stack.innermost();
            takeTurn(stack, from, job instanceof DcJob ? "divide and conquer" : "parallel loop", true);
            try {
                if (closed) {
                    throw new IllegalStateException("parallel-for pool '" + name + "' is closed");
                }
                job.caller = me;
                stack.push(this);
                try {
                    int workers = job.workers();
                    if (workers <= 1) {
                        job.participate(0, 0);
                    } else {
                        runShared(job, workers);
                    }
                } finally {
                    stack.pop();
                }
            } finally {
                giveTurnBack(from);
            }
        }
        RuntimeException e = job.outcome();
        if (e != null) {
            throw e;
        }
    }

    /**
     * Takes this pool's turn for a non-nested call (or {@link #close()}) of the calling thread, whose
     * innermost pool is {@code from} (null if it works in no pool's job). From inside another pool's
     * job the call is an edge {@code from -> this} of the {@link WaitForGraph} (kept until
     * {@link #giveTurnBack}), and if the turn is not free and waiting for it would close a cycle of
     * pools waiting for each other, the call is refused at once.
     *
     * <p>The refusal is an {@link IllegalStateException}, not a {@link CancellationException}: it is
     * the pools' state (and the program's order of calls) that forbids the call, nobody cancelled it;
     * and it must fail the enclosing loop, whose body it passes through, for the user to see it, where
     * an enclosing caller that is interrupted counts a {@link CancellationException} as its own
     * cancellation. Thrown out of a body, it fails the enclosing call with a
     * {@link ParallelForException} (or {@link DivideAndConquerException}) whose cause it is; that call
     * ends, gives its turn back, and the other calls of the cycle go on.
     */
    private void takeTurn(PoolStack stack, ParallelFor from, String call, boolean interruptible) {
        if (from == null) {
            // a thread in no pool's job: no job waits for it, so its waiting closes no cycle (the fast path)
            lockTurn(interruptible);
            return;
        }
        if (interruptible && Thread.currentThread().isInterrupted()) {
            // as lockInterruptibly would, even with the turn free (tryLock below ignores the interrupt)
            throw cancelledWaiting();
        }
        synchronized (WaitForGraph.LOCK) {
            WaitForGraph.add(from, this);
            if (turn.tryLock()) {
                return; // the turn was free: no cycle can close here (see WaitForGraph)
            }
            List<ParallelFor> cycle = WaitForGraph.cycle(this, stack);
            if (cycle != null) {
                WaitForGraph.remove(from, this);
                throw new IllegalStateException(WaitForGraph.refusal(call, cycle));
            }
        }
        try {
            lockTurn(interruptible);
        } catch (CancellationException e) {
            synchronized (WaitForGraph.LOCK) {
                WaitForGraph.remove(from, this);
            }
            throw e;
        }
    }

    private void lockTurn(boolean interruptible) {
        if (!interruptible) {
            turn.lock();
            return;
        }
        try {
            turn.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw cancelledWaiting();
        }
    }

    private CancellationException cancelledWaiting() {
        return new CancellationException("parallel loop cancelled: the calling thread was interrupted while"
                + " another thread's loop ran on pool '" + name + "'");
    }

    /** Ends what {@link #takeTurn} began: the edge first, while the turn is still held (a stale edge would be a false cycle). */
    private void giveTurnBack(ParallelFor from) {
        if (from != null) {
            synchronized (WaitForGraph.LOCK) {
                WaitForGraph.remove(from, this);
            }
        }
        turn.unlock();
    }

    private void runShared(PoolJob job, int workers) {
        job.generation = ++generation;
        job.slots = new AtomicIntegerArray(workers);
        job.pending.set(workers - 1);
        current = job;
        for (int i = 1; i < workers; i++) {
            PoolThread t = threads[i];
            if (t.waiting) {
                LockSupport.unpark(t);
            }
        }
        try {
            job.participate(0, 0);
            // the shares of pool threads that have not started yet: run them here rather than wait
            for (int s = 1; s < workers; s++) {
                if (job.take(s)) {
                    try {
                        job.participate(s, 0);
                    } finally {
                        job.pending.decrementAndGet();
                    }
                }
            }
        } finally {
            for (int s = 1; s < workers; s++) { // only if something escaped above: no slot is left open
                if (job.take(s)) {
                    job.pending.decrementAndGet();
                }
            }
            awaitOthers(job);
            current = null; // let the job (and what its body holds) be collected
        }
    }

    /** Waits until every pool thread is done with the job; an interrupt cancels it but still waits. */
    private void awaitOthers(PoolJob job) {
        if (job.pending.get() == 0) {
            return;
        }
        IdleStrategy idle = callerIdle;
        job.callerWaiting = true;
        Thread me = Thread.currentThread();
        while (job.pending.get() != 0) {
            if (me.isInterrupted()) {
                // a park returns at once while interrupted: spin until the others end their chunk
                job.cancelled = true;
                job.stop = true;
                Thread.onSpinWait();
            } else {
                idle.idle();
            }
        }
        idle.reset();
    }

    /**
     * Stops the pool's threads and waits until they have ended. Waits for a loop another thread is
     * running to end first. Idempotent; a loop called after it throws {@link IllegalStateException}.
     *
     * @throws IllegalStateException if called from inside one of this pool's loop bodies, or from a
     *         body of another pool when waiting for this pool's loop would close a cycle of pools
     *         waiting for each other (see the class documentation)
     */
    @Override
    public void close() {
        if (isNested()) {
            throw new IllegalStateException("parallel-for pool '" + name + "' closed from inside one of its loops");
        }
        PoolStack stack = PoolStack.of(Thread.currentThread());
        ParallelFor from = stack.innermost();
        takeTurn(stack, from, "close", false);
        try {
            closed = true;
            for (int i = 1; i < parallelism; i++) {
                LockSupport.unpark(threads[i]);
            }
        } finally {
            giveTurnBack(from);
        }
        boolean interrupted = false;
        for (int i = 1; i < parallelism; i++) {
            while (true) {
                try {
                    threads[i].join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * True once {@link #close()} was called.
     *
     * @return whether the pool is closed
     */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "ParallelFor[" + name + ", parallelism=" + parallelism + ", " + waitStrategy + (closed ? ", closed" : "") + "]";
    }
}
