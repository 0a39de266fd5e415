package org.bbflow.core;

import java.util.Objects;

/**
 * Flow-wide defaults: the wait strategy and the channels of every edge that does not set its own.
 * Immutable; the setters return a copy.
 *
 * <pre>{@code
 * Flow.start(pipeline, FlowOptions.defaults().waitStrategy(WaitStrategy.blocking()));
 * }</pre>
 */
public final class FlowOptions {
    private static final FlowOptions DEFAULTS = new FlowOptions(WaitStrategy.backoff(), ChannelSpec.defaults(), false);

    private final WaitStrategy waitStrategy;
    private final ChannelSpec channels;
    private final boolean daemon;

    private FlowOptions(WaitStrategy waitStrategy, ChannelSpec channels, boolean daemon) {
        this.waitStrategy = waitStrategy;
        this.channels = channels;
        this.daemon = daemon;
    }

    /**
     * Backoff waiting, bounded SPSC channels of {@link Channel#DEFAULT_CAPACITY}, non-daemon threads.
     *
     * @return the default options
     */
    public static FlowOptions defaults() {
        return DEFAULTS;
    }

    /**
     * The wait strategy of every node whose edges do not set one.
     *
     * @param strategy the wait strategy
     * @return a copy with that strategy
     */
    public FlowOptions waitStrategy(WaitStrategy strategy) {
        return new FlowOptions(Objects.requireNonNull(strategy, "strategy"), channels, daemon);
    }

    /**
     * The channels of every edge that does not set its own.
     *
     * @param spec the channels' settings
     * @return a copy with those channels
     */
    public FlowOptions channels(ChannelSpec spec) {
        return new FlowOptions(waitStrategy, Objects.requireNonNull(spec, "spec"), daemon);
    }

    /**
     * Whether node threads are daemon threads (default false: a running flow keeps the JVM alive,
     * so no item is silently lost at exit).
     *
     * @param daemonThreads whether node threads are daemon threads
     * @return a copy with that setting
     */
    public FlowOptions daemon(boolean daemonThreads) {
        return new FlowOptions(waitStrategy, channels, daemonThreads);
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    ChannelSpec channels() {
        return channels;
    }

    boolean daemon() {
        return daemon;
    }
}
