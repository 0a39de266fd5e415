package org.bbflow.bkd;

/** Chooses how the background bulk-loaders run. */
final class MergeStages {
    private MergeStages() {}

    static MergeStage create(Merger merger, int workers, int backlog, String name) {
        return new ThreadMergeStage(merger, workers, backlog, name);
    }
}
