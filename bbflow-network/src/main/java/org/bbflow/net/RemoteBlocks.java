package org.bbflow.net;

import java.util.Objects;
import java.util.function.Supplier;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Source;

/**
 * Remote edges as ordinary blocks: an outlet node that sends its input stream to another JVM, and
 * an inlet source that emits the stream arriving from one. Put them at the ends of pipelines (or
 * as farm workers) to place stages in other processes or hosts.
 *
 * <pre>{@code
 * // JVM A (host-a)                                   // JVM B (host-b)
 * try (NetServer s = NetServer.bind(7000, opts)) {      Pipeline.of(
 *   Pipeline.of(                                        Nodes.range(0, n),
 *     RemoteBlocks.inlet(s, 1, Codec.longs()),          RemoteBlocks.outlet("host-a", 7000, 1, Codec.longs(), opts)
 *     Nodes.map((Long x) -> x * 2),                   ).run();
 *     Nodes.sink(System.out::println)).run();
 * }
 * }</pre>
 *
 * <p>End of stream crosses the wire: the outlet's {@code onEos} sends it and waits until the
 * receiver has every item; the inlet source returns when it arrives. A failure (peer away past the
 * timeout, refused handshake, malformed data) is thrown as a {@link RemoteChannelException} from the
 * node, so the flow fails with a {@code FlowException} naming it. If the sending flow fails, the
 * outlet aborts and the receiving flow fails too instead of waiting.
 */
public final class RemoteBlocks {
    private RemoteBlocks() {}

    /**
     * A sink node sending every item on channel {@code channelId} of {@code client}'s connection.
     *
     * @param <T> item type
     * @param client the connection to use
     * @param channelId the id of the inlet on the server
     * @param codec encodes the items
     * @return the sink node
     */
    public static <T> Node<T, Void> outlet(NetClient client, int channelId, Codec<T> codec) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(codec, "codec");
        return new OutletNode<>(() -> client.outlet(channelId, codec), "remote-outlet[" + client.peer() + "#" + channelId + "]");
    }

    /**
     * A sink node sending every item on channel {@code channelId} over a connection of its own to {@code host:port}.
     *
     * @param <T> item type
     * @param host the server's host name or address
     * @param port the server's port
     * @param channelId the id of the inlet on the server
     * @param codec encodes the items
     * @param options batching, window, timeouts and security
     * @return the sink node
     */
    public static <T> Node<T, Void> outlet(String host, int port, int channelId, Codec<T> codec, NetOptions options) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        return new OutletNode<>(() -> NetClient.outlet(host, port, channelId, codec, options),
                "remote-outlet[" + host + ":" + port + "#" + channelId + "]");
    }

    /**
     * A source emitting the stream that arrives on channel {@code channelId} of {@code server}. The
     * inlet is registered at once, so the sender may connect before the flow starts.
     *
     * @param <T> item type
     * @param server the server that hosts the inlet
     * @param channelId the channel id
     * @param codec decodes the items
     * @return the source
     */
    public static <T> Source<T> inlet(NetServer server, int channelId, Codec<T> codec) {
        return new InletSource<>(server.inlet(channelId, codec), server.port());
    }

    /**
     * A source emitting what arrives at an inlet created with {@link NetServer#inlet(int, Codec)}.
     *
     * @param <T> item type
     * @param inlet the inlet to read
     * @return the source
     */
    public static <T> Source<T> inlet(RemoteInlet<T> inlet) {
        return new InletSource<>(Objects.requireNonNull(inlet, "inlet"), -1);
    }

    private static final class OutletNode<T> implements Node<T, Void> {
        private final Supplier<RemoteOutlet<T>> opener;
        private final String name;
        private RemoteOutlet<T> out;
        private boolean finished;

        OutletNode(Supplier<RemoteOutlet<T>> opener, String name) {
            this.opener = opener;
            this.name = name;
        }

        @Override
        public void init(NodeContext ctx) {
            if (out != null) throw new IllegalStateException(name + " can run only once");
            out = opener.get();
        }

        @Override
        public void onItem(T item, Outbox<Void> o) {
            out.send(item);
        }

        @Override
        public void onEos(Outbox<Void> o) {
            out.complete();
            finished = true;
        }

        @Override
        public void close() {
            if (out != null && !finished) out.close(); // without complete(): aborts
        }

        @Override
        public String name() {
            return name;
        }
    }

    private static final class InletSource<T> implements Source<T> {
        private final RemoteInlet<T> inlet;
        private final String name;

        InletSource(RemoteInlet<T> inlet, int port) {
            this.inlet = inlet;
            this.name = "remote-inlet[" + (port >= 0 ? port + "#" : "#") + inlet.channelId() + "]";
        }

        @Override
        public void generate(Outbox<T> out) {
            for (T item; (item = inlet.take()) != null; ) out.send(item);
        }

        @Override
        public void close() {
            inlet.close();
        }

        @Override
        public String name() {
            return name;
        }
    }
}
