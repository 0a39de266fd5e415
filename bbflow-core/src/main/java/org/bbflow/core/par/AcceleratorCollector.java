package org.bbflow.core.par;

import java.util.ArrayDeque;
import java.util.Arrays;
import org.bbflow.core.Channel;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * The accelerator farm's collector: puts results on the caller's result channel (or drops them) and
 * counts the end-of-burst markers; once a burst's are all in, the burst is over: every item of it
 * has been processed and every result of it delivered.
 *
 * <p>First-come results from several workers: each worker sends its marker behind its items of the
 * burst, and a fast worker may go on to the next burst (the caller need not wait between bursts)
 * while a slow one is still on this one. What a worker sends after its marker belongs to a later
 * burst, so it is held here, per input, until every worker's marker of the current burst is in; it
 * then goes out behind the burst's end. Without this a later burst's results reached the caller
 * before an earlier burst's end, and an earlier burst's after it.
 */
final class AcceleratorCollector implements Node<Object, Void> {
    private final Accelerator<?, ?> accelerator;
    private final Channel<Object> results;
    /** Markers that end one burst: one per worker, or one in an ordered farm. */
    private final int markersPerBurst;
    private int markers;
    private NodeContext context;
    /** Per input (several markers a burst only): it has sent its marker of the current burst. */
    private final boolean[] ahead;
    /** Per input: what it sent after that marker, held until the current burst is over. */
    private final ArrayDeque<Object>[] held;

    @SuppressWarnings("unchecked")
    AcceleratorCollector(Accelerator<?, ?> accelerator, Channel<Object> results, int markersPerBurst) {
        this.accelerator = accelerator;
        this.results = results;
        this.markersPerBurst = markersPerBurst;
        this.ahead = markersPerBurst > 1 ? new boolean[markersPerBurst] : null;
        this.held = markersPerBurst > 1 ? new ArrayDeque[markersPerBurst] : null;
        for (int i = 0; held != null && i < held.length; i++) {
            held[i] = new ArrayDeque<>();
        }
    }

    @Override
    public void init(NodeContext context) {
        this.context = context;
        markers = 0;
        if (ahead != null) {
            Arrays.fill(ahead, false);
            for (ArrayDeque<Object> q : held) {
                q.clear();
            }
        }
    }

    @Override
    public void onItem(Object item, Outbox<Void> out) {
        if (ahead == null) {
            take(item);
            return;
        }
        int in = context.inputIndex(); // one input per worker: the accelerator's channels are never shared
        if (ahead[in]) {
            held[in].add(item);
            return;
        }
        if (item == BurstEnd.INSTANCE) {
            ahead[in] = true; // until the burst is over (take clears it then)
        }
        take(item);
        if (item == BurstEnd.INSTANCE && markers == 0) {
            release();
        }
    }

    /** Delivers a result or counts a marker, ending the burst at its last one. */
    private void take(Object item) {
        if (item != BurstEnd.INSTANCE) {
            if (results != null) {
                results.put(item);
            }
            return;
        }
        if (++markers == markersPerBurst) {
            markers = 0;
            if (results != null) {
                results.put(item);
            }
            accelerator.burstFrozen();
            if (ahead != null) {
                Arrays.fill(ahead, false);
            }
        }
    }

    /** Once a burst is over, lets each input's held items through up to its next marker, until none ends a burst. */
    private void release() {
        boolean ended = true;
        while (ended) {
            ended = false;
            for (int i = 0; i < held.length; i++) {
                ArrayDeque<Object> q = held[i];
                while (!ahead[i] && !q.isEmpty()) {
                    Object x = q.poll();
                    if (x == BurstEnd.INSTANCE) {
                        ahead[i] = true;
                    }
                    take(x);
                    if (x == BurstEnd.INSTANCE && markers == 0) {
                        ended = true; // another burst over: every input may let more through
                    }
                }
            }
        }
    }

    @Override
    public void onEos(Outbox<Void> out) {
        if (held != null) { // nothing is held once every marker is in; should one be missing, deliver the rest
            for (ArrayDeque<Object> q : held) {
                for (Object x; (x = q.poll()) != null; ) {
                    if (x != BurstEnd.INSTANCE && results != null) {
                        results.put(x);
                    }
                }
            }
        }
        if (results != null) {
            results.close();
        }
    }

    @Override
    public String name() {
        return "collector";
    }
}
