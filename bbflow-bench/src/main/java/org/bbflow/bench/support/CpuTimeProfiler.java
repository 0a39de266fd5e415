package org.bbflow.bench.support;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH internal profiler adding the secondary metric {@value #METRIC}: the process CPU time
 * consumed during an iteration divided by its wall time, i.e. the average number of cores the
 * benchmark JVM kept busy (2.0 = both cores of a 2-core machine all the time). Multiplied by the
 * time per operation it gives CPU seconds per operation (the report does that).
 *
 * <p>It reads {@code OperatingSystemMXBean.getProcessCpuTime()} (all threads of the forked JVM,
 * including threads that ended during the iteration, plus the JIT and GC) at the start and end of
 * every iteration. On Linux that counter has clock-tick (10 ms) resolution, so iterations of at
 * least ~1 s give figures to about 1 %. Enable with {@code -prof org.bbflow.bench.support.CpuTimeProfiler};
 * {@code org.bbflow.bench.Suite} always does.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    /** The name of the secondary metric in the JMH results. */
    public static final String METRIC = "\u00b7cpu.cores";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpu0;
    private long wall0;

    @Override
    public String getDescription() {
        return "process CPU time / wall time per iteration (cores kept busy)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpu0 = os.getProcessCpuTime();
        wall0 = System.nanoTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpu0;
        long wall = System.nanoTime() - wall0;
        double cores = wall <= 0 ? Double.NaN : (double) cpu / wall;
        return List.of(new ScalarResult(METRIC, cores, "cores", AggregationPolicy.AVG));
    }
}
