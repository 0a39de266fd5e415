package org.bbflow.bench.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.bench.support.Pipe;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two-thread channel throughput: the benchmark thread sends {@value #BATCH} items, a consumer
 * thread receives them, and the invocation ends when the consumer has received them all (so the
 * score is end-to-end items per microsecond, i.e. millions of items per second). One consumer
 * thread per iteration, started in set-up and joined in tear-down.
 *
 * <p>Every implementation of {@link Pipe} is driven by the same code with the same capacity (1024)
 * and the same item (one preallocated object, so nothing is allocated per item): BBFlow's SPSC
 * channel ({@code put}/{@code take}) under each wait strategy, raw JCTools {@code SpscArrayQueue}
 * spinning on {@code offer}/{@code poll}, {@code ArrayBlockingQueue}, {@code LinkedBlockingQueue}
 * and the thesis-style channel. Headline: {@code bbflow-busyspin / jctools} (same waiting, so the
 * ratio is the cost of BBFlow's layer over JCTools).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class ChannelThroughputBench {
    /** Items per invocation. */
    public static final int BATCH = 1 << 16;
    private static final Object ITEM = new Object();
    private static final Object STOP = new Object();
    private static final VarHandle RECEIVED;

    static {
        try {
            RECEIVED = MethodHandles.lookup().findVarHandle(ChannelThroughputBench.class, "received", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The channel implementation (see {@link Pipe}). */
    @Param({"bbflow-busyspin", "bbflow-backoff", "bbflow-blocking", "jctools", "abq", "lbq", "thesis"})
    public String impl;

    /** Channel capacity. */
    @Param({"1024"})
    public int capacity;

    private Pipe pipe;
    private PeerThread consumer;
    private long sent;
    // padding: the consumer writes 'received' per item, keep it off the producer's fields
    long p01, p02, p03, p04, p05, p06, p07;
    private volatile long received;
    long p11, p12, p13, p14, p15, p16, p17;

    /** Creates the channel and starts the consumer. */
    @Setup(Level.Iteration)
    public void start() {
        pipe = Pipe.create(impl, capacity);
        sent = 0;
        RECEIVED.setVolatile(this, 0L);
        Pipe p = pipe;
        consumer = new PeerThread("consumer-" + impl, () -> {
            long n = 0;
            while (p.receive() != STOP) {
                RECEIVED.setRelease(this, ++n);
            }
        });
    }

    /** Sends {@link #BATCH} items and waits until the consumer has received them. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long transfer() {
        Pipe p = pipe;
        for (int i = 0; i < BATCH; i++) {
            p.send(ITEM);
        }
        long target = sent += BATCH;
        int spins = 0;
        while ((long) RECEIVED.getAcquire(this) < target) {
            if (++spins > 1000) {
                consumer.check();
                Thread.yield();
                spins = 0;
            }
            Thread.onSpinWait();
        }
        return target;
    }

    /** Stops and joins the consumer. */
    @TearDown(Level.Iteration)
    public void stop() {
        pipe.send(STOP);
        consumer.join();
    }
}
