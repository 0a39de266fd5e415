package org.bbflow.core.ipc;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * A flow sink that sends every item into an inter-process channel, waiting while the ring is full
 * (so a slow consumer process slows this flow). At the flow's end of stream it closes its producer
 * end; if the flow fails or is cancelled instead, it ends its stream as failed
 * ({@link IpcSender#closeAsFailed()}), so the consumer never mistakes a broken stream for a complete one
 * (also a stream a source cut with a {@link org.bbflow.core.StreamFailure}, which cancels nothing).
 *
 * @param <T> the item type
 */
public final class IpcSink<T> implements Node<T, Void> {
    private final Path file;
    private final IpcCodec<T> codec;
    private final IpcOptions options;
    private IpcSender<T> sender;
    private boolean ended;
    private BooleanSupplier cancelled;
    private BooleanSupplier failed;

    private IpcSink(Path file, IpcCodec<T> codec, IpcOptions options, IpcSender<T> sender) {
        this.file = file;
        this.codec = codec;
        this.options = options;
        this.sender = sender;
    }

    /**
     * A sink that opens the channel file as a producer when the flow starts (the file must exist by then).
     *
     * @param <T> item type
     * @param file the channel file
     * @param codec encodes the items
     * @param options waiting and peer timeout
     * @return the sink
     */
    public static <T> IpcSink<T> open(Path file, IpcCodec<T> codec, IpcOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        return new IpcSink<>(file, codec, options, null);
    }

    /**
     * A sink writing to an already open sender; the sink closes it when the flow ends.
     *
     * @param <T> item type
     * @param sender the open sender
     * @return the sink
     */
    public static <T> IpcSink<T> of(IpcSender<T> sender) {
        Objects.requireNonNull(sender, "sender");
        return new IpcSink<>(null, null, null, sender);
    }

    @Override
    public void init(NodeContext context) {
        cancelled = context::isCancelled;
        failed = context::flowFailed;
        if (sender == null) {
            sender = IpcSender.open(file, codec, options);
        }
    }

    @Override
    public void onItem(T item, Outbox<Void> out) {
        // a cancelled flow stops waiting for room; close() then ends the stream as failed
        sender.sendUnless(item, cancelled);
    }

    /**
     * A source's stream cut by a {@link org.bbflow.core.StreamFailure} ends every node's stream
     * normally, yet the flow has failed: then {@link #close()} ends the stream as failed, as for any
     * other failure.
     */
    @Override
    public void onEos(Outbox<Void> out) {
        if (failed.getAsBoolean()) {
            return;
        }
        ended = true;
        sender.close();
    }

    @Override
    public void close() {
        if (ended) {
            return;
        }
        if (sender == null) {
            // The flow failed before this sink started: still tell the consumer this producer failed,
            // rather than leaving it waiting for a producer that never attaches.
            try {
                sender = IpcSender.open(file, codec, options);
            } catch (RuntimeException e) {
                return;
            }
        }
        sender.closeAsFailed();
    }

    @Override
    public String name() {
        return "ipc-sink";
    }
}
