package org.bbflow.bkd;

/**
 * The background bulk-loaders that merge trees of similar size. Inserters submit a ticket after
 * publishing a tree; {@link #submit()} waits while the backlog is full, which is how inserters
 * slow down when merges fall behind.
 */
interface MergeStage {
    void start();

    /** Queues a merge ticket; waits while the backlog is full. Returns false if the stage is closed. */
    boolean submit() throws InterruptedException;

    /** Queues a ticket if there is room, without waiting. */
    boolean offer();

    /** Tickets queued or being processed. */
    int backlog();

    /** Stops the workers (a merge in progress finishes first). */
    void close();

    /**
     * The failures of merges since the last call, as the exception {@link BkdTree#awaitMerges()}
     * throws (the first failure is its cause), or null; each failure is reported once.
     */
    IllegalStateException takeFailure();

    /** Merges failed since creation, reported or not. */
    long failures();

    /** How the stage runs, for statistics. */
    String kind();
}
