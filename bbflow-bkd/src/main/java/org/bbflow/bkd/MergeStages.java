package org.bbflow.bkd;

/** Chooses how the background bulk-loaders run. */
final class MergeStages {
    private MergeStages() {}

    /** The BBFlow flow by default; plain threads when {@code plainThreads} (kept as a fallback); {@code factory}: tests, may be null. */
    static MergeStage create(Merger merger, int workers, int backlog, String name, boolean plainThreads,
            java.util.concurrent.ThreadFactory factory) {
        return plainThreads
                ? new ThreadMergeStage(merger, workers, backlog, name, factory)
                : new FlowMergeStage(merger, workers, backlog, factory);
    }
}
