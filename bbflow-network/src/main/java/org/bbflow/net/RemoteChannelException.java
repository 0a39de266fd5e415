package org.bbflow.net;

/**
 * A remote channel failed: the peer stayed away past the peer timeout, refused the handshake,
 * sent malformed data, or the channel was closed under a waiting thread. Thrown by outlets and
 * inlets; inside a flow the core wraps it in a {@code FlowException} naming the node.
 */
public final class RemoteChannelException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception with a message that says what went wrong and with which peer. */
    public RemoteChannelException(String message) {
        super(message);
    }

    /** Creates an exception with a message and the underlying cause. */
    public RemoteChannelException(String message, Throwable cause) {
        super(message, cause);
    }
}
