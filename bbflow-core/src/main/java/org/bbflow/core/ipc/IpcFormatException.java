package org.bbflow.core.ipc;

/**
 * The file is not a BBFlow inter-process channel this library can read: wrong magic, unsupported
 * version or record layout, or a header that contradicts the file's length; or a sender's codec
 * names another {@link IpcCodec#recordFormat()} than the receiver's.
 */
public final class IpcFormatException extends IpcException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the header, naming the file */
    public IpcFormatException(String message) {
        super(message);
    }
}
