package org.bbflow.bench.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Channel;
import org.bbflow.core.WaitStrategy;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Diagnostic: the per-item instruction cost of BBFlow's channel layer over JCTools, without a second
 * thread (so it is far less sensitive to a busy machine than the two-thread benchmarks). One thread
 * offers {@value #BATCH} items and polls them back; the score is ns per item (one offer + one poll).
 * <ul>
 *   <li>{@code bbflow}: {@code Channel.spsc(1024)} offer/poll (busy-spin strategy, no fence);</li>
 *   <li>{@code bbflow-blocking}: the same channel with the blocking strategy (a full fence per offer
 *       and per poll);</li>
 *   <li>{@code jctools}: {@code SpscArrayQueue} offer/poll;</li>
 *   <li>{@code jctools-mpq}: relaxedOffer/relaxedPoll through the {@code MessagePassingQueue}
 *       interface, as {@code Channel} calls it;</li>
 *   <li>{@code jctools-mpq-checks}: that plus exactly the checks {@code Channel} adds per item (null,
 *       closed flag, fence flag, volatile read of the peer's parked-thread slot).</li>
 *   <li>{@code bbflow-mpsc}: {@code Channel.mpsc(1024)} offer/poll (busy-spin): an MPSC offer is one
 *       CAS of the producer index of BBFlow's closable queue, which also carries the closed flag (so
 *       that a close by another producer never loses an accepted item);</li>
 *   <li>{@code jctools-mpsc}: {@code MpscArrayQueue} offer/poll, its floor.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Thread)
public class ChannelOverheadBench {
    /** Items per invocation. */
    public static final int BATCH = 32;
    private static final Object ITEM = new Object();
    private static final VarHandle CLOSED;
    private static final VarHandle PARKED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(ChannelOverheadBench.class, "closed", boolean.class);
            PARKED = MethodHandles.lookup().findVarHandle(Slot.class, "parked", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Implementation, see the class comment. */
    @Param({"bbflow", "bbflow-blocking", "jctools", "jctools-mpq", "jctools-mpq-checks", "jctools-mpq-opaque", "bbflow-mpsc", "jctools-mpsc"})
    public String impl;

    private Channel<Object> channel;
    private SpscArrayQueue<Object> spsc;
    private MpscArrayQueue<Object> mpsc;
    private MessagePassingQueue<Object> mpq;
    private boolean checks;
    private boolean opaque;
    private final Slot producerSlot = new Slot();
    private final Slot consumerSlot = new Slot();
    private volatile boolean closed;
    private boolean mustFence;

    /** Creates the queue. */
    @Setup
    public void setup() {
        switch (impl) {
            case "bbflow": channel = Channel.spsc(1024).waitStrategy(WaitStrategy.busySpin()); break;
            case "bbflow-blocking": channel = Channel.spsc(1024).waitStrategy(WaitStrategy.blocking()); break;
            case "jctools": spsc = new SpscArrayQueue<>(1024); break;
            case "jctools-mpq": mpq = new SpscArrayQueue<>(1024); break;
            case "jctools-mpq-checks": mpq = new SpscArrayQueue<>(1024); checks = true; break;
            case "jctools-mpq-opaque": mpq = new SpscArrayQueue<>(1024); opaque = true; break;
            case "bbflow-mpsc": channel = Channel.mpsc(1024).waitStrategy(WaitStrategy.busySpin()); break;
            case "jctools-mpsc": mpsc = new MpscArrayQueue<>(1024); break;
            default: throw new IllegalArgumentException("unknown impl '" + impl + "'");
        }
    }

    /** {@value #BATCH} offers then {@value #BATCH} polls. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void offerPoll(Blackhole bh) {
        if (channel != null) {
            for (int i = 0; i < BATCH; i++) {
                channel.offer(ITEM);
            }
            for (int i = 0; i < BATCH; i++) {
                bh.consume(channel.poll());
            }
        } else if (spsc != null) {
            for (int i = 0; i < BATCH; i++) {
                spsc.offer(ITEM);
            }
            for (int i = 0; i < BATCH; i++) {
                bh.consume(spsc.poll());
            }
        } else if (mpsc != null) {
            for (int i = 0; i < BATCH; i++) {
                mpsc.offer(ITEM);
            }
            for (int i = 0; i < BATCH; i++) {
                bh.consume(mpsc.poll());
            }
        } else {
            for (int i = 0; i < BATCH; i++) {
                mpqOffer(ITEM);
            }
            for (int i = 0; i < BATCH; i++) {
                bh.consume(mpqPoll());
            }
        }
    }

    private void mpqOffer(Object item) {
        if (opaque) {
            opaqueOffer(item);
            return;
        }
        if (checks && (item == null || closed)) {
            throw new IllegalStateException();
        }
        if (!mpq.relaxedOffer(item)) {
            throw new IllegalStateException("full");
        }
        if (checks) {
            if (mustFence) {
                VarHandle.fullFence();
            }
            Thread t = consumerSlot.parked;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    private void opaqueOffer(Object item) {
        if (item == null || (boolean) CLOSED.getOpaque(this)) {
            throw new IllegalStateException();
        }
        if (!mpq.relaxedOffer(item)) {
            throw new IllegalStateException("full");
        }
        if (mustFence) {
            VarHandle.fullFence();
        }
        Thread t = (Thread) PARKED.getOpaque(consumerSlot);
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private Object mpqPoll() {
        if (opaque) {
            Object x = mpq.relaxedPoll();
            if (x != null) {
                if (mustFence) {
                    VarHandle.fullFence();
                }
                Thread t = (Thread) PARKED.getOpaque(producerSlot);
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
            return x;
        }
        Object x = mpq.relaxedPoll();
        if (checks && x != null) {
            if (mustFence) {
                VarHandle.fullFence();
            }
            Thread t = producerSlot.parked;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        return x;
    }

    /** A parked-thread slot like BBFlow's Waiter (never written here). */
    static final class Slot {
        volatile Thread parked;
    }
}
