package org.bbflow.core.ipc;

/** A failure of an inter-process channel: the file cannot be created or opened, or a peer misbehaved. */
public class IpcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the file */
    public IpcException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the file
     * @param cause the underlying failure
     */
    public IpcException(String message, Throwable cause) {
        super(message, cause);
    }
}
