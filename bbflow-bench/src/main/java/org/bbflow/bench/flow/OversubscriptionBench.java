package org.bbflow.bench.flow;

import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.Strategies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Oversubscription: a 16-stage CPU-bound pipeline (18 threads) and a 16-worker farm (18 threads)
 * on a machine with fewer cores, under each wait strategy. Score: time per run (throughput =
 * items / time); CPU seconds per run = the {@code ·cpu.cores} secondary metric of
 * {@link org.bbflow.bench.support.CpuTimeProfiler} times the time per run. Speedup against
 * {@link SequentialBench}; the ideal on a 2-core machine is 2.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class OversubscriptionBench {
    /** {@code pipeline} (of {@code width} stages) or {@code farm} (of {@code width} workers). */
    @Param({"pipeline", "farm"})
    public String shape;

    /** Stages or workers. */
    @Param({"16"})
    public int width;

    /** Wait strategy of every node. */
    @Param({"busyspin", "backoff", "blocking"})
    public String strategy;

    /** Stream length. */
    @Param({"256"})
    public int items;

    /** Multiply/divide steps per item (split over the stages of the pipeline). */
    @Param({"100000"})
    public int work;

    private Flows.Expected expected;

    /** Computes the expected results once, outside the measurement. */
    @Setup(Level.Trial)
    public void expect() {
        expected = new Flows.Expected(items, work);
    }

    /** One run. */
    @Benchmark
    public long run() {
        long sum = shape.equals("pipeline")
                ? Flows.pipeline(width, items, work, Strategies.options(strategy))
                : Flows.farm(width, "rr-firstcome", items, work, Strategies.options(strategy), expected);
        return Flows.check(shape + " " + width + " " + strategy, sum, expected);
    }
}
