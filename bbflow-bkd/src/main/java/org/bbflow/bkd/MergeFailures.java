package org.bbflow.bkd;

/**
 * Failures of background merges (or, worded by its second constructor, of the scheduler thread:
 * {@link Reclaimer#failures}) not reported yet: the first one and how many followed it. A
 * failed merge changes nothing (its inputs stay in the forest, unclaimed), so a failure is
 * reported once, by the next {@link BkdTree#awaitMerges()}, and then forgotten: the next merge
 * retries the same trees. Only touched when a merge fails, hence a plain monitor.
 */
final class MergeFailures {
    private Throwable first;
    private int more;
    /** Every failure recorded since creation: reports forget theirs, statistics count them all. */
    private long total;
    /** What failed, as the report says it ("a background merge failed"). */
    private final String what;
    /** What the ones after the first are counted as ("merge(s)"). */
    private final String unit;
    /** What the failure did to the index, as the report says it. */
    private final String consequence;

    MergeFailures() {
        this("a background merge failed", "merge(s)", "nothing was lost: its input trees stay in the index and a"
                + " later merge retries them");
    }

    /** Failures of other background work ({@link Reclaimer}), reported with these words. */
    MergeFailures(String what, String unit, String consequence) {
        this.what = what;
        this.unit = unit;
        this.consequence = consequence;
    }

    /**
     * Records a failure (the first one since the last report is the cause reported).
     *
     * @return whether it is the first one since the last report
     */
    synchronized boolean record(Throwable t) {
        total++;
        if (first == null) {
            first = t;
            return true;
        }
        more++;
        return false;
    }

    /** Failures recorded since creation, reported or not ({@link BkdStats}). */
    synchronized long total() {
        return total;
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
        return new IllegalStateException(what + ": " + t
                + (others > 0 ? " (and " + others + " more " + unit + " since)" : "") + "; " + consequence, t);
    }
}
