package org.bbflow.core.par;

/** The marker an {@link Accelerator} sends through its farm behind the last item of a burst. */
final class BurstEnd {
    static final BurstEnd INSTANCE = new BurstEnd();

    private BurstEnd() {
    }

    @Override
    public String toString() {
        return "end of burst";
    }
}
