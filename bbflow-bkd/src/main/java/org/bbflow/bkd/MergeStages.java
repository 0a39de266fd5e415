package org.bbflow.bkd;

/** Chooses how the background bulk-loaders run. */
final class MergeStages {
    private MergeStages() {}

    /** The BBFlow flow by default; plain threads when {@code plainThreads} (kept as a fallback). */
    static MergeStage create(Merger merger, int workers, int backlog, String name, boolean plainThreads) {
        return plainThreads
                ? new ThreadMergeStage(merger, workers, backlog, name)
                : new FlowMergeStage(merger, workers, backlog);
    }
}
