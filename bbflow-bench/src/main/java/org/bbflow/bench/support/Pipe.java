package org.bbflow.bench.support;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.bbflow.bench.baseline.ThesisChannel;
import org.bbflow.core.Channel;
import org.jctools.queues.SpscArrayQueue;

/**
 * A one-way, one-producer one-consumer hand-off with waiting {@link #send}/{@link #receive}, so
 * that every queue is driven by the same benchmark code. Implementations, by {@link #create} name:
 * <ul>
 *   <li>{@code bbflow-busyspin}, {@code bbflow-backoff}, {@code bbflow-blocking}: BBFlow's
 *       {@link Channel#spsc(int)} with that wait strategy, {@code put}/{@code take};</li>
 *   <li>{@code jctools}: a raw JCTools {@link SpscArrayQueue}, {@code offer}/{@code poll} in a
 *       {@link Thread#onSpinWait()} loop (the floor BBFlow's channel is built on);</li>
 *   <li>{@code abq}, {@code lbq}: {@link ArrayBlockingQueue}, {@link LinkedBlockingQueue}
 *       ({@code put}/{@code take}; the latter is the thesis's blocking channel);</li>
 *   <li>{@code thesis}: {@link ThesisChannel}, the thesis's non-blocking channel.</li>
 * </ul>
 * Two diagnostic variants (not in the default parameter lists) separate the costs of BBFlow's
 * layer: {@code jctools-mpq} spins on {@code relaxedOffer}/{@code relaxedPoll} through the
 * {@code MessagePassingQueue} interface as {@code Channel} does; {@code jctools-mpq-checks} adds
 * exactly the per-item checks of {@code Channel.offer}/{@code poll} (closed flag, fence flag,
 * volatile read of the peer's parked-thread slot), without the rest of {@code Channel}.
 */
public interface Pipe {
    /** All implementation names, in table order. */
    String[] NAMES = {"bbflow-busyspin", "bbflow-backoff", "bbflow-blocking", "jctools", "abq", "lbq", "thesis"};

    /** Sends an item, waiting while the pipe is full. */
    void send(Object item);

    /** Receives the next item, waiting while the pipe is empty. */
    Object receive();

    /** A pipe of the given implementation and capacity. */
    static Pipe create(String impl, int capacity) {
        switch (impl) {
            case "bbflow-busyspin": return bbflow(capacity, "busyspin");
            case "bbflow-backoff": return bbflow(capacity, "backoff");
            case "bbflow-blocking": return bbflow(capacity, "blocking");
            case "jctools": return new JcPipe(capacity);
            case "abq": return new BqPipe(new ArrayBlockingQueue<>(capacity));
            case "lbq": return new BqPipe(new LinkedBlockingQueue<>(capacity));
            case "thesis": return new ThesisPipe(capacity);
            case "jctools-mpq": return new MpqPipe(capacity, false);
            case "jctools-mpq-checks": return new MpqPipe(capacity, true);
            default: throw new IllegalArgumentException("unknown pipe '" + impl + "'");
        }
    }

    private static Pipe bbflow(int capacity, String strategy) {
        Channel<Object> c = Channel.spsc(capacity).waitStrategy(Strategies.of(strategy));
        return new Pipe() {
            @Override
            public void send(Object item) {
                c.put(item);
            }

            @Override
            public Object receive() {
                return c.take();
            }
        };
    }

    /** Raw JCTools: spin on offer/poll. */
    final class JcPipe implements Pipe {
        private final SpscArrayQueue<Object> q;

        JcPipe(int capacity) {
            q = new SpscArrayQueue<>(capacity);
        }

        @Override
        public void send(Object item) {
            while (!q.offer(item)) {
                Thread.onSpinWait();
            }
        }

        @Override
        public Object receive() {
            Object x;
            while ((x = q.poll()) == null) {
                Thread.onSpinWait();
            }
            return x;
        }
    }

    /** A java.util.concurrent blocking queue. */
    final class BqPipe implements Pipe {
        private final BlockingQueue<Object> q;

        BqPipe(BlockingQueue<Object> q) {
            this.q = q;
        }

        @Override
        public void send(Object item) {
            try {
                q.put(item);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public Object receive() {
            try {
                return q.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The thesis's non-blocking channel. */
    final class ThesisPipe implements Pipe {
        private final ThesisChannel<Object> c;

        ThesisPipe(int capacity) {
            c = new ThesisChannel<>(capacity);
        }

        @Override
        public void send(Object item) {
            c.put(item);
        }

        @Override
        public Object receive() {
            return c.take();
        }
    }

    /** Diagnostic: JCTools through MessagePassingQueue's relaxed calls, optionally with Channel's per-item checks. */
    final class MpqPipe implements Pipe {
        private final org.jctools.queues.MessagePassingQueue<Object> q;
        private final boolean checks;
        private final Slot producerSlot = new Slot();
        private final Slot consumerSlot = new Slot();
        private volatile boolean closed;
        private boolean mustFence;

        MpqPipe(int capacity, boolean checks) {
            q = new SpscArrayQueue<>(capacity);
            this.checks = checks;
        }

        @Override
        public void send(Object item) {
            if (checks) {
                if (item == null || closed) {
                    throw new IllegalStateException();
                }
            }
            while (!q.relaxedOffer(item)) {
                Thread.onSpinWait();
            }
            if (checks) {
                if (mustFence) {
                    java.lang.invoke.VarHandle.fullFence();
                }
                Thread t = consumerSlot.parked;
                if (t != null) {
                    java.util.concurrent.locks.LockSupport.unpark(t);
                }
            }
        }

        @Override
        public Object receive() {
            Object x;
            while ((x = q.relaxedPoll()) == null) {
                Thread.onSpinWait();
            }
            if (checks) {
                if (mustFence) {
                    java.lang.invoke.VarHandle.fullFence();
                }
                Thread t = producerSlot.parked;
                if (t != null) {
                    java.util.concurrent.locks.LockSupport.unpark(t);
                }
            }
            return x;
        }

        /** A parked-thread slot like BBFlow's Waiter (never written here). */
        static final class Slot {
            volatile Thread parked;
        }
    }
}
