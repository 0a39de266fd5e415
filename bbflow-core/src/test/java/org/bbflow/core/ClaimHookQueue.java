package org.bbflow.core;

/**
 * A {@link ClosableMpscQueue} that runs a hook between an offer's claim of a slot and its write of the
 * element: the window in which a close by another producer must not lose the accepted element. Made
 * for the MPSC channels of a test through {@link Channel#mpscQueueHook}.
 */
final class ClaimHookQueue<E> extends ClosableMpscQueue<E> {
    private final Runnable hook;

    ClaimHookQueue(int capacity, Runnable hook) {
        super(capacity);
        this.hook = hook;
    }

    @Override
    void claimed(long index) {
        hook.run();
    }
}
