package org.bbflow.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a node waits when its inputs are empty or an output channel is full (FastFlow's
 * {@code bb_settings.backOff}, Agrona's idle strategies).
 *
 * <ul>
 *   <li>{@link #busySpin()}: never gives the core away. Lowest latency, one core burnt per waiting
 *       node; only sensible with no more nodes than cores.</li>
 *   <li>{@link #backoff()} (the default): spins briefly, then yields, then parks with pauses that
 *       double up to a limit ({@code maxPark}, 1 ms by default). The peer unparks a parked thread
 *       when it produces or consumes, but without a memory fence (the per-item path stays
 *       fence-free): a wake-up that races with the waiter falling asleep can be missed, and that
 *       waiter then sleeps until its current park ends, at most {@code maxPark}. So a backoff wait
 *       outlives its condition by at most {@code maxPark}, usually by microseconds. On a plain
 *       one-to-one edge (a stage's only output into the next stage's only input) a backoff node
 *       that finds the channel empty or full yields first, then spins, yields and parks as above
 *       (see the core guide, "Yield first on a plain edge").</li>
 *   <li>{@link #blocking()}: parks at once and is woken by the other side. For idle-heavy flows and
 *       for many more nodes than cores. The peer pays a full memory fence per item so that no
 *       wake-up is ever missed (Dekker handshake: the waiter publishes itself, fences and re-checks
 *       before parking; the peer changes the channel, fences and then looks for a parked thread);
 *       every producer of a many-producer channel waits in its own slot. A park is still bounded
 *       (100 ms) as a safety net, but no wait relies on it.</li>
 *   <li>{@link #of(Supplier)}: any Agrona {@link IdleStrategy}, e.g. {@code SleepingIdleStrategy}.</li>
 * </ul>
 *
 * A strategy is a stateless description; each waiting thread gets its own state from it. Set one per
 * flow with {@link FlowOptions#withWaitStrategy(WaitStrategy)} and per edge with
 * {@link ChannelSpec#withWaitStrategy(WaitStrategy)}.
 */
public abstract class WaitStrategy {
    /**
     * Safety bound on a single park of the blocking strategy; wake-ups do not depend on it. Not final
     * so that tests can raise it: a lost wake-up then shows as a put or take that never returns.
     */
    static volatile long blockingParkNanos = 100_000_000L;

    private final String description;

    WaitStrategy(String description) {
        this.description = description;
    }

    /** A fresh per-thread waiting state. */
    abstract Idler newIdler();

    /**
     * This strategy as an Agrona {@link IdleStrategy}, for waits where no peer can wake the waiting
     * thread, e.g. a channel to another process: {@link #blocking()} then parks 1 ms at a time.
     * Each call returns a new instance (idle strategies keep per-thread state).
     *
     * @return a new idle strategy
     */
    public abstract IdleStrategy newIdleStrategy();

    /** Whether the peer of a waiter using this strategy must fence before looking for a parked thread. */
    boolean peerMustFence() {
        return false;
    }

    /**
     * Whether a thread waiting with this strategy only spins, never yielding nor parking
     * ({@link #busySpin()}): such a wait on a virtual thread would keep its carrier, so
     * {@link Flow#start} refuses it there.
     */
    boolean neverYields() {
        return false;
    }

    /** Whether a thread waiting with this strategy can be woken by its peer (it parks in a {@link Waiter}). */
    boolean wakeable() {
        return true;
    }

    /**
     * Whether a node waiting with this strategy yields first, before its spins, when its plain
     * one-to-one edge is empty (it reads) or full (it sends): {@link Backoff} strategies that yield at
     * all. An empty or full plain channel means one side has caught up with the other. When the two
     * threads share a core (on a machine of few cores they often do for a while: the JIT's compiler
     * threads, or the scheduler placing a woken thread beside its waker), spinning holds the core the
     * peer needs; a yield hands it over at once. On a core of its own a yield returns in well under a
     * microsecond and lets the peer run ahead, so the next run of items crosses whole cache lines.
     * Measured on 2 cores: 10M items through a two-stage pipeline, 51.8 ms spinning first, 39.7 ms
     * yielding first; on one core 78-81 ms and 70 ms (docs/benchmarks.md, bench-results/generic-path).
     */
    boolean yieldsFirstOnPlainEdges() {
        return false;
    }

    /**
     * The strategy a node of a flow with more node threads than cores uses instead of this one:
     * this one, except the default {@link #backoff()}, which then spins 8 times instead of 64
     * before it yields (a spinning thread would hold a core another node needs).
     */
    WaitStrategy whenOversubscribed() {
        return this;
    }

    /**
     * Spins on {@link Thread#onSpinWait()} and never parks. A flow with more such node threads than
     * cores is allowed (as in FastFlow): it stays correct, a spinner is preempted by the OS in the
     * end, but it runs slowly, each spinner holding a core another node needs. On node threads from a
     * factory of virtual threads it is refused at start: nothing preempts a virtual thread, so spinners
     * would keep every carrier and the nodes they wait for would never run.
     *
     * @return the strategy
     */
    public static WaitStrategy busySpin() {
        return BusySpin.INSTANCE;
    }

    /**
     * The default: 64 spins, 16 yields, then parks from 1 µs doubling up to 1 ms. In a flow with more
     * node threads than the machine has cores, its nodes spin 8 times instead of 64 (and the
     * runtime's own spins before a wait, 32, become 4, except an on-demand emitter's wait for a free
     * worker): a spinning thread would hold a core another node needs. A backoff made with
     * {@link #backoff(int, int, Duration, Duration)} is kept as given.
     *
     * @return the strategy
     */
    public static WaitStrategy backoff() {
        return Backoff.DEFAULT;
    }

    /**
     * A backoff strategy with explicit limits.
     *
     * @param maxSpins spins before yielding, at least 0
     * @param maxYields yields before parking, at least 0
     * @param minPark the first park period, positive
     * @param maxPark the longest park period, at least {@code minPark}; it also bounds how late a
     *        wake-up missed while falling asleep is noticed, so keep it short (the default's is 1 ms)
     * @return the strategy
     * @throws IllegalArgumentException for negative counts, periods out of order or not positive, or a
     *         period a long of nanoseconds cannot hold
     */
    public static WaitStrategy backoff(int maxSpins, int maxYields, Duration minPark, Duration maxPark) {
        if (maxSpins < 0 || maxYields < 0) {
            throw new IllegalArgumentException("maxSpins and maxYields must be >= 0, got " + maxSpins + ", " + maxYields);
        }
        long min = parkNanos("minPark", minPark);
        long max = parkNanos("maxPark", maxPark);
        if (min <= 0 || max < min) {
            throw new IllegalArgumentException("need 0 < minPark <= maxPark, got " + minPark + ", " + maxPark);
        }
        return new Backoff(maxSpins, maxYields, min, max);
    }

    /**
     * A park period in nanoseconds, refused by name if a long cannot count it (above ~292 years:
     * {@code toNanos()} threw an ArithmeticException). No saturation: the longest park also bounds
     * how late a missed wake-up is noticed, so a period beyond any wait a flow could bear is a mistake.
     */
    private static long parkNanos(String argument, Duration period) {
        Objects.requireNonNull(period, argument);
        long nanos = TimeUnit.NANOSECONDS.convert(period);
        if (nanos == Long.MAX_VALUE || nanos == Long.MIN_VALUE) {
            throw new IllegalArgumentException(argument + " must be shorter than Long.MAX_VALUE nanoseconds (~292 years),"
                    + " got " + period);
        }
        return nanos;
    }

    /**
     * Parks at once; the other side of the channel unparks the waiting thread.
     *
     * @return the strategy
     */
    public static WaitStrategy blocking() {
        return Blocking.INSTANCE;
    }

    /**
     * Wraps an Agrona idle strategy; the supplier is called once per waiting thread. Such a strategy
     * is not woken by the peer: it must bound its own pauses.
     *
     * @param idleStrategy makes the idle strategy of each waiting thread
     * @return the strategy
     */
    public static WaitStrategy of(Supplier<? extends IdleStrategy> idleStrategy) {
        Objects.requireNonNull(idleStrategy, "idleStrategy");
        return Agrona.create(idleStrategy);
    }

    @Override
    public String toString() {
        return description;
    }

    // Every strategy class below is loaded only when used: the fields and factories that hand one out
    // are typed WaitStrategy, and what makes an Agrona idle strategy sits in AgronaIdleStrategies.
    // The bytecode verifier loads each class a method returns as another type, and a fresh JVM's
    // first flow is mostly class loading (the default flow needs only Backoff, and not Agrona's jar).

    private static final class BusySpin extends WaitStrategy {
        static final WaitStrategy INSTANCE = new BusySpin();

        BusySpin() {
            super("busy-spin");
        }

        @Override
        public IdleStrategy newIdleStrategy() {
            return AgronaIdleStrategies.busySpin();
        }

        @Override
        boolean wakeable() {
            return false;
        }

        @Override
        boolean neverYields() {
            return true;
        }

        @Override
        Idler newIdler() {
            return new Idler() {
                @Override
                void idle(Waiter self, WaitCondition condition) {
                    Thread.onSpinWait();
                }

                @Override
                void reset() {
                }
            };
        }
    }

    private static final class Backoff extends WaitStrategy {
        static final Backoff DEFAULT = new Backoff(64, 16, 1_000L, 1_000_000L);
        static final Backoff OVERSUBSCRIBED = new Backoff(8, 16, 1_000L, 1_000_000L);
        final int maxSpins;
        final int maxYields;
        final long minPark;
        final long maxPark;

        Backoff(int maxSpins, int maxYields, long minPark, long maxPark) {
            super("backoff(spins=" + maxSpins + ", yields=" + maxYields + ", park=" + minPark + ".." + maxPark + "ns)");
            this.maxSpins = maxSpins;
            this.maxYields = maxYields;
            this.minPark = minPark;
            this.maxPark = maxPark;
        }

        @Override
        public IdleStrategy newIdleStrategy() {
            return AgronaIdleStrategies.backoff(maxSpins, maxYields, minPark, maxPark);
        }

        @Override
        WaitStrategy whenOversubscribed() {
            return this == DEFAULT ? OVERSUBSCRIBED : this;
        }

        @Override
        boolean yieldsFirstOnPlainEdges() {
            return maxYields > 0;
        }

        @Override
        Idler newIdler() {
            return new Idler() {
                int spins;
                int yields;
                long park = minPark;

                @Override
                void idle(Waiter self, WaitCondition condition) {
                    if (spins < maxSpins) {
                        spins++;
                        Thread.onSpinWait();
                    } else if (yields < maxYields) {
                        yields++;
                        Thread.yield();
                    } else {
                        park(self, condition, park);
                        park = Math.min(park << 1, maxPark);
                    }
                }

                @Override
                void reset() {
                    spins = 0;
                    yields = 0;
                    park = minPark;
                }
            };
        }
    }

    private static final class Blocking extends WaitStrategy {
        static final WaitStrategy INSTANCE = new Blocking();

        Blocking() {
            super("blocking");
        }

        @Override
        public IdleStrategy newIdleStrategy() {
            return AgronaIdleStrategies.sleeping(1_000_000L);
        }

        @Override
        boolean peerMustFence() {
            return true;
        }

        @Override
        Idler newIdler() {
            return new Idler() {
                @Override
                void idle(Waiter self, WaitCondition condition) {
                    park(self, condition, blockingParkNanos);
                }

                @Override
                void reset() {
                }
            };
        }
    }

    private static final class Agrona extends WaitStrategy {
        final Supplier<? extends IdleStrategy> supplier;

        Agrona(Supplier<? extends IdleStrategy> supplier) {
            super("agrona");
            this.supplier = supplier;
        }

        /** This strategy around {@code supplier} (made here, not in {@link WaitStrategy#of}: see above). */
        static WaitStrategy create(Supplier<? extends IdleStrategy> supplier) {
            return new Agrona(supplier);
        }

        @Override
        public IdleStrategy newIdleStrategy() {
            return Objects.requireNonNull(supplier.get(), "idle strategy supplier returned null");
        }

        @Override
        boolean wakeable() {
            return false; // an Agrona idle strategy bounds its own pauses
        }

        @Override
        Idler newIdler() {
            IdleStrategy s = Objects.requireNonNull(supplier.get(), "idle strategy supplier returned null");
            return new Idler() {
                @Override
                void idle(Waiter self, WaitCondition condition) {
                    s.idle();
                }

                @Override
                void reset() {
                    s.reset();
                }
            };
        }
    }
}
