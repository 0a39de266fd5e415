package org.bbflow.bkd;

/**
 * Best-first k-nearest-neighbour search (Euclidean distance on the decoded doubles) over the trees
 * of one forest: a min-heap of nodes ordered by the distance from the query to their box, and a
 * max-heap of the best {@code k} live points found so far, shared by all trees: the current k-th
 * distance prunes boxes and points of every tree, and the search stops when the nearest
 * unexplored box of any tree is farther than it.
 */
final class NearestSearch {
    private final int dims;
    private final double[] q;
    private final int k;
    private final Tombstones tombstones;
    private final Tombstones.Probe probe;
    private final boolean checkTombstones;
    private final long limit;
    private final boolean poisonCheck;
    // node heap (min by distance)
    private double[] nodeDist = new double[64];
    private KdTree[] nodeTree = new KdTree[64];
    private int[] nodeId = new int[64];
    private int nodes;
    // candidate heap (max by distance)
    private final double[] bestDist;
    private final KdTree[] bestTree;
    private final int[] bestIndex;
    /** Per-dimension differences for {@link #scaledNorm()} (the rare distances whose squares over- or underflow). */
    private final double[] diff;
    private int best;
    /**
     * The square of the k-th distance found (infinite until k points are found): points are pruned
     * on their squared distance, summed dimension by dimension. Infinite also when that square would
     * over- or underflow; the distances themselves then decide.
     */
    private double boundSquared = Double.POSITIVE_INFINITY;
    /** Smallest sum of squares taken as is; below it, terms may have underflowed (about 1e-301). */
    private static final double SAFE_MIN = 0x1p-1000;

    NearestSearch(int dims, double[] q, int k, Tombstones tombstones, long limit, boolean poisonCheck) {
        this.dims = dims;
        this.q = q;
        this.k = k;
        this.tombstones = tombstones;
        this.checkTombstones = !tombstones.isEmpty();
        this.probe = checkTombstones ? tombstones.newProbe() : null;
        this.limit = limit;
        this.poisonCheck = poisonCheck;
        bestDist = new double[k];
        bestTree = new KdTree[k];
        bestIndex = new int[k];
        diff = new double[dims];
    }

    /** Runs the search over {@code trees} and visits the results nearest first, with their distances; returns their number. */
    int run(KdTree[] trees, NeighborVisitor visitor) {
        for (KdTree t : trees) {
            if (t.size > 0) {
                pushNode(boxDistance(t, 0), t, 0);
            }
        }
        while (nodes > 0) {
            double d = nodeDist[0];
            KdTree t = nodeTree[0];
            int node = nodeId[0];
            popNode();
            if (best == k && d > bestDist[0]) {
                break;
            }
            if (poisonCheck && t.nodeMin[node * dims] == Coordinates.POISON) {
                throw new IllegalStateException("a reader touched a reclaimed (poisoned) tree");
            }
            int right = t.nodeRight[node];
            if (right >= 0) {
                pushNode(boxDistance(t, node + 1), t, node + 1);
                pushNode(boxDistance(t, right), t, right);
                continue;
            }
            int to = t.nodeTo[node];
            for (int i = t.nodeFrom[node]; i < to; ) {   // a leaf lies in one page unless leafSize does not divide a page
                long[] c = t.coords[i >>> t.shift];
                int end = Math.min(to, ((i >>> t.shift) + 1) << t.shift);
                for (int off = (i & t.mask) * dims; i < end; i++, off += dims) {
                    double bound = boundSquared;   // one bound for all trees
                    double sum = 0;
                    for (int dd = 0; dd < dims && sum < bound; dd++) {
                        double x = Coordinates.decode(c[off + dd]) - q[dd];
                        sum += x * x;
                    }
                    if (best == k && !(sum < bound) && bound != Double.POSITIVE_INFINITY) {
                        continue;
                    }
                    double dist = sum >= SAFE_MIN && sum < Double.POSITIVE_INFINITY ? Math.sqrt(sum) : pointDistance(c, off);
                    if (best == k && !(dist < bestDist[0])) {
                        continue;
                    }
                    if (poisonCheck && c[off] == Coordinates.POISON) {
                        throw new IllegalStateException("a reader touched a reclaimed (poisoned) tree");
                    }
                    if (checkTombstones && tombstones.hides(c, off, t.ids.get(i), t.seqs.get(i), limit, probe)) {
                        continue;
                    }
                    offer(dist, t, i);
                }
            }
        }
        int n = best;
        double[] point = new double[dims];
        int[] order = new int[n];
        KdTree[] trees2 = new KdTree[n];
        double[] dist2 = new double[n];
        for (int r = n - 1; r >= 0; r--) {          // pop the max-heap: farthest first
            order[r] = bestIndex[0];
            trees2[r] = bestTree[0];
            dist2[r] = bestDist[0];
            popBest();
        }
        for (int r = 0; r < n; r++) {
            KdTree t = trees2[r];
            for (int dd = 0; dd < dims; dd++) {
                point[dd] = Coordinates.decode(t.coord(order[r], dd));
            }
            visitor.visit(t.ids.get(order[r]), point, dist2[r]);
        }
        return n;
    }

    /** Distance from the query to the box of {@code node} (0 inside it). */
    private double boxDistance(KdTree t, int node) {
        int base = node * dims;
        double sum = 0;
        for (int d = 0; d < dims; d++) {
            double x = gap(t, base, d);
            sum += x * x;
        }
        if (sum >= SAFE_MIN && sum < Double.POSITIVE_INFINITY) {
            return Math.sqrt(sum);
        }
        for (int d = 0; d < dims; d++) {               // the squares over- or underflowed: scale first
            diff[d] = gap(t, base, d);
        }
        return scaledNorm();
    }

    /** Distance from the query to the box of a node in dimension {@code d} (0 if the query lies within). */
    private double gap(KdTree t, int base, int d) {
        double lo = Coordinates.decode(t.nodeMin[base + d]);
        double hi = Coordinates.decode(t.nodeMax[base + d]);
        return q[d] < lo ? lo - q[d] : q[d] > hi ? q[d] - hi : 0;
    }

    /**
     * Distance from the query to the point at {@code c[off..]}, for points whose squared distance
     * over- or underflowed a double (beyond about 1.3e154, below about 1e-150): each difference is
     * scaled by a power of two first, as {@link Math#hypot} does.
     */
    private double pointDistance(long[] c, int off) {
        for (int d = 0; d < dims; d++) {
            diff[d] = Coordinates.decode(c[off + d]) - q[d];
        }
        return scaledNorm();
    }

    /** The length of {@link #diff}, each part scaled by a power of two before it is squared, as {@link Math#hypot} does. */
    private double scaledNorm() {
        double m = 0;
        for (int d = 0; d < dims; d++) {
            m = Math.max(m, Math.abs(diff[d]));
        }
        if (m == 0 || m == Double.POSITIVE_INFINITY) {
            return m;
        }
        int e = Math.getExponent(m);
        double sum = 0;
        for (int d = 0; d < dims; d++) {
            double x = Math.scalb(diff[d], -e);
            sum += x * x;
        }
        return Math.scalb(Math.sqrt(sum), e);
    }

    private void pushNode(double d, KdTree t, int node) {
        if (nodes == nodeDist.length) {
            nodeDist = java.util.Arrays.copyOf(nodeDist, nodes * 2);
            nodeTree = java.util.Arrays.copyOf(nodeTree, nodes * 2);
            nodeId = java.util.Arrays.copyOf(nodeId, nodes * 2);
        }
        int i = nodes++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (nodeDist[p] <= d) {
                break;
            }
            nodeDist[i] = nodeDist[p];
            nodeTree[i] = nodeTree[p];
            nodeId[i] = nodeId[p];
            i = p;
        }
        nodeDist[i] = d;
        nodeTree[i] = t;
        nodeId[i] = node;
    }

    private void popNode() {
        int n = --nodes;
        double d = nodeDist[n];
        KdTree t = nodeTree[n];
        int id = nodeId[n];
        nodeTree[n] = null;
        int i = 0;
        for (;;) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && nodeDist[c + 1] < nodeDist[c]) {
                c++;
            }
            if (nodeDist[c] >= d) {
                break;
            }
            nodeDist[i] = nodeDist[c];
            nodeTree[i] = nodeTree[c];
            nodeId[i] = nodeId[c];
            i = c;
        }
        if (n > 0) {
            nodeDist[i] = d;
            nodeTree[i] = t;
            nodeId[i] = id;
        }
    }

    /** Adds a candidate (the caller checked it beats the current k-th best, or the heap is not full). */
    private void offer(double d, KdTree t, int index) {
        if (best == k) {
            popBest();
        }
        int i = best++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (bestDist[p] >= d) {
                break;
            }
            bestDist[i] = bestDist[p];
            bestTree[i] = bestTree[p];
            bestIndex[i] = bestIndex[p];
            i = p;
        }
        bestDist[i] = d;
        bestTree[i] = t;
        bestIndex[i] = index;
        if (best == k) {
            double top = bestDist[0];
            boundSquared = top == 0 ? 0 : top >= 0x1p-500 && top <= 0x1p500 ? top * top : Double.POSITIVE_INFINITY;
        }
    }

    private void popBest() {
        int n = --best;
        double d = bestDist[n];
        KdTree t = bestTree[n];
        int index = bestIndex[n];
        bestTree[n] = null;
        int i = 0;
        for (;;) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && bestDist[c + 1] > bestDist[c]) {
                c++;
            }
            if (bestDist[c] <= d) {
                break;
            }
            bestDist[i] = bestDist[c];
            bestTree[i] = bestTree[c];
            bestIndex[i] = bestIndex[c];
            i = c;
        }
        if (n > 0) {
            bestDist[i] = d;
            bestTree[i] = t;
            bestIndex[i] = index;
        }
    }
}
