package org.bbflow.bkd;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One immutable, balanced kd-tree of the forest. Points live in {@link Pages} (point-major
 * coordinates, {@code 2^shift} points per page; ids and insert sequence numbers as
 * {@link PackedLongs} in the same layout); nodes are numbered in preorder, the left child of
 * node {@code n} is {@code n + 1}, the right child is {@code nodeRight[n]} ({@code -1} for leaves).
 * Every node stores its exact bounding box and its point range {@code [nodeFrom, nodeTo)}.
 */
final class KdTree {
    static final int OUTSIDE = 0;
    static final int INSIDE = 1;
    static final int CROSSES = 2;

    final int dims;
    final int size;
    final int level;
    /** Coordinates of point {@code i}: {@code coords[i >>> shift]} from {@code (i & mask) * dims}. */
    final long[][] coords;
    final int shift;
    final int mask;
    final PackedLongs ids;
    final PackedLongs seqs;
    final long minSeq;
    final int[] nodeFrom;
    final int[] nodeTo;
    final int[] nodeRight;
    final long[] nodeMin;
    final long[] nodeMax;

    /**
     * No point of this tree is hidden by a tombstone numbered up to this (the tree was built by a
     * pass that dropped them); written before publication. Unknown for reopened trees.
     */
    long filteredUpTo = Long.MIN_VALUE;
    /** Forest version of the first forest containing this tree; written before publication. */
    volatile long birth = -1;
    /** Forest version of the first forest no longer containing this tree. */
    volatile long death = Long.MAX_VALUE;
    /** Claimed by a merge (or force-merge); a claimed tree is never claimed again. */
    final AtomicBoolean claimed = new AtomicBoolean();
    volatile boolean reclaimed;
    /**
     * The file holding this tree once a commit wrote it (persistent indexes). Reclaiming the tree
     * never deletes it: only a later commit whose manifest no longer names it does.
     */
    volatile Manifest.Entry file;

    KdTree(int dims, int size, int level, long[][] coords, int shift, PackedLongs ids, PackedLongs seqs, long minSeq,
           int[] nodeFrom, int[] nodeTo, int[] nodeRight, long[] nodeMin, long[] nodeMax) {
        this.dims = dims;
        this.size = size;
        this.level = level;
        this.coords = coords;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        this.ids = ids;
        this.seqs = seqs;
        this.minSeq = minSeq;
        this.nodeFrom = nodeFrom;
        this.nodeTo = nodeTo;
        this.nodeRight = nodeRight;
        this.nodeMin = nodeMin;
        this.nodeMax = nodeMax;
    }

    int relate(int node, long[] qmin, long[] qmax) {
        int base = node * dims;
        boolean inside = true;
        for (int d = 0; d < dims; d++) {
            long lo = nodeMin[base + d];
            long hi = nodeMax[base + d];
            if (hi < qmin[d] || lo > qmax[d]) {
                return OUTSIDE;
            }
            if (lo < qmin[d] || hi > qmax[d]) {
                inside = false;
            }
        }
        return inside ? INSIDE : CROSSES;
    }

    /** Runs a window query; results go to {@code q}. */
    void query(QueryContext q) {
        if (size > 0) {
            visit(0, q);
        }
    }

    private void visit(int node, QueryContext q) {
        if (q.poisonCheck && nodeMin[node * dims] == Coordinates.POISON) {
            q.touchedPoison();
        }
        int rel = relate(node, q.min, q.max);
        if (rel == OUTSIDE) {
            return;
        }
        int from = nodeFrom[node];
        int to = nodeTo[node];
        int right = nodeRight[node];
        if (rel == INSIDE) {
            boolean clear = q.clearOfTombstones(nodeMin, nodeMax, node * dims);
            if (clear && q.visitor == null && !q.poisonCheck) {
                q.count += to - from;               // whole cell: no tombstone lies in it
                return;
            }
            if (!clear && right >= 0 && q.tombstoneIndex != null) {
                visit(node + 1, q);                 // only the sub-cells holding tombstones get checked
                visit(right, q);
                return;
            }
            q.acceptAll(this, from, to, !clear);
            return;
        }
        if (right < 0) {
            boolean check = !q.clearOfTombstones(nodeMin, nodeMax, node * dims);
            long[] qmin = q.min;
            long[] qmax = q.max;
            int dims = this.dims;
            for (int i = from; i < to; ) {          // a leaf lies in one page unless leafSize does not divide a page
                int p = i >>> shift;
                long[] c = coords[p];
                byte[] idPage = ids.page(p);
                int end = Math.min(to, (p + 1) << shift);
                outer:
                for (int off = (i & mask) * dims; i < end; i++, off += dims) {
                    for (int d = 0; d < dims; d++) {
                        long v = c[off + d];
                        if (v < qmin[d] || v > qmax[d]) {
                            if (q.poisonCheck && v == Coordinates.POISON) {
                                q.touchedPoison();
                            }
                            continue outer;
                        }
                    }
                    q.accept(c, off, idPage, i & mask, this, i, check);
                }
            }
            return;
        }
        visit(node + 1, q);
        visit(right, q);
    }

    /** Whether this tree holds a point equal to {@code key} with an id of {@code id} and insert sequence below {@code beforeSeq}. */
    boolean holdsOlder(long[] key, long id, long beforeSeq) {
        if (size == 0 || minSeq >= beforeSeq) {
            return false;
        }
        return holdsOlder(0, key, id, beforeSeq);
    }

    private boolean holdsOlder(int node, long[] key, long id, long beforeSeq) {
        if (relate(node, key, key) == OUTSIDE) {
            return false;
        }
        int right = nodeRight[node];
        if (right >= 0) {
            return holdsOlder(node + 1, key, id, beforeSeq) || holdsOlder(right, key, id, beforeSeq);
        }
        outer:
        for (int i = nodeFrom[node]; i < nodeTo[node]; i++) {
            if (ids.get(i) != id || seqs.get(i) >= beforeSeq) {
                continue;
            }
            long[] c = coords[i >>> shift];
            int off = (i & mask) * dims;
            for (int d = 0; d < dims; d++) {
                if (c[off + d] != key[d]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Coordinate {@code d} of point {@code i}. */
    long coord(int i, int d) {
        return coords[i >>> shift][(i & mask) * dims + d];
    }

    /** Bytes held by this tree's arrays (16-byte array headers and page tables included). */
    long bytes() {
        return Pages.bytes(coords) + ids.bytes() + seqs.bytes() + 16L * 5
                + 8L * (nodeMin.length + nodeMax.length) + Pages.aligned(4L * nodeFrom.length) * 3;
    }

    /**
     * Called only by the reclaimer once no reader can see this tree. Its arrays are left to the
     * garbage collector (nothing pools them); in poisoning mode (a debug mode of the tests) they are
     * first filled with {@link Coordinates#POISON}, so a reader that should not be here fails.
     */
    void reclaim(boolean poison) {
        reclaimed = true;
        if (poison) {
            for (long[] page : coords) {
                java.util.Arrays.fill(page, Coordinates.POISON);
            }
            java.util.Arrays.fill(nodeMin, Coordinates.POISON);
            java.util.Arrays.fill(nodeMax, Coordinates.POISON);
        }
    }

    @Override
    public String toString() {
        return "KdTree[size=" + size + ", level=" + level + ", birth=" + birth + ", death=" + death + "]";
    }
}
