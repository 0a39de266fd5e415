package org.bbflow.core.par;

import java.util.concurrent.CancellationException;

/**
 * What a call nested in a loop body of the same pool throws when the enclosing call stopped (a body
 * failed elsewhere, or the caller was interrupted) before the nested call was done. The enclosing
 * call, whose body it passes through, records it as no failure of its own: it ends with the failure
 * or the cancellation that stopped it.
 */
final class NestedCallStopped extends CancellationException {
    private static final long serialVersionUID = 1L;

    NestedCallStopped(String pool) {
        super("nested call stopped: the enclosing call on pool '" + pool
                + "' stopped (a failure in another body, or the caller's cancellation)");
    }
}
