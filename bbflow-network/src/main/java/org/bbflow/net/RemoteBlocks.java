package org.bbflow.net;

import java.util.Objects;
import java.util.function.Supplier;
import org.bbflow.core.Block;
import org.bbflow.core.Node;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;

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
 *
 * <p>A sending flow whose stream was cut without being cancelled (its source threw a
 * {@link StreamFailure}: the items it sent go on, then the flow fails) passes that on: the outlet
 * ends the stream with a failure ({@link RemoteOutlet#completeWithFailure}) that describes the
 * sending flow's error, and the inlet source, after the last item, ends its own flow's stream with a
 * {@code StreamFailure} whose cause is a {@link RemoteStreamFailedException} naming the channel and
 * that description. The receiving flow then fails the same way: its sinks get every item, a
 * {@link org.bbflow.core.CollectorSink} holds no result, and {@code join()} throws.
 *
 * <p>A feedback loop may cross JVMs: {@link #roundTrip roundTrip} is one block that sends each item
 * to a remote path and emits what comes back. Put it in a {@link Pipeline#feedback()} loop and its
 * items stay counted in the loop while they are in the other JVM, so the loop ends exactly when its
 * upstream has ended and no item is left anywhere in it; see {@link #roundTrip(NetClient, int, Codec,
 * NetServer, int, Codec)} for the protocol.
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
        return OutletNode.sink(() -> client.outlet(channelId, codec), "remote-outlet[" + client.peer() + "#" + channelId + "]");
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
        return OutletNode.sink(() -> NetClient.outlet(host, port, channelId, codec, options),
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

    /**
     * A remote round trip as one block: each item goes to inlet {@code forwardChannel} of the
     * client's peer (the remote path, e.g. a farm in another JVM, that ends with an outlet to this
     * JVM's {@code server} on {@code returnChannel}), and what comes back is emitted. Inside a
     * {@link Pipeline#feedback()} loop it makes the loop span two JVMs.
     *
     * <pre>{@code
     * // JVM A: items go round through JVM B until done() says so, then leave to the sink
     * Pipeline.of(source,
     *     Pipeline.of(RemoteBlocks.roundTrip(client, 1, codec, server, 2, codec),
     *                 Nodes.flatMap((X x, Outbox<X> o) -> { if (done(x)) o.sendTo(1, x); else o.send(x); }))
     *         .feedback(),
     *     sink).run();
     * // JVM B: the remote path
     * Pipeline.of(RemoteBlocks.inlet(serverB, 1, codec), Farm.of(4, () -> Nodes.map(work)),
     *     RemoteBlocks.outlet("host-a", portA, 2, codec, opts)).run();
     * }</pre>
     *
     * <p>Termination protocol. The block is two nodes in this JVM: the sender, and the receiver of
     * the return stream, joined by a local edge that carries one ticket per item sent. Being loop
     * members, both count in the core's in-flight count of the enclosing loop: an item is counted
     * until the sender has sent it and its ticket, the ticket until the receiver has taken one
     * returned item and sent it into the loop. So the count of the loop covers every item in the other
     * JVM, and the loop's head ends the loop only when its upstream has ended and nothing is out.
     * Then the sender completes the forward stream ({@link RemoteOutlet#complete()}, a clean end of
     * stream); the remote flow ends and completes the return stream; the receiver waits for that
     * clean end before it ends, so this flow ends only after the remote path has ended its return
     * stream cleanly. Outside a loop the block is simply a remote stage (items out and back).
     * Failures are never a clean end: a failing flow in this JVM aborts the forward stream (the
     * remote flow fails with a {@link RemoteChannelException}) and closes the return inlet; a failing
     * remote flow aborts the return stream (this flow fails with a {@link RemoteChannelException}
     * naming the channel and the abort).
     *
     * <p>Contract: the remote path must send back exactly one item for each item it receives (a map,
     * or a farm of map workers, in any order); decide in this JVM, after the round trip, whether an
     * item goes round again or leaves. An extra item fails this flow at the end; a missing one keeps
     * the loop waiting for it (until the peer timeout if the remote JVM goes away).
     *
     * @param <T> the type sent
     * @param <R> the type coming back
     * @param client the connection to the remote path's server
     * @param forwardChannel the id of the remote path's inlet on that server
     * @param forwardCodec encodes the items sent
     * @param server this JVM's server, which hosts the return inlet (registered at once)
     * @param returnChannel the id of the return inlet
     * @param returnCodec decodes the items coming back
     * @return the round-trip block (one input, one output)
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if {@code returnChannel} already has an inlet on {@code server}
     */
    public static <T, R> Block<T, R> roundTrip(NetClient client, int forwardChannel, Codec<T> forwardCodec,
            NetServer server, int returnChannel, Codec<R> returnCodec) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(forwardCodec, "forwardCodec");
        return roundTrip(() -> client.outlet(forwardChannel, forwardCodec), client.peer() + "#" + forwardChannel,
                server, returnChannel, returnCodec);
    }

    /**
     * {@link #roundTrip(NetClient, int, Codec, NetServer, int, Codec)} over a connection of its own
     * to {@code host:port}.
     *
     * @param <T> the type sent
     * @param <R> the type coming back
     * @param host the remote path's server host
     * @param port the remote path's server port
     * @param forwardChannel the id of the remote path's inlet on that server
     * @param forwardCodec encodes the items sent
     * @param options batching, window, timeouts and security of the forward connection
     * @param server this JVM's server, which hosts the return inlet (registered at once)
     * @param returnChannel the id of the return inlet
     * @param returnCodec decodes the items coming back
     * @return the round-trip block (one input, one output)
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if {@code returnChannel} already has an inlet on {@code server}
     */
    public static <T, R> Block<T, R> roundTrip(String host, int port, int forwardChannel, Codec<T> forwardCodec,
            NetOptions options, NetServer server, int returnChannel, Codec<R> returnCodec) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(forwardCodec, "forwardCodec");
        Objects.requireNonNull(options, "options");
        return roundTrip(() -> NetClient.outlet(host, port, forwardChannel, forwardCodec, options),
                host + ":" + port + "#" + forwardChannel, server, returnChannel, returnCodec);
    }

    private static <T, R> Block<T, R> roundTrip(Supplier<RemoteOutlet<T>> opener, String forward, NetServer server,
            int returnChannel, Codec<R> returnCodec) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(returnCodec, "returnCodec");
        RoundTripReturn<R> back = new RoundTripReturn<>(server.inlet(returnChannel, returnCodec),
                "round-trip-return[" + server.port() + "#" + returnChannel + "]");
        return Pipeline.<T, R>of(OutletNode.ticketed(opener, "round-trip-out[" + forward + "]"), back)
                .named("round-trip");
    }

    private static final class InletSource<T> implements Source<T> {
        private final RemoteInlet<T> inlet;
        private final String name;

        InletSource(RemoteInlet<T> inlet, int port) {
            this.inlet = inlet;
            this.name = "remote-inlet[" + (port >= 0 ? port + "#" : "#") + inlet.channelId() + "]";
        }

        @Override
        public void generate(Outbox<T> out) throws StreamFailure {
            try {
                for (T item; (item = inlet.take()) != null; ) out.send(item);
            } catch (RemoteStreamFailedException cut) {
                // every item is in: end this flow's stream as the sender's ended, failed but not cancelled
                throw new StreamFailure(cut);
            }
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
