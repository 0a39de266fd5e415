package org.bbflow.core;

import java.util.Objects;

/**
 * Thrown from {@link Source#generate} to end the source's stream with an error, as a Reactive
 * Streams publisher's {@code onError} ends its stream after the items it delivered. Every other
 * exception a node throws cancels the flow at once, and items still in its channels are dropped;
 * this one does not cancel anything: the items the source sent before go on through the flow to its
 * sinks, the source's {@link Node#onEos} runs and its outputs end as if {@code generate} had
 * returned, and the rest of the flow ends its stream as usual. The flow has failed all the same:
 * {@link Flow#join()} throws a {@link FlowException} naming the source, whose cause is
 * {@link #getCause()} (not this wrapper), and a {@link CollectorSink} holds no result of the cut
 * stream. A node that fails meanwhile still cancels the flow; its failure is then attached to the
 * source's as a suppressed exception.
 *
 * <p>Thrown from anywhere other than a source's {@code generate} it is an ordinary failure, also from
 * a node fused after a source ({@link Comb}), whose {@code onItem} runs inside the source's
 * {@code generate}. {@link org.bbflow.core.reactive.PublisherSource} throws it for its publisher's
 * {@code onError}, {@link Nodes#fromChannel} when the flow feeding its channel failed, and
 * {@link org.bbflow.core.ipc.IpcSource} for a lost producer. {@link Nodes#toChannel} and
 * {@link org.bbflow.core.ipc.IpcSink} end a stream cut this way as failed, as {@link CollectorSink}
 * publishes no result of it.
 */
public final class StreamFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * @param cause the error that ended the stream, reported by {@link Flow#join()} as the flow's
     *        failure
     */
    public StreamFailure(Throwable cause) {
        super("the stream ended with " + Objects.requireNonNull(cause, "cause"), cause, false, false);
    }
}
