package org.bbflow.core;

/**
 * A flow failed or was cancelled. {@link #nodePath()} names the node that failed first (null when
 * the flow was cancelled from outside); {@link #getCause()} is that node's exception, or a
 * {@link java.util.concurrent.CancellationException} for a cancelled flow.
 */
public class FlowException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /**
     * The path of the node that failed first, or null (part of the serialized form).
     */
    private final String nodePath;

    /**
     * @param message what happened
     * @param nodePath the path of the node that failed, or null
     * @param cause the original exception
     */
    public FlowException(String message, String nodePath, Throwable cause) {
        super(message, cause);
        this.nodePath = nodePath;
    }

    /**
     * The path of the node that failed first, or null.
     *
     * @return the failing node's path, or null for a cancelled flow
     */
    public String nodePath() {
        return nodePath;
    }
}
