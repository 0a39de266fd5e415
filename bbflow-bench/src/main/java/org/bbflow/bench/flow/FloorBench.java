package org.bbflow.bench.flow;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.YieldingWaitStrategy;
import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.bench.support.Strategies;
import org.bbflow.core.NodeStats;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * The honest floor of the two-stage pipeline (thesis Table 1: a source sends N items, the next
 * thread sums 2x), every implementation in the same run, so BBFlow can be reported as a fraction
 * of the floor. No implementation allocates per item: all send the same pre-boxed {@code Long}s
 * ({@code VALUES[i & 1023]}, values 1..1024), BBFlow's source included. Each run starts two threads
 * (producer first), hands N items over a ring of 1024 and joins both.
 * <ul>
 *   <li>{@code jctools-spin}: the raw {@code SpscArrayQueue} loop spinning with
 *       {@code Thread.onSpinWait()} on failure (the suite's old baseline, bimodal);</li>
 *   <li>{@code jctools-yield}: the same loop yielding ({@code Thread.yield()}) on a failed
 *       offer or poll, as JCTools' own throughput tests do;</li>
 *   <li>{@code jctools-atomic-yield}: that loop on JCTools' Unsafe-free
 *       {@code SpscAtomicArrayQueue} (field updaters; no JDK 25 {@code sun.misc.Unsafe} warning);</li>
 *   <li>{@code jctools-batch}: the batched floor, {@code fill} and {@code drain} of up to 1024
 *       items per call, yielding when a call moved nothing;</li>
 *   <li>{@code disruptor}: the LMAX Disruptor, a single-producer {@code RingBuffer} of 1024
 *       pre-allocated events (holding a reference), the consumer reading whole available batches
 *       through a {@code SequenceBarrier} with the {@code YieldingWaitStrategy};</li>
 *   <li>{@code bbflow-busyspin}, {@code bbflow-backoff}, {@code bbflow-blocking}:
 *       {@code Pipeline.of(source, sink)} with that wait strategy.</li>
 * </ul>
 * The auxiliary counters (JMH {@code @AuxCounters}, summed per iteration) give the failed offers
 * and polls of the raw loops (a failed {@code fill}/{@code drain} call for the batch loop, a
 * full ring or an empty barrier wait for the Disruptor's consumer) and the items moved; their
 * quotient is the failed operations per item. For BBFlow they are the waits its {@code RunStats} count:
 * a wait for room (the source's full waits) and a wait for input (the sink's empty waits), each
 * counted once however long it spun or parked.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class FloorBench {
    private static final int CAPACITY = 1024;
    private static final int MASK = 1023;
    private static final long JOIN_SECONDS = 600;
    private static final Long[] VALUES = new Long[CAPACITY];

    static {
        for (int i = 0; i < CAPACITY; i++) {
            VALUES[i] = (long) (i + 1); // 1..1024 (above the Long cache, so they are distinct objects)
        }
    }

    /** Number of items per run. */
    @Param({"1000000"})
    public long n;

    /** The implementation (see the class comment). */
    @Param({"jctools-spin", "jctools-yield", "jctools-atomic-yield", "jctools-batch", "disruptor",
            "bbflow-busyspin", "bbflow-backoff", "bbflow-blocking"})
    public String impl;

    /** Failed operations and items, summed over an iteration (JMH reports each as a secondary metric). */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Counts {
        /** Polls (or drains, or barrier waits) that found nothing. */
        public long failedPolls;
        /** Offers (or fills, or claims of a full ring) that found no room. */
        public long failedOffers;
        /** Items handed over. */
        public long items;

        /** Clears the counters before each iteration. */
        @Setup(Level.Iteration)
        public void clear() {
            failedPolls = 0;
            failedOffers = 0;
            items = 0;
        }
    }

    /** One run of N items. */
    @Benchmark
    public long run(Counts counts) throws InterruptedException {
        long[] failed = new long[2]; // [0] offers (producer's slot), [1] polls (consumer's slot): read after join
        long sum;
        switch (impl) {
            case "jctools-spin": sum = loop(new SpscArrayQueue<>(CAPACITY), false, failed); break;
            case "jctools-yield": sum = loop(new SpscArrayQueue<>(CAPACITY), true, failed); break;
            case "jctools-atomic-yield": sum = loop(new SpscAtomicArrayQueue<>(CAPACITY), true, failed); break;
            case "jctools-batch": sum = batch(failed); break;
            case "disruptor": sum = disruptor(failed); break;
            case "bbflow-busyspin": sum = bbflow("busyspin", failed); break;
            case "bbflow-backoff": sum = bbflow("backoff", failed); break;
            case "bbflow-blocking": sum = bbflow("blocking", failed); break;
            default: throw new IllegalArgumentException("unknown impl '" + impl + "'");
        }
        long expected = expectedSum(n);
        if (sum != expected) {
            throw new IllegalStateException(impl + ": wrong result " + sum + " for n = " + n + ", expected " + expected);
        }
        counts.failedOffers += failed[0];
        counts.failedPolls += failed[1];
        counts.items += n;
        return sum;
    }

    /** Sum of 2 * VALUES[i & MASK] for i = 0..n-1. */
    static long expectedSum(long n) {
        long block = (long) CAPACITY * (CAPACITY + 1) / 2;
        long full = n / CAPACITY;
        long rest = n % CAPACITY;
        return 2 * (full * block + rest * (rest + 1) / 2);
    }

    private long loop(MessagePassingQueue<Long> q, boolean yield, long[] failed) {
        long[] acc = new long[1];
        long items = n;
        PeerThread producer = new PeerThread("floor-producer", () -> {
            long f = 0;
            for (long i = 0; i < items; i++) {
                Long x = VALUES[(int) i & MASK];
                while (!q.offer(x)) {
                    f++;
                    if (yield) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            failed[0] = f;
        });
        PeerThread consumer = new PeerThread("floor-consumer", () -> {
            long a = 0;
            long f = 0;
            for (long i = 0; i < items; ) {
                Long x = q.poll();
                if (x == null) {
                    f++;
                    if (yield) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                a += x * 2;
                i++;
            }
            acc[0] = a;
            failed[1] = f;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    private long batch(long[] failed) {
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(CAPACITY);
        long items = n;
        long[] acc = new long[1];
        PeerThread producer = new PeerThread("floor-batch-producer", () -> {
            Source s = new Source();
            long f = 0;
            while (s.next < items) {
                int filled = q.fill(s, (int) Math.min(CAPACITY, items - s.next));
                if (filled == 0) {
                    f++;
                    Thread.yield();
                }
            }
            failed[0] = f;
        });
        PeerThread consumer = new PeerThread("floor-batch-consumer", () -> {
            Summer s = new Summer();
            long f = 0;
            long got = 0;
            while (got < items) {
                int drained = q.drain(s, CAPACITY);
                if (drained == 0) {
                    f++;
                    Thread.yield();
                }
                got += drained;
            }
            acc[0] = s.sum;
            failed[1] = f;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    /** The batch producer's supplier: the next pre-boxed value (one per run, not per item). */
    private static final class Source implements MessagePassingQueue.Supplier<Long> {
        long next;

        @Override
        public Long get() {
            return VALUES[(int) next++ & MASK];
        }
    }

    /** The batch consumer: sums 2x. */
    private static final class Summer implements MessagePassingQueue.Consumer<Long> {
        long sum;

        @Override
        public void accept(Long x) {
            sum += x * 2;
        }
    }

    /** A Disruptor event: a slot holding the item's reference (pre-allocated by the ring). */
    private static final class Slot {
        Long value;
    }

    private long disruptor(long[] failed) {
        RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, CAPACITY, new YieldingWaitStrategy());
        Sequence consumed = new Sequence();
        ring.addGatingSequences(consumed);
        SequenceBarrier barrier = ring.newBarrier();
        long items = n;
        long[] acc = new long[1];
        PeerThread producer = new PeerThread("floor-disruptor-producer", () -> {
            long f = 0;
            for (long i = 0; i < items; i++) {
                if (!ring.hasAvailableCapacity(1)) {
                    f++; // next() then waits for room (the Disruptor parks 1 ns per retry)
                }
                long seq = ring.next();
                ring.get(seq).value = VALUES[(int) i & MASK];
                ring.publish(seq);
            }
            failed[0] = f;
        });
        PeerThread consumer = new PeerThread("floor-disruptor-consumer", () -> {
            long a = 0;
            long f = 0;
            long next = 0;
            try {
                while (next < items) {
                    if (ring.getCursor() < next) {
                        f++; // nothing published yet: the wait strategy spins, then yields
                    }
                    long available = barrier.waitFor(next);
                    for (; next <= available; next++) {
                        a += ring.get(next).value * 2;
                    }
                    consumed.set(available);
                }
            } catch (AlertException | InterruptedException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
            acc[0] = a;
            failed[1] = f;
        });
        producer.join(JOIN_SECONDS);
        consumer.join(JOIN_SECONDS);
        return acc[0];
    }

    /** BBFlow's pipeline; its waits from {@link RunStats}: the source's full waits, the sink's empty waits. */
    private long bbflow(String strategy, long[] failed) {
        long[] acc = new long[1];
        long items = n;
        RunStats stats = Pipeline.of(Nodes.<Long>source(out -> {
            for (long i = 0; i < items; i++) {
                out.send(VALUES[(int) i & MASK]);
            }
        }), Nodes.sink((Long x) -> acc[0] += x * 2)).run(Strategies.options(strategy));
        for (NodeStats s : stats.nodes()) {
            failed[0] += s.fullWaits();
            failed[1] += s.emptyWaits();
        }
        return acc[0];
    }
}
