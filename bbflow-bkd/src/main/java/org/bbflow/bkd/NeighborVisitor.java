package org.bbflow.bkd;

/**
 * Receives the results of a nearest-neighbour search with their distances, nearest first.
 */
@FunctionalInterface
public interface NeighborVisitor {
    /**
     * Called once per result.
     *
     * @param id       the point's id
     * @param point    its coordinates (reused between calls: copy to keep)
     * @param distance its Euclidean distance to the query point
     */
    void visit(long id, double[] point, double distance);
}
