package org.bbflow.bkd;

/**
 * One result of {@link BkdTree#nearest(double[], int)}: a live point and its distance.
 *
 * @param id       the point's id
 * @param point    its coordinates (a copy owned by this record)
 * @param distance its Euclidean distance to the query point
 */
public record Neighbor(long id, double[] point, double distance) {
}
