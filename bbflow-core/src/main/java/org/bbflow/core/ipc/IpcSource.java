package org.bbflow.core.ipc;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import org.agrona.concurrent.IdleStrategy;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;

/**
 * A flow source that emits the items arriving on an inter-process channel, until every producer
 * process has closed its end. A lost producer (or one whose flow failed) ends the stream with an
 * {@link IpcPeerLostException} (a {@link StreamFailure}: the items read before still reach the flow's
 * sinks, then the flow fails with it as the cause of its {@code FlowException}) unless the receiver was
 * configured with {@link IpcOptions#withEndOnProducerLoss(boolean)}. Cancelling the flow stops the source. The channel
 * file is created when the source is created, so producers may attach before the flow starts; the
 * flow closes the receiver when it ends (a source that is never run should be closed through
 * {@link #receiver()}).
 *
 * @param <T> the item type
 */
public final class IpcSource<T> implements Source<T> {
    private static final int BATCH = 256;

    private final IpcReceiver<T> receiver;
    private final IdleStrategy idle;
    private NodeContext context;

    private IpcSource(IpcReceiver<T> receiver, IdleStrategy idle) {
        this.receiver = receiver;
        this.idle = idle;
    }

    /**
     * Creates the channel file (see {@link IpcReceiver#create}) and a source reading it.
     *
     * @param <T> item type
     * @param file the channel file to create
     * @param codec decodes the records
     * @param options capacity, producer count, waiting and peer timeout
     * @return the source
     */
    public static <T> IpcSource<T> create(Path file, IpcCodec<T> codec, IpcOptions options) {
        return new IpcSource<>(IpcReceiver.create(file, codec, options), options.newIdleStrategy());
    }

    /**
     * A source reading an existing receiver; the source closes it when the flow ends.
     *
     * @param <T> item type
     * @param receiver the open receiver
     * @return the source
     */
    public static <T> IpcSource<T> of(IpcReceiver<T> receiver) {
        Objects.requireNonNull(receiver, "receiver");
        return new IpcSource<>(receiver, IpcOptions.defaults().newIdleStrategy());
    }

    /** @return the receiver, e.g. for its counters after the run */
    public IpcReceiver<T> receiver() {
        return receiver;
    }

    @Override
    public void init(NodeContext ctx) {
        this.context = ctx;
    }

    @Override
    public void generate(Outbox<T> out) throws StreamFailure {
        Consumer<T> send = out::send;
        idle.reset();
        try {
            while (!receiver.isEos()) {
                if (receiver.drain(send, BATCH) > 0) {
                    idle.reset();
                } else if (context != null && context.isCancelled()) {
                    return;
                } else {
                    idle.idle();
                }
            }
        } catch (IpcPeerLostException e) {
            // thrown once every record committed was read: the stream ends with this error after
            // them, and they go on to the sinks (any other exception would cancel and drop them)
            throw new StreamFailure(e);
        }
    }

    @Override
    public void close() {
        receiver.close();
    }

    @Override
    public String name() {
        return "ipc-source";
    }
}
