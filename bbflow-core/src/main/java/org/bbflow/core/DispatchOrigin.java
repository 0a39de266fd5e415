package org.bbflow.core;

/**
 * A right member of an all-to-all with feedback: {@code send} returns the item to the left member
 * the current item came from (its input index is the index of the output back to it).
 */
final class DispatchOrigin extends Dispatcher {
    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchOrigin(out);
    }

    DispatchOrigin(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        out.put(origin(), item);
    }

    /** The way back to the left member the current item came from. */
    private int origin() {
        int i = out.inputIndex();
        if (i < 0) {
            throw new IllegalStateException("node " + out.path() + " is a right member of an all-to-all with feedback:"
                    + " send(x) returns x to the left member the current item came from, and there is none here"
                    + " (onEos?); use sendTo(i, x) to pick a left member, or an output past them to go forward");
        }
        return i;
    }
}
