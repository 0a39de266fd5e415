package org.bbflow.bkd;

import java.util.List;

/**
 * A point-in-time summary of a {@link BkdTree}.
 *
 * @param treesPerLevel  number of published trees in each size tier (index = tier: a tree of
 *                       {@code n} points is in the smallest tier {@code k} with {@code n <= mergeFactor^k})
 * @param trees          number of published trees
 * @param points         points stored in published trees, including dead points not yet merged away
 * @param tombstones     tombstones currently recorded
 * @param merges         merges completed since creation
 * @param retiredTrees   trees replaced by merges (or by close) so far
 * @param reclaimedTrees retired trees whose arrays were reclaimed
 * @param backlog        merge tickets queued or being processed (0 once closed)
 * @param mergeStage     how the background bulk-loaders run ("flow" or "threads", "none" if merging is off)
 * @param insertedPoints points taken out of insert buffers since creation (published, or dropped
 *                       because a delete already hid them)
 * @param mergedPoints   points written into merged trees since creation
 * @param treeBytes      bytes held by the published trees' arrays (points in pages of at most
 *                       256 KiB, node boxes, array headers and page tables included)
 * @param bufferBytes    bytes of the insert buffers' arrays: one per thread or writer with points
 *                       not yet published, or that filled its buffer and goes on inserting (an
 *                       explicit refresh or flush drops them)
 * @param tombstoneBytes estimated bytes of the tombstones and their Bloom filter
 * @param failedMerges   background merges that failed since creation (each changed nothing: its
 *                       input trees stayed and a later merge retried them); {@link BkdTree#awaitMerges()}
 *                       reports each failure once, this count keeps them all
 * @param schedulerFailures failures of the scheduler thread since creation (publishing a terminated
 *                       thread's buffer, reclaiming or purging; each retried by a later pass), counted
 *                       the same way. A count that keeps growing means the index is not keeping up
 *                       with its background work: monitor it where nothing calls {@code awaitMerges()}
 */
public record BkdStats(List<Integer> treesPerLevel, int trees, long points, long tombstones,
                       long merges, long retiredTrees, long reclaimedTrees, int backlog,
                       String mergeStage, long insertedPoints, long mergedPoints, long treeBytes,
                       long bufferBytes, long tombstoneBytes, long failedMerges, long schedulerFailures) {

    /**
     * The heap this index holds: trees, insert buffers and tombstones (no array is kept for
     * reuse). Not counted: trees merged away but still seen by an open snapshot or a running query,
     * a running merge's scratch arrays, and the index's fixed objects (its threads, the merge flow,
     * per-thread slots: some kilobytes).
     *
     * @return {@code treeBytes + bufferBytes + tombstoneBytes}
     */
    public long heapBytes() {
        return treeBytes + bufferBytes + tombstoneBytes;
    }

    /**
     * Write amplification of the merges: points written by merges per point inserted (0 before
     * the first insert). With the size-tiered policy it grows like {@code log_mergeFactor(n)}.
     *
     * @return {@code mergedPoints / insertedPoints}
     */
    public double writeAmplification() {
        return insertedPoints == 0 ? 0 : (double) mergedPoints / insertedPoints;
    }

    /**
     * Heap held by the index per stored point, buffers and tombstones included.
     *
     * @return {@code heapBytes() / points} (0 when empty)
     */
    public double bytesPerPoint() {
        return points == 0 ? 0 : (double) heapBytes() / points;
    }

    /**
     * Heap of the published trees alone per stored point.
     *
     * @return {@code treeBytes / points} (0 when empty)
     */
    public double treeBytesPerPoint() {
        return points == 0 ? 0 : (double) treeBytes / points;
    }
}
