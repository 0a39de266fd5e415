package org.bbflow.core.io;

import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;
import org.bbflow.core.Block;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Parallelism;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;

/**
 * An n-buffered job (after the nbuf library): a {@link ChunkSource} reads the input into pooled
 * buffers, {@link ChunkProcessor}s work on the chunks, a {@link ChunkSink} writes them (or nothing)
 * and gives the buffers back. Reading, processing and writing overlap; memory stays within the
 * source's pool. The four nbuf configurations are compositions of core blocks:
 *
 * <table>
 *   <caption>configurations</caption>
 *   <tr><th></th><th>unordered output</th><th>ordered output</th></tr>
 *   <tr><td>parallel ({@code workers > 1})</td>
 *       <td>{@code Pipeline(source, Farm(n, worker) on-demand, sink)}</td>
 *       <td>{@code Pipeline(source, Farm(n, worker) on-demand, sink.ordered())}</td></tr>
 *   <tr><td>sequential ({@code workers == 1})</td>
 *       <td colspan="2">{@code Pipeline(source, worker, sink)}: one worker sees the chunks in input order</td></tr>
 * </table>
 *
 * <pre>{@code
 * NBufJob.Result<Long> r = NBufJob.of(ChunkSource.of(path, 64 << 20, 8, 100), CountingProcessor::new)
 *         .workers(4).ordered(true).to(ChunkSink.to(outPath)).merge(Long::sum).run();
 * }</pre>
 *
 * @param <A> the accumulated result type
 */
public final class NBufJob<A> {
    private final ChunkSource source;
    private final Supplier<? extends ChunkProcessor<A>> processors;
    private int workers = 1;
    private boolean ordered;
    private ChunkSink sink = ChunkSink.none();
    private BinaryOperator<A> merge;
    private final Queue<A> results = new ConcurrentLinkedQueue<>();
    private boolean built;

    private NBufJob(ChunkSource source, Supplier<? extends ChunkProcessor<A>> processors) {
        this.source = source;
        this.processors = processors;
    }

    /**
     * A job reading {@code source}, with one processor per worker made by {@code processors}.
     *
     * @param <A> the type of the workers' results
     * @param source where the chunks come from
     * @param processors makes one processor per worker
     * @return the job
     */
    public static <A> NBufJob<A> of(ChunkSource source, Supplier<? extends ChunkProcessor<A>> processors) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(processors, "processors");
        return new NBufJob<>(source, processors);
    }

    /**
     * Number of parallel workers; 1 (the default) is nbuf's sequential execution.
     *
     * @param count the number of workers, in [1, {@link Parallelism#MAX}]
     * @return this job
     * @throws IllegalArgumentException if count is out of range
     */
    public NBufJob<A> workers(int count) {
        Parallelism.check("workers", count);
        this.workers = count;
        return this;
    }

    /**
     * Whether output keeps input order (nbuf's input/output sensitivity); default false.
     *
     * @param inputOrder whether output keeps input order
     * @return this job
     */
    public NBufJob<A> ordered(boolean inputOrder) {
        this.ordered = inputOrder;
        return this;
    }

    /**
     * Where the chunks go after processing; default {@link ChunkSink#none()} (output switched off).
     *
     * @param target the sink
     * @return this job
     */
    public NBufJob<A> to(ChunkSink target) {
        this.sink = Objects.requireNonNull(target, "target");
        return this;
    }

    /**
     * How the workers' results are combined into one (needed with more than one worker).
     *
     * @param combiner combines two results into one
     * @return this job
     */
    public NBufJob<A> merge(BinaryOperator<A> combiner) {
        this.merge = Objects.requireNonNull(combiner, "combiner");
        return this;
    }

    /**
     * The job as a block to run or to compose; single-use like every block. The merged result is
     * available from {@link #result()} after the block ran.
     *
     * @return the job's block
     */
    public Block<Void, Void> block() {
        if (built) {
            throw new IllegalStateException("an NBufJob builds its block once");
        }
        built = true;
        if (ordered) {
            sink.ordered();
        }
        if (workers == 1) {
            return Pipeline.of(source, new ChunkWorker<>(processors.get(), results), sink);
        }
        Farm<Chunk, Chunk> farm = Farm.<Chunk, Chunk>of(workers, () -> new ChunkWorker<>(processors.get(), results))
            .dispatch(Dispatch.onDemand());
        return Pipeline.of(source, farm, sink);
    }

    /**
     * The workers' results merged (null when no worker returned one).
     *
     * @return the merged result, or null
     */
    public A result() {
        A acc = null;
        for (A r : results) {
            if (acc == null) {
                acc = r;
            } else if (merge == null) {
                throw new IllegalStateException("several worker results but no merge function; call merge(...)");
            } else {
                acc = merge.apply(acc, r);
            }
        }
        return acc;
    }

    /**
     * Runs the job to completion.
     *
     * @return the merged result and the run's statistics
     * @throws org.bbflow.core.FlowException when reading, processing or writing failed
     */
    public Result<A> run() {
        RunStats stats = block().run();
        return new Result<>(result(), stats, source.chunks(), source.bytes(), source.pool().peakInUse());
    }

    /**
     * What a finished job reports.
     *
     * @param <A> the result type
     */
    public static final class Result<A> {
        private final A value;
        private final RunStats stats;
        private final long chunks;
        private final long bytes;
        private final int peakBuffers;

        Result(A value, RunStats stats, long chunks, long bytes, int peakBuffers) {
            this.value = value;
            this.stats = stats;
            this.chunks = chunks;
            this.bytes = bytes;
            this.peakBuffers = peakBuffers;
        }

        /** @return the merged stream-wide result, or null */
        public A value() {
            return value;
        }

        /** @return the flow's per-node statistics */
        public RunStats stats() {
            return stats;
        }

        /** @return chunks read */
        public long chunks() {
            return chunks;
        }

        /** @return bytes read */
        public long bytes() {
            return bytes;
        }

        /** @return the most buffers in use at once (at most the pool size) */
        public int peakBuffers() {
            return peakBuffers;
        }

        @Override
        public String toString() {
            return "NBufJob.Result[value=" + value + ", chunks=" + chunks + ", bytes=" + bytes
                + ", peakBuffers=" + peakBuffers + "]";
        }
    }
}
