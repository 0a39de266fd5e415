package org.bbflow.bkd;

/**
 * Bulk-loads points into a balanced {@link KdTree}, in place. Each inner node splits its range at
 * {@code leftLeaves * leafSize} (so all leaves but the last are full) by quickselect on the split
 * dimension, never by a full sort. The split dimension follows Lucene's rule: a dimension that was
 * split fewer than half as often as the most-split one is taken first, otherwise the widest span.
 */
final class BulkLoader {
    private final int dims;
    private final int leafSize;
    private final int shift;
    private long[] c;
    private long[] ids;
    private long[] seqs;
    private int[] nodeFrom;
    private int[] nodeTo;
    private int[] nodeRight;
    private long[] nodeMin;
    private long[] nodeMax;
    private int nextNode;
    private long seed = 0x2545F4914F6CDD1DL;

    BulkLoader(int dims, int leafSize, int shift) {
        this.dims = dims;
        this.leafSize = leafSize;
        this.shift = shift;
    }

    /**
     * Builds a tree over the first {@code n} points of the given arrays, reordering them in place,
     * and copies them in tree order into the tree's {@link Pages} (ids and sequence numbers packed,
     * {@link PackedLongs}); the arrays stay the caller's (an insert buffer reuses them).
     */
    KdTree build(long[] coords, long[] ids, long[] seqs, int n, int level) {
        this.c = coords;
        this.ids = ids;
        this.seqs = seqs;
        int leaves = Math.max(1, (n + leafSize - 1) / leafSize);
        int nodes = 2 * leaves - 1;
        nodeFrom = new int[nodes];
        nodeTo = new int[nodes];
        nodeRight = new int[nodes];
        nodeMin = new long[nodes * dims];
        nodeMax = new long[nodes * dims];
        nextNode = 0;
        long minSeq = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            minSeq = Math.min(minSeq, seqs[i]);
        }
        if (n > 0) {
            int maxDepth = 2;
            for (int l = leaves; l > 1; l = (l + 1) / 2) {
                maxDepth++;
            }
            boundsLo = new long[maxDepth + 1][dims];
            boundsHi = new long[maxDepth + 1][dims];
            long[] lo = boundsLo[0];
            long[] hi = boundsHi[0];
            java.util.Arrays.fill(lo, Long.MAX_VALUE);
            java.util.Arrays.fill(hi, Long.MIN_VALUE);
            for (int i = 0, off = 0; i < n; i++, off += dims) {
                for (int d = 0; d < dims; d++) {
                    long v = coords[off + d];
                    lo[d] = Math.min(lo[d], v);
                    hi[d] = Math.max(hi[d], v);
                }
            }
            build(0, n, new int[dims], 0);
        }
        KdTree t = new KdTree(dims, n, level, Pages.of(coords, n, dims, shift), shift, PackedLongs.pack(ids, n, shift),
                PackedLongs.pack(seqs, n, shift), minSeq, nodeFrom, nodeTo, nodeRight, nodeMin, nodeMax);
        this.c = null;                      // a loader kept by an insert buffer holds nothing between builds
        this.ids = null;
        this.seqs = null;
        nodeFrom = null;
        nodeTo = null;
        nodeRight = null;
        nodeMin = null;
        nodeMax = null;
        boundsLo = null;
        boundsHi = null;
        return t;
    }

    private long[][] boundsLo;
    private long[][] boundsHi;

    /**
     * Builds the subtree over {@code [from, to)}. {@code lo}/{@code hi} are bounds of the range
     * inherited from the split planes above (exact at the root); they only steer the choice of the
     * split dimension. The stored node boxes are exact: leaves scan their points, inner nodes take
     * the union of their children, so no level rescans all points.
     */
    private int build(int from, int to, int[] splits, int depth) {
        int node = nextNode++;
        nodeFrom[node] = from;
        nodeTo[node] = to;
        int base = node * dims;
        int count = to - from;
        if (count <= leafSize) {
            nodeRight[node] = -1;
            for (int d = 0; d < dims; d++) {
                nodeMin[base + d] = Long.MAX_VALUE;
                nodeMax[base + d] = Long.MIN_VALUE;
            }
            for (int i = from, off = from * dims; i < to; i++, off += dims) {
                for (int d = 0; d < dims; d++) {
                    long v = c[off + d];
                    if (v < nodeMin[base + d]) {
                        nodeMin[base + d] = v;
                    }
                    if (v > nodeMax[base + d]) {
                        nodeMax[base + d] = v;
                    }
                }
            }
            return node;
        }
        long[] lo = boundsLo[depth];
        long[] hi = boundsHi[depth];
        int dim = splitDimension(lo, hi, splits);
        int leaves = (count + leafSize - 1) / leafSize;
        int mid = from + ((leaves + 1) / 2) * leafSize;
        select(dim, from, to, mid);
        long splitValue = value(mid, dim);
        long[] childLo = boundsLo[depth + 1];
        long[] childHi = boundsHi[depth + 1];
        splits[dim]++;
        System.arraycopy(lo, 0, childLo, 0, dims);
        System.arraycopy(hi, 0, childHi, 0, dims);
        childHi[dim] = splitValue;
        int left = build(from, mid, splits, depth + 1);
        System.arraycopy(lo, 0, childLo, 0, dims);
        System.arraycopy(hi, 0, childHi, 0, dims);
        childLo[dim] = splitValue;
        int right = build(mid, to, splits, depth + 1);
        splits[dim]--;
        nodeRight[node] = right;
        for (int d = 0; d < dims; d++) {
            nodeMin[base + d] = Math.min(nodeMin[left * dims + d], nodeMin[right * dims + d]);
            nodeMax[base + d] = Math.max(nodeMax[left * dims + d], nodeMax[right * dims + d]);
        }
        return node;
    }

    private int splitDimension(long[] lo, long[] hi, int[] splits) {
        int maxSplits = 0;
        for (int d = 0; d < dims; d++) {
            maxSplits = Math.max(maxSplits, splits[d]);
        }
        for (int d = 0; d < dims; d++) {
            if (splits[d] < maxSplits / 2 && hi[d] != lo[d]) {
                return d;
            }
        }
        int best = 0;
        long bestSpan = hi[0] - lo[0];
        for (int d = 1; d < dims; d++) {
            long span = hi[d] - lo[d];
            if (Long.compareUnsigned(span, bestSpan) > 0) {
                best = d;
                bestSpan = span;
            }
        }
        return best;
    }

    /** Quickselect: afterwards every point in [from, k) has value(dim) <= value(k) <= every point in (k, to). */
    private void select(int dim, int from, int to, int k) {
        int lo = from;
        int hi = to - 1;
        int rounds = 0;
        while (hi - lo > 16) {
            long p;
            if (++rounds > 48) {
                p = value(lo + (int) Long.remainderUnsigned(nextRandom(), hi - lo + 1), dim);
            } else {
                int m = (lo + hi) >>> 1;
                p = median(value(lo, dim), value(m, dim), value(hi, dim));
            }
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (value(i, dim) < p) {
                    i++;
                }
                while (value(j, dim) > p) {
                    j--;
                }
                if (i <= j) {
                    swap(i, j);
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && value(j - 1, dim) > value(j, dim); j--) {
                swap(j, j - 1);
            }
        }
    }

    private long nextRandom() {
        seed ^= seed << 13;
        seed ^= seed >>> 7;
        seed ^= seed << 17;
        return seed;
    }

    private static long median(long a, long b, long c) {
        if (a > b) {
            long t = a;
            a = b;
            b = t;
        }
        if (b > c) {
            b = c;
        }
        return Math.max(a, b);
    }

    private long value(int i, int dim) {
        return c[i * dims + dim];
    }

    private void swap(int i, int j) {
        int oi = i * dims;
        int oj = j * dims;
        for (int d = 0; d < dims; d++) {
            long t = c[oi + d];
            c[oi + d] = c[oj + d];
            c[oj + d] = t;
        }
        long t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
        t = seqs[i];
        seqs[i] = seqs[j];
        seqs[j] = t;
    }
}
