package org.bbflow.bench.bkd;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bbflow.bkd.BkdTree;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Inserts per second into a {@link BkdTree} with background merging on, for 1 and 2 inserter
 * threads, 2-D points uniform in [0, 10000). One operation is one inserted point; with 2 threads
 * JMH reports the sum over both threads. The index starts empty every iteration, so the numbers
 * include bulk-loading of full buffers on the inserting threads and back-pressure from merges.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class BkdInsertBenchmark {
    static final int BATCH = 10_000;

    /** The shared index, recreated per iteration. */
    @State(Scope.Benchmark)
    public static class Index {
        /** Merge factor of the index (trees of one level merged at once). */
        @Param({"4", "8"})
        public int mergeFactor;

        BkdTree tree;

        @Setup(Level.Iteration)
        public void open() {
            tree = BkdTree.builder(2).mergeFactor(mergeFactor).build();
        }

        @TearDown(Level.Iteration)
        public void close() {
            tree.close();
        }
    }

    /** Per-thread point source. */
    @State(Scope.Thread)
    public static class Points {
        final double[] p = new double[2];
        SplittableRandom random;
        long nextId;

        @Setup(Level.Iteration)
        public void seed() {
            random = new SplittableRandom(Thread.currentThread().getId() * 31 + System.nanoTime());
        }
    }

    private static void insertBatch(Index index, Points points) {
        BkdTree tree = index.tree;
        SplittableRandom r = points.random;
        double[] p = points.p;
        long id = points.nextId;
        for (int i = 0; i < BATCH; i++) {
            p[0] = r.nextDouble() * 10000;
            p[1] = r.nextDouble() * 10000;
            tree.insert(p, id++);
        }
        points.nextId = id;
    }

    /** One inserter thread. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void insert1Thread(Index index, Points points) {
        insertBatch(index, points);
    }

    /** Two inserter threads (score = total of both threads). */
    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void insert2Threads(Index index, Points points) {
        insertBatch(index, points);
    }
}
