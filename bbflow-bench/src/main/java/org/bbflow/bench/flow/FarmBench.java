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
 * The thesis's farm (Code 11): an emitter generating 1..items, {@code workers} CPU-bound workers,
 * a collector; with the default wait strategy. Score: time per run. Speedup = {@link SequentialBench}
 * time / this time, efficiency = speedup / workers (computed by the report, same run).
 *
 * <p>{@code policy} is {@code <dispatch>-<collect>}: round-robin ({@code rr}) or on-demand
 * dispatch; first-come, round-robin or ordered collection (round-robin and ordered collection
 * require round-robin dispatch, so on-demand is paired with first-come only).
 * Every run checks the sum against the sequential loop, and the ordered runs check the order.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class FarmBench {
    /** Number of workers. */
    @Param({"1", "2", "4"})
    public int workers;

    /** Dispatch and collect policy. */
    @Param({"rr-firstcome", "rr-roundrobin", "rr-ordered", "ondemand-firstcome"})
    public String policy;

    /** Wait strategy of every node (the default, backoff, unless overridden with -p strategy=...). */
    @Param({"backoff"})
    public String strategy;

    /** Stream length. */
    @Param({"256"})
    public int items;

    /** Multiply/divide steps per item. */
    @Param({"100000"})
    public int work;

    private Flows.Expected expected;

    /** Computes the expected results once, outside the measurement. */
    @Setup(Level.Trial)
    public void expect() {
        expected = new Flows.Expected(items, work);
    }

    /** One run of the farm. */
    @Benchmark
    public long farm() {
        long sum = Flows.farm(workers, policy, items, work, Strategies.options(strategy), expected);
        return Flows.check("farm " + workers + " " + policy, sum, expected);
    }
}
