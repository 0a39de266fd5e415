package org.bbflow.bkd;

/**
 * Receives the points of a window query, one call per live point inside the window.
 *
 * <p>The {@code point} array is reused between calls and is only valid during the call; copy it
 * to keep it. Calls come from the querying thread, in no particular order.
 */
@FunctionalInterface
public interface PointVisitor {
    /**
     * Called once per matching point with its id and coordinates.
     *
     * @param id the point's id
     * @param point its coordinates (valid only during the call)
     */
    void visit(long id, double[] point);
}
