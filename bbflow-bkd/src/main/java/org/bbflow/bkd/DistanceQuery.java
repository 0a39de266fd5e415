package org.bbflow.bkd;

/**
 * A distance (radius) query over the trees of one forest: every live point whose Euclidean
 * distance to the center (on the decoded doubles) is at most the radius. A node whose box lies
 * farther than the radius is skipped; a node whose farthest corner lies within it is taken whole
 * (counted without visiting its points when no tombstone lies in it); only the points of the other
 * leaves are measured. Results go to a {@link QueryContext}, which applies the tombstones.
 */
final class DistanceQuery {
    private final int dims;
    private final double[] center;
    /**
     * A power of two every difference is multiplied by before it is squared: 1 for radii from
     * 2^-500 to 2^500; otherwise the one that brings the radius to [1, 2), so that neither the
     * radius's square nor a distance's overflows (a huge radius took every point) or underflows (a
     * tiny one took points beyond it). Scaling by a power of two changes no comparison otherwise.
     */
    private final double scale;
    private final double radius2;
    private final QueryContext q;

    DistanceQuery(int dims, double[] center, double radius, QueryContext q) {
        this.dims = dims;
        this.center = center;
        this.scale = radius >= 0x1p-500 && radius <= 0x1p500 || radius == Double.POSITIVE_INFINITY
                ? 1.0 : Math.scalb(1.0, -Math.getExponent(radius));   // radius 0: 2^1023, only exact matches
        double r = radius * scale;
        this.radius2 = r * r;
        this.q = q;
    }

    void run(KdTree t) {
        if (t.size > 0) {
            visit(t, 0);
        }
    }

    private void visit(KdTree t, int node) {
        int base = node * dims;
        if (q.poisonCheck && t.nodeMin[base] == Coordinates.POISON) {
            q.touchedPoison();
        }
        double near = 0;
        double far = 0;
        for (int d = 0; d < dims; d++) {
            double lo = (Coordinates.decode(t.nodeMin[base + d]) - center[d]) * scale;
            double hi = (Coordinates.decode(t.nodeMax[base + d]) - center[d]) * scale;
            double in = lo > 0 ? lo : hi < 0 ? -hi : 0;
            double out = Math.max(-lo, hi);
            near += in * in;
            far += out * out;
        }
        if (!(near <= radius2)) {
            return;
        }
        int from = t.nodeFrom[node];
        int to = t.nodeTo[node];
        int right = t.nodeRight[node];
        boolean clear = q.clearOfTombstones(t.nodeMin, t.nodeMax, base);
        if (far <= radius2) {
            if (clear && q.visitor == null && !q.poisonCheck) {
                q.count += to - from;                  // the whole cell lies in the ball
                return;
            }
            q.acceptAll(t, from, to, !clear);
            return;
        }
        if (right >= 0) {
            visit(t, node + 1);
            visit(t, right);
            return;
        }
        for (int i = from; i < to; ) {             // a leaf lies in one page unless leafSize does not divide a page
            int p = i >>> t.shift;
            long[] c = t.coords[p];
            byte[] idPage = t.ids.page(p);
            int end = Math.min(to, (p + 1) << t.shift);
            for (int off = (i & t.mask) * dims; i < end; i++, off += dims) {
                double dist = 0;
                for (int d = 0; d < dims; d++) {
                    double x = (Coordinates.decode(c[off + d]) - center[d]) * scale;
                    dist += x * x;
                }
                if (q.poisonCheck && c[off] == Coordinates.POISON) {
                    q.touchedPoison();
                }
                if (dist <= radius2) {
                    q.accept(c, off, idPage, i & t.mask, t, i, !clear);
                }
            }
        }
    }
}
