package org.bbflow.core.ipc;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.agrona.concurrent.IdleStrategy;
import org.bbflow.core.WaitStrategy;

/**
 * Settings of an inter-process channel endpoint; an immutable value whose {@code withX} methods return a copy.
 *
 * <ul>
 *   <li>{@link #withCapacity(int)}: ring size in bytes, a power of two (default 1 MiB); a record may be at
 *       most capacity / 8 bytes. Used by the creator (the receiver) only; openers read it from the
 *       header.</li>
 *   <li>{@link #withProducers(int)}: how many producers will attach (default 1). One producer uses
 *       Agrona's {@code OneToOneRingBuffer}, more use the {@code ManyToOneRingBuffer}. The stream ends
 *       when all of them closed (or died). Creator only.</li>
 *   <li>{@link #withWaitStrategy(WaitStrategy)}: how an endpoint waits, with the same strategies as
 *       in-process channels (default {@link WaitStrategy#backoff()}: spin, yield, then park up to
 *       1 ms). A thread cannot be woken by another process, so {@link WaitStrategy#blocking()}
 *       sleeps 1 ms at a time; {@link #withIdleStrategy(Supplier)} takes any Agrona idle strategy.</li>
 *   <li>{@link #withPeerTimeout(Duration)}: after this long without progress an endpoint checks whether
 *       its peer process is still alive (default 1 s). A dead producer's unfinished claim is then
 *       skipped with Agrona's {@code unblock()}.</li>
 *   <li>{@link #withEndOnProducerLoss(boolean)}: when every producer is closed or dead and at least one
 *       died, the receiver either throws {@link IpcPeerLostException} (default) or ends the stream
 *       normally and reports the loss through {@link IpcReceiver#lostProducers()}.</li>
 * </ul>
 */
public final class IpcOptions {
    private static final IpcOptions DEFAULTS = new IpcOptions(1 << 20, 1,
        WaitStrategy.backoff()::newIdleStrategy, Duration.ofSeconds(1), false);

    private final int capacity;
    private final int producers;
    private final Supplier<? extends IdleStrategy> idleStrategy;
    private final Duration peerTimeout;
    private final boolean endOnProducerLoss;

    private IpcOptions(int capacity, int producers, Supplier<? extends IdleStrategy> idleStrategy, Duration peerTimeout,
                       boolean endOnProducerLoss) {
        this.capacity = capacity;
        this.producers = producers;
        this.idleStrategy = idleStrategy;
        this.peerTimeout = peerTimeout;
        this.endOnProducerLoss = endOnProducerLoss;
    }

    /**
     * The defaults: 1 MiB, one producer, backoff waiting, 1 s peer timeout, fail on producer loss.
     *
     * @return the default options
     */
    public static IpcOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @param bytes ring capacity, a power of two in [1 KiB, 1 GiB]
     * @return a copy with that capacity
     */
    public IpcOptions withCapacity(int bytes) {
        if (bytes < 1024 || Integer.bitCount(bytes) != 1 || bytes > (1 << 30)) {
            throw new IllegalArgumentException("capacity must be a power of two in [1 KiB, 1 GiB], got " + bytes);
        }
        return new IpcOptions(bytes, producers, idleStrategy, peerTimeout, endOnProducerLoss);
    }

    /**
     * The former name of {@link #withCapacity(int)}.
     *
     * @param bytes see there
     * @return what {@code withCapacity} returns
     * @deprecated use {@link #withCapacity(int)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions capacity(int bytes) {
        return withCapacity(bytes);
    }

    /**
     * @param count number of producers that will attach, in [1, 62]
     * @return a copy with that producer count
     */
    public IpcOptions withProducers(int count) {
        if (count < 1 || count > IpcFile.MAX_PRODUCERS) {
            throw new IllegalArgumentException("producers must be in [1, " + IpcFile.MAX_PRODUCERS + "], got " + count);
        }
        return new IpcOptions(capacity, count, idleStrategy, peerTimeout, endOnProducerLoss);
    }

    /**
     * The former name of {@link #withProducers(int)}.
     *
     * @param count see there
     * @return what {@code withProducers} returns
     * @deprecated use {@link #withProducers(int)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions producers(int count) {
        return withProducers(count);
    }

    /**
     * @param strategy how each endpoint waits (see {@link WaitStrategy#newIdleStrategy()})
     * @return a copy with that wait strategy
     */
    public IpcOptions withWaitStrategy(WaitStrategy strategy) {
        Objects.requireNonNull(strategy, "strategy");
        return withIdleStrategy(strategy::newIdleStrategy);
    }

    /**
     * The former name of {@link #withWaitStrategy(WaitStrategy)}.
     *
     * @param strategy see there
     * @return what {@code withWaitStrategy} returns
     * @deprecated use {@link #withWaitStrategy(WaitStrategy)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions waitStrategy(WaitStrategy strategy) {
        return withWaitStrategy(strategy);
    }

    /**
     * @param strategy makes one Agrona idle strategy per endpoint
     * @return a copy with that idle strategy
     */
    public IpcOptions withIdleStrategy(Supplier<? extends IdleStrategy> strategy) {
        Objects.requireNonNull(strategy, "strategy");
        return new IpcOptions(capacity, producers, strategy, peerTimeout, endOnProducerLoss);
    }

    /**
     * The former name of {@link #withIdleStrategy(Supplier<? extends IdleStrategy>)}.
     *
     * @param strategy see there
     * @return what {@code withIdleStrategy} returns
     * @deprecated use {@link #withIdleStrategy(Supplier<? extends IdleStrategy>)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions idleStrategy(Supplier<? extends IdleStrategy> strategy) {
        return withIdleStrategy(strategy);
    }

    /**
     * @param timeout silence after which the peer's liveness is checked; positive, at most 365 days
     *     (it is counted in nanoseconds, which a long holds for 292 years)
     * @return a copy with that timeout
     */
    public IpcOptions withPeerTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("peerTimeout must be positive, got " + timeout);
        }
        if (timeout.compareTo(Duration.ofDays(365)) > 0) {
            throw new IllegalArgumentException("peerTimeout must be at most 365 days, got " + timeout);
        }
        return new IpcOptions(capacity, producers, idleStrategy, timeout, endOnProducerLoss);
    }

    /**
     * The former name of {@link #withPeerTimeout(Duration)}.
     *
     * @param timeout see there
     * @return what {@code withPeerTimeout} returns
     * @deprecated use {@link #withPeerTimeout(Duration)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions peerTimeout(Duration timeout) {
        return withPeerTimeout(timeout);
    }

    /**
     * @param end true: a dead producer ends the stream normally (loss reported); false: the receiver throws
     * @return a copy with that setting
     */
    public IpcOptions withEndOnProducerLoss(boolean end) {
        return new IpcOptions(capacity, producers, idleStrategy, peerTimeout, end);
    }

    /**
     * The former name of {@link #withEndOnProducerLoss(boolean)}.
     *
     * @param end see there
     * @return what {@code withEndOnProducerLoss} returns
     * @deprecated use {@link #withEndOnProducerLoss(boolean)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public IpcOptions endOnProducerLoss(boolean end) {
        return withEndOnProducerLoss(end);
    }

    /** @return ring capacity in bytes */
    public int capacity() {
        return capacity;
    }

    /** @return number of producers */
    public int producers() {
        return producers;
    }

    /** @return the idle strategy factory */
    public Supplier<? extends IdleStrategy> idleStrategy() {
        return idleStrategy;
    }

    /** @return the peer liveness timeout */
    public Duration peerTimeout() {
        return peerTimeout;
    }

    /** @return whether producer loss ends the stream normally */
    public boolean endOnProducerLoss() {
        return endOnProducerLoss;
    }

    IdleStrategy newIdleStrategy() {
        return Objects.requireNonNull(idleStrategy.get(), "idle strategy supplier returned null");
    }

    @Override
    public String toString() {
        return "IpcOptions[capacity=" + capacity + ", producers=" + producers + ", peerTimeout=" + peerTimeout
            + ", endOnProducerLoss=" + endOnProducerLoss + "]";
    }
}
