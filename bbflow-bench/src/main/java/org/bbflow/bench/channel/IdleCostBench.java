package org.bbflow.bench.channel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bbflow.bench.baseline.ThesisChannel;
import org.bbflow.bench.support.CpuTimeProfiler;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.bench.support.Strategies;
import org.bbflow.core.Block;
import org.bbflow.core.Flow;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
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
 * Idle cost: the CPU burnt by a flow whose nodes wait with nothing to do. Each invocation starts a
 * pipeline of a source parked on a latch followed by {@code waiters} nodes waiting on empty
 * channels with the given strategy, keeps it idle for {@code windowMillis} of wall time while the
 * benchmark thread sleeps, then releases one item and joins the flow.
 *
 * <p>The measurement is the secondary metric {@value CpuTimeProfiler#METRIC} of
 * {@link CpuTimeProfiler} (process CPU time / wall time: cores kept busy), which
 * {@code org.bbflow.bench.Suite} always enables; the primary score is just the window length.
 * {@code thesis} runs the same number of threads blocked in {@link ThesisChannel#take()} on empty
 * channels (its yield loop).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class IdleCostBench {
    /** BBFlow wait strategy ({@code busyspin}, {@code backoff}, {@code blocking}) or {@code thesis}. */
    @Param({"busyspin", "backoff", "blocking", "thesis"})
    public String strategy;

    /** Number of waiting nodes (threads). */
    @Param({"2"})
    public int waiters;

    /** How long the flow stays idle per invocation. */
    @Param({"200"})
    public int windowMillis;

    /** One idle window. */
    @Benchmark
    public Object idleWindow() throws InterruptedException {
        if (strategy.equals("thesis")) {
            return thesisWindow();
        }
        CountDownLatch release = new CountDownLatch(1);
        long[] seen = new long[1];
        Block<?, ?>[] stages = new Block<?, ?>[waiters + 1];
        stages[0] = Nodes.<Long>source(out -> {
            release.await();
            out.send(1L);
        });
        for (int i = 1; i < waiters; i++) {
            stages[i] = Nodes.<Long>identity();
        }
        stages[waiters] = Nodes.<Long>sink(x -> seen[0] += x);
        Flow flow = Flow.start(Pipeline.of(stages).named("idle"), Strategies.options(strategy));
        Thread.sleep(windowMillis);
        release.countDown();
        RunStats stats = flow.join();
        if (seen[0] != 1) {
            throw new IllegalStateException("the released item did not arrive");
        }
        return stats;
    }

    private Object thesisWindow() throws InterruptedException {
        @SuppressWarnings("unchecked")
        ThesisChannel<Long>[] channels = new ThesisChannel[waiters];
        PeerThread[] threads = new PeerThread[waiters];
        for (int i = 0; i < waiters; i++) {
            ThesisChannel<Long> c = new ThesisChannel<>(1024);
            channels[i] = c;
            threads[i] = new PeerThread("thesis-idle-" + i, () -> {
                while (c.take() != null) {
                    // drain until EOS
                }
            });
        }
        Thread.sleep(windowMillis);
        for (int i = 0; i < waiters; i++) {
            channels[i].put(1L);
            channels[i].setEos();
        }
        for (PeerThread t : threads) {
            t.join();
        }
        return channels;
    }
}
