package org.bbflow.bench.flow;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.bbflow.bench.baseline.ThesisChannel;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.bench.support.Strategies;
import org.bbflow.core.LongBatch;
import org.bbflow.core.DoubleNodes;
import org.bbflow.core.LongNodes;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.jctools.queues.SpscArrayQueue;
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
 * The thesis's two-node pipeline (Table 1, Code 10): a generator sends the boxed longs 1..N, a
 * consumer multiplies each by two. The score is the time of one whole run (threads started, N
 * items, threads joined), in milliseconds, like Table 1. Every implementation starts two new
 * threads per run, the producer first (as {@code Flow} does: a consumer that spins from its start
 * would compete with the producer's start-up for the cores), uses channels of capacity 1024, boxes with {@code Long.valueOf} and checks the
 * result ({@code sum 2i = N(N+1)}):
 * <ul>
 *   <li>{@code bbflow-busyspin}, {@code bbflow-backoff} (the default), {@code bbflow-blocking}:
 *       {@code Pipeline.of(Nodes.range(1, N), Nodes.sink(x -> acc += 2x))};</li>
 *   <li>{@code jctools}: the raw two-thread loop on a JCTools {@code SpscArrayQueue}, spinning;</li>
 *   <li>{@code thesis}: the thesis's non-blocking channel ({@link ThesisChannel});</li>
 *   <li>{@code thesis-blocking}: the thesis's blocking channel, a {@code LinkedBlockingQueue}.</li>
 *   <li>{@code bbflow-longs}: the unboxed path, {@code Pipeline.of(LongNodes.range(1, N),
 *       LongNodes.sink(x -> acc += 2x))} (backoff), moving batches of 256 longs;</li>
 *   <li>{@code long-batches}: its floor, the raw two-thread loop handing the same batches (a new
 *       {@code long[256]} each, filled by the producer) over a JCTools {@code SpscArrayQueue},
 *       yielding on failure;</li>
 *   <li>{@code long-batches-reused}: the floor of {@code bbflow-longs} since its stages recycle
 *       batches: the same loop, but the consumer gives each full array back on a second
 *       {@code SpscArrayQueue} and the producer refills one from there when it can (as
 *       {@code LongBatchReturns} does between two {@code LongNodes} stages);</li>
 *   <li>{@code bbflow-doubles}: the unboxed double path, {@code DoubleNodes.source} sending
 *       {@code 1.0 .. N} with {@code sendDouble} into {@code DoubleNodes.sink(x -> acc += 2x)}
 *       (backoff; exact: every partial sum is below 2^53 up to N = 10M).</li>
 * </ul>
 * Headlines at N = 10M: {@code bbflow-backoff / jctools} (target &lt;= 1.3) and
 * {@code thesis / bbflow-backoff} (target &gt;= 8).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class TwoStageBench {
    private static final int CAPACITY = 1024;
    private static final int BATCH = LongBatch.DEFAULT_CAPACITY;
    private static final long JOIN_SECONDS = 600;
    private static final Long STOP = Long.MIN_VALUE; // a distinct boxed instance, compared by identity

    /** Number of items; the full run adds 100000000. */
    @Param({"1000", "10000", "100000", "1000000", "10000000"})
    public long n;

    /** The implementation. */
    @Param({"bbflow-busyspin", "bbflow-backoff", "bbflow-blocking", "jctools", "thesis", "thesis-blocking",
            "bbflow-longs", "long-batches", "long-batches-reused", "bbflow-doubles"})
    public String impl;

    /** One run of N items. */
    @Benchmark
    public long run() throws InterruptedException {
        long sum;
        switch (impl) {
            case "bbflow-busyspin": sum = bbflow("busyspin"); break;
            case "bbflow-backoff": sum = bbflow("backoff"); break;
            case "bbflow-blocking": sum = bbflow("blocking"); break;
            case "jctools": sum = jctools(); break;
            case "thesis": sum = thesis(); break;
            case "thesis-blocking": sum = thesisBlocking(); break;
            case "bbflow-longs": sum = bbflowLongs(); break;
            case "long-batches": sum = longBatches(false); break;
            case "long-batches-reused": sum = longBatches(true); break;
            case "bbflow-doubles": sum = bbflowDoubles(); break;
            default: throw new IllegalArgumentException("unknown impl '" + impl + "'");
        }
        if (sum != n * (n + 1)) {
            throw new IllegalStateException(impl + ": wrong result " + sum + " for n = " + n);
        }
        return sum;
    }

    private long bbflow(String strategy) {
        long[] acc = new long[1];
        Pipeline.of(Nodes.range(1, n), Nodes.sink((Long x) -> acc[0] += x * 2)).run(Strategies.options(strategy));
        return acc[0];
    }

    private long bbflowLongs() {
        long[] acc = new long[1];
        Pipeline.of(LongNodes.range(1, n), LongNodes.sink(x -> acc[0] += x * 2)).run(Strategies.options("backoff"));
        return acc[0];
    }

    private long bbflowDoubles() {
        double[] acc = new double[1];
        long items = n;
        Pipeline.of(DoubleNodes.source(out -> {
            for (long i = 1; i <= items; i++) {
                out.sendDouble(i);
            }
        }), DoubleNodes.sink(x -> acc[0] += x * 2)).run(Strategies.options("backoff"));
        return (long) acc[0];
    }

    /**
     * The floor of the unboxed path: batches of 256 longs over a raw SPSC queue, each a new array, or
     * with {@code reuse} a full one the consumer gave back on a second queue where there is one.
     */
    private long longBatches(boolean reuse) {
        SpscArrayQueue<long[]> q = new SpscArrayQueue<>(CAPACITY);
        SpscArrayQueue<long[]> back = new SpscArrayQueue<>(CAPACITY + 2);
        long[] acc = new long[1];
        long items = n;
        long[] stop = new long[0];
        PeerThread producer = new PeerThread("long-batches-producer", () -> {
            for (long next = 1; next <= items; ) {
                int k = (int) Math.min(BATCH, items - next + 1);
                long[] b = reuse && k == BATCH ? back.relaxedPoll() : null;
                if (b == null) {
                    b = new long[k];
                }
                for (int i = 0; i < k; i++) {
                    b[i] = next + i;
                }
                next += k;
                while (!q.offer(b)) {
                    Thread.yield();
                }
            }
            while (!q.offer(stop)) {
                Thread.yield();
            }
        });
        PeerThread consumer = new PeerThread("long-batches-consumer", () -> {
            long a = 0;
            while (true) {
                long[] b = q.poll();
                if (b == null) {
                    Thread.yield();
                    continue;
                }
                if (b == stop) {
                    break;
                }
                for (long x : b) {
                    a += x * 2;
                }
                if (reuse && b.length == BATCH) {
                    back.relaxedOffer(b);
                }
            }
            acc[0] = a;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    private long jctools() {
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(CAPACITY);
        long[] acc = new long[1];
        long items = n;
        PeerThread producer = new PeerThread("jctools-producer", () -> {
            for (long i = 1; i <= items; i++) {
                Long x = i;
                while (!q.offer(x)) {
                    Thread.onSpinWait();
                }
            }
            while (!q.offer(STOP)) {
                Thread.onSpinWait();
            }
        });
        PeerThread consumer = new PeerThread("jctools-consumer", () -> {
            long a = 0;
            while (true) {
                Long x = q.poll();
                if (x == null) {
                    Thread.onSpinWait();
                    continue;
                }
                if (x == STOP) {
                    break;
                }
                a += x * 2;
            }
            acc[0] = a;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    private long thesis() {
        ThesisChannel<Long> c = new ThesisChannel<>(CAPACITY);
        long[] acc = new long[1];
        long items = n;
        PeerThread producer = new PeerThread("thesis-producer", () -> {
            for (long i = 1; i <= items; i++) {
                c.put(i);
            }
            c.setEos();
        });
        PeerThread consumer = new PeerThread("thesis-consumer", () -> {
            long a = 0;
            Long x;
            while ((x = c.take()) != null) {
                a += x * 2;
            }
            acc[0] = a;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    private long thesisBlocking() {
        LinkedBlockingQueue<Long> q = new LinkedBlockingQueue<>(CAPACITY);
        long[] acc = new long[1];
        long items = n;
        PeerThread producer = new PeerThread("lbq-producer", () -> {
            try {
                for (long i = 1; i <= items; i++) {
                    q.put(i);
                }
                q.put(STOP);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        PeerThread consumer = new PeerThread("lbq-consumer", () -> {
            long a = 0;
            try {
                Long x;
                while ((x = q.take()) != STOP) {
                    a += x * 2;
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            acc[0] = a;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }
}
