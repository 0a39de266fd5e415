package org.bbflow.core.ipc;

/**
 * The process on the other side of an inter-process channel died without closing its end: a
 * producer ended without EOS (possibly in the middle of a claim), or the consumer vanished while a
 * producer waited for space. The message names the lost peer and what was lost.
 */
public final class IpcPeerLostException extends IpcException {
    private static final long serialVersionUID = 1L;

    /** @param message which peer was lost and what that cost */
    public IpcPeerLostException(String message) {
        super(message);
    }
}
