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
 * The thesis's pipeline (Code 27): generator, {@code stages} CPU-bound workers each doing
 * {@code work / stages} steps per item, a final node; default wait strategy. Score: time per run;
 * speedup against {@link SequentialBench} (same items and work) is computed by the report. On 2
 * cores the ideal speedup is min(stages, 2).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class PipelineBench {
    /** Number of worker stages. */
    @Param({"1", "2", "4", "8"})
    public int stages;

    /** Wait strategy of every node (the default, backoff, unless overridden with -p strategy=...). */
    @Param({"backoff"})
    public String strategy;

    /** Stream length. */
    @Param({"256"})
    public int items;

    /** Multiply/divide steps per item, split evenly over the stages. */
    @Param({"100000"})
    public int work;

    private Flows.Expected expected;

    /** Computes the expected results once, outside the measurement. */
    @Setup(Level.Trial)
    public void expect() {
        expected = new Flows.Expected(items, work);
    }

    /** One run of the pipeline. */
    @Benchmark
    public long pipeline() {
        long sum = Flows.pipeline(stages, items, work, Strategies.options(strategy));
        return Flows.check("pipeline " + stages, sum, expected);
    }
}
