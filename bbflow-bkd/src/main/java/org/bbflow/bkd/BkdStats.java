package org.bbflow.bkd;

import java.util.List;

/**
 * A point-in-time summary of a {@link BkdTree}.
 *
 * @param treesPerLevel  number of published trees at each level (index = level)
 * @param trees          number of published trees
 * @param points         points stored in published trees, including dead points not yet merged away
 * @param tombstones     tombstones currently recorded
 * @param merges         merges completed since creation
 * @param retiredTrees   trees replaced by merges (or by close) so far
 * @param reclaimedTrees retired trees whose arrays were reclaimed
 * @param backlog        merge tickets queued or being processed
 * @param mergeStage     how the background bulk-loaders run ("flow" or "threads", "none" if merging is off)
 */
public record BkdStats(List<Integer> treesPerLevel, int trees, long points, long tombstones,
                       long merges, long retiredTrees, long reclaimedTrees, int backlog,
                       String mergeStage) {
}
