package org.bbflow.core;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Flow-wide defaults: the wait strategy and the channels of every edge that does not set its own.
 * Immutable; the {@code withX} methods return a copy.
 *
 * <pre>{@code
 * Flow.start(pipeline, FlowOptions.defaults().withWaitStrategy(WaitStrategy.blocking()));
 * }</pre>
 */
public final class FlowOptions {
    private static final FlowOptions DEFAULTS = new FlowOptions(WaitStrategy.backoff(), ChannelSpec.defaults(), false,
            null, null);

    private final WaitStrategy waitStrategy;
    private final ChannelSpec channels;
    private final boolean daemon;
    private final ThreadFactory threadFactory;
    /** Null for {@link ThreadMapping#none()}: a flow that does not pin loads no pinning class. */
    private final ThreadMapping threadMapping;

    private FlowOptions(WaitStrategy waitStrategy, ChannelSpec channels, boolean daemon, ThreadFactory threadFactory,
            ThreadMapping threadMapping) {
        this.waitStrategy = waitStrategy;
        this.channels = channels;
        this.daemon = daemon;
        this.threadFactory = threadFactory;
        this.threadMapping = threadMapping;
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
    public FlowOptions withWaitStrategy(WaitStrategy strategy) {
        return new FlowOptions(Objects.requireNonNull(strategy, "strategy"), channels, daemon, threadFactory,
                threadMapping);
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
    public FlowOptions waitStrategy(WaitStrategy strategy) {
        return withWaitStrategy(strategy);
    }

    /**
     * The channels of every edge that does not set its own.
     *
     * @param spec the channels' settings
     * @return a copy with those channels
     */
    public FlowOptions withChannels(ChannelSpec spec) {
        return new FlowOptions(waitStrategy, Objects.requireNonNull(spec, "spec"), daemon, threadFactory, threadMapping);
    }

    /**
     * The former name of {@link #withChannels(ChannelSpec)}.
     *
     * @param spec see there
     * @return what {@code withChannels} returns
     * @deprecated use {@link #withChannels(ChannelSpec)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public FlowOptions channels(ChannelSpec spec) {
        return withChannels(spec);
    }

    /**
     * Whether node threads are daemon threads (default false: a running flow keeps the JVM alive,
     * so no item is silently lost at exit).
     *
     * @param daemonThreads whether node threads are daemon threads
     * @return a copy with that setting
     */
    public FlowOptions withDaemon(boolean daemonThreads) {
        return new FlowOptions(waitStrategy, channels, daemonThreads, threadFactory, threadMapping);
    }

    /**
     * The former name of {@link #withDaemon(boolean)}.
     *
     * @param daemonThreads see there
     * @return what {@code withDaemon} returns
     * @deprecated use {@link #withDaemon(boolean)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public FlowOptions daemon(boolean daemonThreads) {
        return withDaemon(daemonThreads);
    }

    /**
     * Where node threads come from (default: a new platform thread per node). The factory is called
     * once per node, before any thread starts, and must return a new, unstarted thread that runs the
     * given task; the flow then names it after the node's block path (e.g.
     * {@code pipeline/farm[1]/worker-3}) and, if {@link #withDaemon(boolean) withDaemon(true)} was set, makes
     * it a daemon. Everything else (thread group, priority, context class loader, uncaught-exception
     * handler) is the factory's choice. A factory that throws, returns null, returns a started thread
     * or returns one thread for two nodes makes {@link Flow#start} fail with an
     * {@link IllegalStateException} before any node thread starts; so does a virtual thread for a node
     * that waits with {@link WaitStrategy#busySpin()} (nothing preempts a virtual thread: spinning nodes
     * would keep every carrier) or with a {@link #withThreadMapping thread mapping}.
     *
     * @param factory the thread factory, or null for the default
     * @return a copy of these options with the factory
     */
    public FlowOptions withThreadFactory(ThreadFactory factory) {
        return new FlowOptions(waitStrategy, channels, daemon, factory, threadMapping);
    }

    /**
     * The former name of {@link #withThreadFactory(ThreadFactory)}.
     *
     * @param factory see there
     * @return what {@code withThreadFactory} returns
     * @deprecated use {@link #withThreadFactory(ThreadFactory)}: every option object names its copy-returning methods
     *             {@code withX} (see docs/setup.md, "Versioning and public API")
     */
    @Deprecated(forRemoval = true, since = "0.1.0")
    public FlowOptions threadFactory(ThreadFactory factory) {
        return withThreadFactory(factory);
    }

    /**
     * Which CPU each node thread runs on (default {@link ThreadMapping#none()}: the OS places them).
     * Pinning works with any {@link #withThreadFactory(ThreadFactory) thread factory} of platform
     * threads: each node thread pins itself as it starts, before it runs node code. A factory that
     * makes virtual threads cannot be pinned (the call would pin the carrier thread):
     * {@link Flow#start} refuses that pair with an {@link IllegalStateException}.
     *
     * <pre>{@code
     * Flow.start(pipeline, FlowOptions.defaults().withThreadMapping(ThreadMapping.roundRobin()));
     * }</pre>
     *
     * @param mapping the mapping
     * @return a copy with that mapping
     */
    public FlowOptions withThreadMapping(ThreadMapping mapping) {
        Objects.requireNonNull(mapping, "mapping");
        return new FlowOptions(waitStrategy, channels, daemon, threadFactory, mapping.pins() ? mapping : null);
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

    ThreadFactory threadFactory() {
        return threadFactory;
    }

    /** The pinning mapping, or null if node threads are not pinned. */
    ThreadMapping threadMapping() {
        return threadMapping;
    }
}
