package org.bbflow.core;

import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * Factories for the common nodes: sources, map, filter, flatMap, sinks, stateful nodes, and
 * adapters to and from a {@link Channel}. Each call returns a new node instance; a node instance
 * belongs to one flow at a time, so a farm takes a factory ({@code () -> Nodes.map(...)}).
 */
public final class Nodes {
    private Nodes() {
    }

    /** A function that may throw. */
    @FunctionalInterface
    public interface ThrowingFunction<A, R> {
        /**
         * Applies the function.
         *
         * @param a the argument
         * @return the result
         * @throws Exception to fail the flow
         */
        R apply(A a) throws Exception;
    }

    /** A predicate that may throw. */
    @FunctionalInterface
    public interface ThrowingPredicate<A> {
        /**
         * Tests the argument.
         *
         * @param a the argument
         * @return whether the argument is accepted
         * @throws Exception to fail the flow
         */
        boolean test(A a) throws Exception;
    }

    /** A consumer that may throw. */
    @FunctionalInterface
    public interface ThrowingConsumer<A> {
        /**
         * Consumes the argument.
         *
         * @param a the argument
         * @throws Exception to fail the flow
         */
        void accept(A a) throws Exception;
    }

    /** A two-argument consumer that may throw. */
    @FunctionalInterface
    public interface ThrowingBiConsumer<A, B> {
        /**
         * Consumes the arguments.
         *
         * @param a the first argument
         * @param b the second argument
         * @throws Exception to fail the flow
         */
        void accept(A a, B b) throws Exception;
    }

    /** A three-argument consumer that may throw. */
    @FunctionalInterface
    public interface ThrowingTriConsumer<A, B, C> {
        /**
         * Consumes the arguments.
         *
         * @param a the first argument
         * @param b the second argument
         * @param c the third argument
         * @throws Exception to fail the flow
         */
        void accept(A a, B b, C c) throws Exception;
    }

    /**
     * Whether a {@link #toChannel} or {@link #fromChannel} node was ever made in this JVM: only then
     * does a flow's start look for them ({@link PlanCompiler}'s channel ends), since looking would load
     * their classes into every first flow (the core guide, "A short-lived process").
     */
    static volatile boolean channelEndsMade;

    /**
     * A source whose generator sends the whole stream, then returns.
     *
     * @param <O> output item type
     * @param generator sends the stream to the outbox it is given
     * @return the source
     */
    public static <O> Source<O> source(ThrowingConsumer<Outbox<O>> generator) {
        Objects.requireNonNull(generator, "generator");
        return new Source<>() {
            @Override
            public void generate(Outbox<O> out) throws Exception {
                generator.accept(out);
            }

            @Override
            public String name() {
                return "source";
            }
        };
    }

    /**
     * A source sending the items of an iterable in order.
     *
     * @param <T> item type
     * @param items the items to send
     * @return the source
     */
    public static <T> Source<T> fromIterable(Iterable<? extends T> items) {
        Objects.requireNonNull(items, "items");
        return new Source<>() {
            @Override
            public void generate(Outbox<T> out) {
                for (T t : items) {
                    out.send(t);
                }
            }

            @Override
            public String name() {
                return "source";
            }
        };
    }

    /**
     * A source sending {@code from, from+1, ..., to} (inclusive) as boxed longs.
     *
     * @param from the first value
     * @param toInclusive the last value
     * @return the source
     */
    public static Source<Long> range(long from, long toInclusive) {
        return new Source<>() {
            @Override
            public void generate(Outbox<Long> out) {
                for (long i = from; i <= toInclusive; i++) {
                    out.send(i);
                    if (i == Long.MAX_VALUE) {
                        break;
                    }
                }
            }

            @Override
            public String name() {
                return "range";
            }
        };
    }

    /**
     * A source that forwards what arrives on a channel until the channel's end of stream. The
     * source is its channel's only consumer: a second {@code fromChannel} node on the same channel, in
     * the same flow or in another flow still running, is refused at start; a flow started after this
     * one has ended may drain what is left. Other threads (or another flow) produce and
     * {@link Channel#close()} it. If the flow feeding the channel ({@link #toChannel}) failed or was
     * cancelled, this source ends its stream with that error once it has forwarded the items that flow
     * sent (a {@link StreamFailure}): they still reach the sinks, then its own flow fails.
     *
     * @param <T> item type
     * @param channel the channel to read
     * @return the source
     */
    public static <T> Source<T> fromChannel(Channel<T> channel) {
        Objects.requireNonNull(channel, "channel");
        channelEndsMade = true;
        return new ChannelSource<>(channel);
    }

    /**
     * A sink that puts every item on a channel (waiting while it is full) and closes the channel at
     * end of stream, so another thread can {@link Channel#take()} the results. It is the channel's only
     * producer: a second {@code toChannel} node on the same channel, in one flow (a farm of them, say)
     * or in another flow still running, is refused at start, since the first to end would end the
     * stream for both; gather the items into one node first. A channel carries one stream: once
     * closed (this flow ended, however), a flow filling it is refused at start too. If the flow fails
     * or is cancelled first, the sink still ends the channel, as incomplete: a reader then gets the items
     * sent, then an {@link IllegalStateException} from {@code take()}, never a wait for ever nor a
     * clean end of stream. So does a stream a source cut with a {@link StreamFailure}, though it
     * reaches this sink's {@code onEos}. A flow whose sink here would close a ring of channels with
     * flows still running (each draining, with {@link #fromChannel}, a channel another fills
     * downstream) is refused at start: none of them could ever end.
     *
     * @param <T> item type
     * @param channel the channel to fill
     * @return the sink
     */
    public static <T> Node<T, Void> toChannel(Channel<T> channel) {
        Objects.requireNonNull(channel, "channel");
        channelEndsMade = true;
        return new ChannelSink<>(channel);
    }

    /**
     * A node sending {@code f(item)} for every item.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @param f the function, applied to every item
     * @return the node
     * @throws IllegalArgumentException at run time if {@code f} returns null (use {@link #flatMap}
     *         or {@link #filter} to drop items)
     */
    public static <I, O> Node<I, O> map(ThrowingFunction<? super I, ? extends O> f) {
        Objects.requireNonNull(f, "f");
        return new Node<>() {
            @Override
            public void onItem(I item, Outbox<O> out) throws Exception {
                O r = f.apply(item);
                if (r == null) {
                    throw new IllegalArgumentException("map function returned null for item " + item);
                }
                out.send(r);
            }

            @Override
            public String name() {
                return "map";
            }
        };
    }

    /**
     * A node forwarding the items the predicate accepts.
     *
     * @param <T> item type
     * @param p the predicate; items it accepts go on
     * @return the node
     */
    public static <T> Node<T, T> filter(ThrowingPredicate<? super T> p) {
        Objects.requireNonNull(p, "p");
        return new Node<>() {
            @Override
            public void onItem(T item, Outbox<T> out) throws Exception {
                if (p.test(item)) {
                    out.send(item);
                }
            }

            @Override
            public String name() {
                return "filter";
            }
        };
    }

    /**
     * A node that may send any number of results per item.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @param f called per item with the node's outbox
     * @return the node
     */
    public static <I, O> Node<I, O> flatMap(ThrowingBiConsumer<? super I, Outbox<O>> f) {
        Objects.requireNonNull(f, "f");
        return new Node<>() {
            @Override
            public void onItem(I item, Outbox<O> out) throws Exception {
                f.accept(item, out);
            }

            @Override
            public String name() {
                return "flatMap";
            }
        };
    }

    /**
     * A node forwarding every item unchanged.
     *
     * @param <T> item type
     * @return the node
     */
    public static <T> Node<T, T> identity() {
        return new Identity<>();
    }

    /**
     * A node consuming every item; it has no output.
     *
     * @param <T> item type
     * @param c called per item
     * @return the sink
     */
    public static <T> Node<T, Void> sink(ThrowingConsumer<? super T> c) {
        Objects.requireNonNull(c, "c");
        return new Node<>() {
            @Override
            public void onItem(T item, Outbox<Void> out) throws Exception {
                c.accept(item);
            }

            @Override
            public String name() {
                return "sink";
            }
        };
    }

    /**
     * A sink folding every item into {@code collector}; its {@link CollectorSink#result()} holds the
     * collector's result once the flow has ended normally. {@link Block#run(Collector)}
     * does this for the common case (end a block in a collector, run it, return the result).
     *
     * @param <T> item type
     * @param <R> result type
     * @param collector the collector (a {@link java.util.stream.Collectors} one, or any other)
     * @return the collecting sink
     */
    public static <T, R> CollectorSink<T, R> collect(Collector<? super T, ?, ? extends R> collector) {
        return new CollectorSink<>(collector);
    }

    /**
     * A stateful node: {@code state} is created in {@code init} on the node's thread, {@code onItem}
     * sees it with every item, {@code onEos} at the end (e.g. to send an aggregate).
     *
     * @param <S> state type
     * @param <I> input item type
     * @param <O> output item type
     * @param state creates the node's private state
     * @param onItem called per item with the state
     * @param onEos called at end of stream with the state; may be null
     * @return the node
     */
    public static <S, I, O> Node<I, O> stateful(Supplier<? extends S> state,
                                                ThrowingTriConsumer<S, ? super I, Outbox<O>> onItem,
                                                ThrowingBiConsumer<S, Outbox<O>> onEos) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(onItem, "onItem");
        return new Node<>() {
            S s;

            @Override
            public void init(NodeContext context) {
                s = state.get();
            }

            @Override
            public void onItem(I item, Outbox<O> out) throws Exception {
                onItem.accept(s, item, out);
            }

            @Override
            public void onEos(Outbox<O> out) throws Exception {
                if (onEos != null) {
                    onEos.accept(s, out);
                }
            }

            @Override
            public String name() {
                return "stateful";
            }
        };
    }

    /**
     * A node that runs {@code inner} on its thread through {@code wrapper}, for code that wraps a
     * node it was given (a decorator, an {@link org.bbflow.core.par.Accelerator}'s worker): every call
     * goes to {@code wrapper}, which calls {@code inner} as it sees fit, and the flow holds
     * {@code inner} as one of its own nodes. So {@code inner} placed a second time in the flow, or
     * in another flow while this one runs, is refused at start as for any node, and is free again
     * once this node has ended, however the flow ended. The result is a plain node (not a source),
     * named after {@code wrapper}; it costs one more call per item.
     *
     * @param <I> input item type
     * @param <O> output item type
     * @param inner the node {@code wrapper} runs
     * @param wrapper the node that runs it, a different instance
     * @return the node to place in the flow
     * @throws IllegalArgumentException if {@code wrapper} is {@code inner} or a source
     */
    public static <I, O> Node<I, O> wrapping(Node<?, ?> inner, Node<I, O> wrapper) {
        Objects.requireNonNull(inner, "inner");
        Objects.requireNonNull(wrapper, "wrapper");
        if (inner == wrapper) {
            throw new IllegalArgumentException("node '" + inner.name() + "' cannot wrap itself");
        }
        if (wrapper instanceof Source) {
            throw new IllegalArgumentException("a wrapping node cannot be a source: " + wrapper.name());
        }
        return new Wrapping<>(inner, wrapper);
    }

    /** The default emitter and collector: forwards items. */
    static final class Identity<T> implements Node<T, T> {
        private final String name;

        Identity() {
            this("identity");
        }

        Identity(String name) {
            this.name = name;
        }

        @Override
        public void onItem(T item, Outbox<T> out) {
            out.send(item);
        }

        @Override
        public String name() {
            return name;
        }
    }

    static final class ChannelSource<T> implements Source<T> {
        final Channel<T> channel;
        private NodeContext context;
        private Idler idler;

        ChannelSource(Channel<T> channel) {
            this.channel = channel;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
        }

        @Override
        public void generate(Outbox<T> out) throws StreamFailure {
            Link link = channel.link();
            WaitCondition ready = () -> !link.isEmpty() || link.isClosed() || context.isCancelled();
            while (true) {
                T x = channel.poll();
                if (x != null) {
                    out.send(x);
                    if (idler != null) {
                        idler.reset();
                    }
                    continue;
                }
                if (channel.isClosed()) {
                    x = channel.poll();
                    if (x == null) {
                        try {
                            channel.checkAborted();
                        } catch (IllegalStateException e) {
                            // the stream ends with the feeding flow's failure, after its items: they
                            // go on to the sinks (any other exception would cancel and drop them)
                            throw new StreamFailure(e);
                        }
                        return;
                    }
                    out.send(x);
                    continue;
                }
                if (context.isCancelled()) {
                    return;
                }
                if (idler == null) {
                    idler = channel.consumerIdler(); // the channel's own strategy, which its producer matches
                }
                idler.idle(link.consumerWaiter, ready);
            }
        }

        @Override
        public String name() {
            return "fromChannel";
        }
    }

    static final class ChannelSink<T> implements Node<T, Void> {
        final Channel<T> channel;
        /** The stream ended and the channel was closed (this flow); otherwise close() aborts it. */
        private boolean ended;
        private NodeContext context;

        ChannelSink(Channel<T> channel) {
            this.channel = channel;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
            ended = false;
        }

        @Override
        public void onItem(T item, Outbox<Void> out) {
            channel.put(item);
        }

        /**
         * A source's stream cut by a {@link StreamFailure} ends every node's stream normally, but it is
         * no whole stream: then the channel ends as incomplete too (in {@link #close()}), as a
         * {@link CollectorSink} publishes no result.
         */
        @Override
        public void onEos(Outbox<Void> out) {
            if (context.flowFailed()) {
                return;
            }
            channel.close();
            ended = true;
        }

        /** A flow that failed or was cancelled before end of stream ends the channel as incomplete. */
        @Override
        public void close() {
            context = null;
            if (!ended) {
                channel.abort();
            }
        }

        @Override
        public String name() {
            return "toChannel";
        }
    }
}
