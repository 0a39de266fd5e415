package org.bbflow.core;

/** To the least-loaded output; when all are full, waits for whichever frees a slot first. */
final class DispatchOnDemand extends Dispatcher {
    private int next;

    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchOnDemand(out);
    }

    DispatchOnDemand(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        sendPicked(item);
    }

    /** Sends the item to the least-loaded output and returns that output's index. */
    int sendPicked(Object item) {
        int i;
        while (!out.tryPut(i = leastLoaded(), item)) {
            out.awaitAnyRoom();
        }
        return i;
    }

    /** The first empty output from the one after the last choice on, else the shortest. */
    private int leastLoaded() {
        Link[] outs = out.outs;
        int best = next;
        int bestSize = Integer.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            int i = next + k;
            if (i >= n) {
                i -= n;
            }
            int s = outs[i].queue.size();
            if (s == 0) {
                best = i;
                break;
            }
            if (s < bestSize) {
                bestSize = s;
                best = i;
            }
        }
        next = best + 1 == n ? 0 : best + 1;
        return best;
    }
}
