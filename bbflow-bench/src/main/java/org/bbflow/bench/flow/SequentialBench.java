package org.bbflow.bench.flow;

import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The sequential loop the farm, pipeline and oversubscription benchmarks are compared with (the
 * thesis's T_seq): {@code sum of spin(i, work)} for i = 1..items on the benchmark thread. Run with
 * the same {@code items} and {@code work} as they are; the report divides its time by theirs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class SequentialBench {
    /** Stream length. */
    @Param({"256"})
    public int items;

    /** Multiply/divide steps per item (the thesis used 1,000,000; 100,000 keeps a full run short while an item still costs far more than a hand-off). */
    @Param({"100000"})
    public int work;

    /** The sequential loop. */
    @Benchmark
    public long sequential() {
        return Work.sequential(items, work);
    }
}
