package org.bbflow.bkd;

/**
 * Per-query state: the encoded window, the result count or visitor, the tombstone limit and a
 * reusable decoded point and tombstone probe, so the per-point path allocates nothing.
 */
final class QueryContext {
    final long[] min;
    final long[] max;
    final PointVisitor visitor;
    final double[] point;
    final Tombstones tombstones;
    final Tombstones.Probe probe;
    final long tombstoneLimit;
    final boolean checkTombstones;
    final boolean poisonCheck;
    /** Locations of the tombstones, or null (then every point is checked). */
    final Tombstones.PointIndex tombstoneIndex;
    long count;
    /** Points looked up in the tombstones (tests: cells without tombstones are not checked). */
    long tombstoneChecks;

    QueryContext(long[] min, long[] max, PointVisitor visitor, int dims, Tombstones tombstones,
                 long tombstoneLimit, boolean poisonCheck) {
        this.min = min;
        this.max = max;
        this.visitor = visitor;
        this.point = visitor == null ? null : new double[dims];
        this.tombstones = tombstones;
        this.tombstoneLimit = tombstoneLimit;
        this.checkTombstones = !tombstones.isEmpty();
        this.probe = checkTombstones ? tombstones.newProbe() : null;
        this.tombstoneIndex = checkTombstones ? tombstones.pointIndex() : null;
        this.poisonCheck = poisonCheck;
    }

    /** Whether no tombstone can lie in the box stored at {@code base} of {@code min}/{@code max}. */
    boolean clearOfTombstones(long[] min, long[] max, int base) {
        return !checkTombstones || (tombstoneIndex != null && !tombstoneIndex.anyIn(min, max, base));
    }

    /** Counts (and visits) points {@code [from, to)} of {@code t}; {@code check}: look them up in the tombstones. */
    void acceptAll(KdTree t, int from, int to, boolean check) {
        int dims = t.dims;
        for (int i = from; i < to; ) {
            int p = i >>> t.shift;
            long[] c = t.coords[p];
            byte[] idPage = t.ids.page(p);
            int end = Math.min(to, (p + 1) << t.shift);
            for (int j = i & t.mask, off = j * dims; i < end; i++, j++, off += dims) {
                accept(c, off, idPage, j, t, i, check);
            }
        }
    }

    /**
     * Counts (and visits) point {@code i} of {@code t}, whose coordinates are {@code c[off..]} and
     * whose id is value {@code j} of {@code idPage} (its pages, looked up once per run of points by
     * the caller); {@code check}: look it up in the tombstones.
     */
    void accept(long[] c, int off, byte[] idPage, int j, KdTree t, int i, boolean check) {
        int dims = t.dims;
        if (poisonCheck && c[off] == Coordinates.POISON) {
            touchedPoison();
        }
        if (check) {
            tombstoneChecks++;
            if (tombstones.hides(c, off, t.ids.get(idPage, j), t.seqs.get(i), tombstoneLimit, probe)) {
                return;
            }
        }
        count++;
        if (visitor != null) {
            for (int d = 0; d < dims; d++) {
                point[d] = Coordinates.decode(c[off + d]);
            }
            visitor.visit(t.ids.get(idPage, j), point);
        }
    }

    void touchedPoison() {
        throw new IllegalStateException("a reader touched a reclaimed (poisoned) tree");
    }
}
