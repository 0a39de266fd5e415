package org.bbflow.core.ipc;

/**
 * The file is not a BBFlow inter-process channel this library can read: wrong magic, unsupported
 * version, or a header that contradicts the file's length.
 */
public final class IpcFormatException extends IpcException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the header, naming the file */
    public IpcFormatException(String message) {
        super(message);
    }
}
