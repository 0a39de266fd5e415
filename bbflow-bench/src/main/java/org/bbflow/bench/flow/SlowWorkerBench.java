package org.bbflow.bench.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.bbflow.bench.support.Work;
import org.bbflow.core.Block;
import org.bbflow.core.ChannelSpec;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A farm of 4 workers, one of them 1000x slower than the others (about 1 ms per item against 1 µs):
 * what "least loaded" is worth. Round-robin gives the slow worker a quarter of the items; on-demand
 * with its default one-slot worker queues (FastFlow's choice) only what it can take while the fast
 * ones drain the rest; on-demand over 1024-slot queues shows why the default is one slot (the queues
 * never fill, so "least loaded" never decides anything). Score: time per run of {@code items}; at the
 * end of each iteration the slow worker's share per run is printed ({@code slow worker: ...}).
 *
 * <pre>{@code
 * java -jar bbflow-bench/target/benchmarks.jar 'flow.SlowWorkerBench' -f 3 -wi 2 -i 5
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class SlowWorkerBench {
    /** Dispatch: {@code roundrobin}, {@code ondemand} (one-slot queues, the default) or {@code ondemand-1024}. */
    @Param({"roundrobin", "ondemand", "ondemand-1024"})
    public String dispatch;

    /** Items per run. */
    @Param({"2000"})
    public int items;

    /** Multiply/divide steps of a fast worker's item (about 1 µs); the slow worker does 1000x. */
    @Param({"360"})
    public int work;

    private long slowItems;
    private long runs;

    /** One run; returns the number of results (checked to be {@code items}). */
    @Benchmark
    public long farm() {
        LongAdder slow = new LongAdder();
        List<Block<?, ?>> workers = new ArrayList<>();
        workers.add(Nodes.map((Long x) -> {
            slow.increment();
            return Work.spin(x, work * 1000);
        }));
        for (int i = 1; i < 4; i++) {
            workers.add(Nodes.map((Long x) -> Work.spin(x, work)));
        }
        Farm<Long, Long> farm = Farm.of(workers);
        switch (dispatch) {
            case "roundrobin":
                farm.dispatch(Dispatch.roundRobin());
                break;
            case "ondemand":
                farm.dispatch(Dispatch.onDemand());
                break;
            case "ondemand-1024":
                farm.dispatch(Dispatch.onDemand()).channels(ChannelSpec.bounded(1024));
                break;
            default:
                throw new IllegalArgumentException("dispatch " + dispatch);
        }
        LongAdder results = new LongAdder();
        Pipeline.of(Nodes.range(1, items), farm, Nodes.sink((Long y) -> results.increment())).run();
        if (results.sum() != items) {
            throw new IllegalStateException(dispatch + ": " + results.sum() + " results of " + items);
        }
        slowItems += slow.sum();
        runs++;
        return results.sum();
    }

    /** Prints the slow worker's mean share per run over the iteration. */
    @TearDown(Level.Iteration)
    public void share() {
        if (runs > 0) {
            System.out.printf(Locale.ROOT, "slow worker: %.1f of %d items per run (%s, %d runs)%n",
                    (double) slowItems / runs, items, dispatch, runs);
        }
        slowItems = 0;
        runs = 0;
    }
}
