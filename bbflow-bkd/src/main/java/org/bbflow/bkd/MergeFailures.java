package org.bbflow.bkd;

/**
 * Failures of background merges not reported yet: the first one and how many followed it. A
 * failed merge changes nothing (its inputs stay in the forest, unclaimed), so a failure is
 * reported once, by the next {@link BkdTree#awaitMerges()}, and then forgotten: the next merge
 * retries the same trees. Only touched when a merge fails, hence a plain monitor.
 */
final class MergeFailures {
    private Throwable first;
    private int more;

    /** Records a merge's failure (the first one since the last report is the cause reported). */
    synchronized void record(Throwable t) {
        if (first == null) {
            first = t;
        } else {
            more++;
        }
    }

    /**
     * The exception reporting the failures since the last call, or null if there were none; the
     * failures are then forgotten.
     */
    synchronized IllegalStateException take() {
        Throwable t = first;
        if (t == null) {
            return null;
        }
        int others = more;
        first = null;
        more = 0;
        return new IllegalStateException("a background merge failed: " + t
                + (others > 0 ? " (and " + others + " more merge(s) since)" : "")
                + "; nothing was lost: its input trees stay in the index and a later merge retries them", t);
    }
}
