package org.bbflow.core.par;

import org.bbflow.core.Channel;
import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/**
 * The accelerator farm's collector: puts results on the caller's result channel (or drops them) and
 * counts the end-of-burst markers; once a burst's are all in, the burst is over: every item of it
 * has been processed and every result of it delivered.
 */
final class AcceleratorCollector implements Node<Object, Void> {
    private final Accelerator<?, ?> accelerator;
    private final Channel<Object> results;
    /** Markers that end one burst: one per worker, or one in an ordered farm. */
    private final int markersPerBurst;
    private int markers;

    AcceleratorCollector(Accelerator<?, ?> accelerator, Channel<Object> results, int markersPerBurst) {
        this.accelerator = accelerator;
        this.results = results;
        this.markersPerBurst = markersPerBurst;
    }

    @Override
    public void onItem(Object item, Outbox<Void> out) {
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
        }
    }

    @Override
    public void onEos(Outbox<Void> out) {
        if (results != null) {
            results.close();
        }
    }

    @Override
    public String name() {
        return "collector";
    }
}
