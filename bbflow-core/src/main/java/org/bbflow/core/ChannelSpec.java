package org.bbflow.core;

import java.util.Objects;

/**
 * The kind, capacity and wait strategy of the channels of an edge (or of every edge of a flow).
 * Immutable; the {@code with...} methods return a copy.
 *
 * <pre>{@code
 * Pipeline.of(source, worker).then(sink, ChannelSpec.bounded(64).withWaitStrategy(WaitStrategy.blocking()));
 * }</pre>
 */
public final class ChannelSpec {
    private static final ChannelSpec DEFAULT = new ChannelSpec(Channel.Kind.SPSC, Channel.DEFAULT_CAPACITY, null);

    private final Channel.Kind kind;
    private final int capacity;
    private final WaitStrategy waitStrategy;

    private ChannelSpec(Channel.Kind kind, int capacity, WaitStrategy waitStrategy) {
        this.kind = kind;
        this.capacity = capacity;
        this.waitStrategy = waitStrategy;
    }

    /**
     * Bounded SPSC channels of {@link Channel#DEFAULT_CAPACITY}, the flow's wait strategy.
     *
     * @return the default specification
     */
    public static ChannelSpec defaults() {
        return DEFAULT;
    }

    /**
     * Bounded SPSC channels of the given capacity (at least 1, rounded up to a power of two; 1 is one slot).
     *
     * @param capacity the least capacity of each channel
     * @return the specification
     */
    public static ChannelSpec bounded(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("channel capacity must be >= 1, got " + capacity);
        }
        return new ChannelSpec(Channel.Kind.SPSC, capacity, null);
    }

    /**
     * Unbounded SPSC channels: producers never wait, memory is the limit.
     *
     * @return the specification
     */
    public static ChannelSpec unbounded() {
        return new ChannelSpec(Channel.Kind.SPSC_UNBOUNDED, Integer.MAX_VALUE, null);
    }

    /**
     * One bounded MPSC channel shared by all producers of a many-to-one edge instead of one SPSC
     * channel each. Items arrive first-come; the receiving node's {@link NodeContext#inputIndex()}
     * is then -1, and collector policies that read inputs in turn (round-robin, gather, ordered)
     * refuse it.
     *
     * @param capacity the least capacity of the shared channel, at least 1
     * @return the specification
     */
    public static ChannelSpec mpsc(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("channel capacity must be >= 1, got " + capacity);
        }
        return new ChannelSpec(Channel.Kind.MPSC, capacity, null);
    }

    /**
     * A copy whose channels wait with the given strategy (both the producer and consumer side).
     *
     * @param strategy the wait strategy
     * @return the new specification
     */
    public ChannelSpec withWaitStrategy(WaitStrategy strategy) {
        return new ChannelSpec(kind, capacity, Objects.requireNonNull(strategy, "strategy"));
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
    public ChannelSpec waitStrategy(WaitStrategy strategy) {
        return withWaitStrategy(strategy);
    }

    Channel.Kind kind() {
        return kind;
    }

    int capacity() {
        return capacity;
    }

    /** The wait strategy of this edge, or null to use the flow's. */
    WaitStrategy waitStrategyOrNull() {
        return waitStrategy;
    }

    @Override
    public String toString() {
        return kind + (kind == Channel.Kind.SPSC_UNBOUNDED ? "" : "(" + capacity + ")")
                + (waitStrategy == null ? "" : " " + waitStrategy);
    }
}
