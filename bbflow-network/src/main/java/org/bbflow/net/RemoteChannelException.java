package org.bbflow.net;

import org.bbflow.core.FlowException;

/**
 * A remote channel failed: the peer stayed away past the peer timeout, refused the handshake,
 * sent malformed data, aborted the stream, or the channel was closed under a waiting thread.
 * Thrown by outlets and inlets. It is a {@link FlowException}; inside a flow the core reports it
 * as the cause of the {@code FlowException} naming the node that hit it.
 */
public final class RemoteChannelException extends FlowException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message that says what went wrong and with which peer.
     *
     * @param message what went wrong, and with which peer
     */
    public RemoteChannelException(String message) {
        super(message, null, null);
    }

    /**
     * Creates an exception with a message and the underlying cause.
     *
     * @param message what went wrong, and with which peer
     * @param cause the underlying exception
     */
    public RemoteChannelException(String message, Throwable cause) {
        super(message, null, cause);
    }
}
