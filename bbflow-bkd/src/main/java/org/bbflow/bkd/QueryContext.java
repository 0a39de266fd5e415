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
    long count;

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
        this.poisonCheck = poisonCheck;
    }

    void accept(KdTree t, int i) {
        int dims = t.dims;
        long[] c = t.coords;
        int off = i * dims;
        if (poisonCheck && c[off] == Coordinates.POISON) {
            touchedPoison();
        }
        if (checkTombstones && tombstones.hides(c, off, t.ids[i], t.seqs[i], tombstoneLimit, probe)) {
            return;
        }
        count++;
        if (visitor != null) {
            for (int d = 0; d < dims; d++) {
                point[d] = Coordinates.decode(c[off + d]);
            }
            visitor.visit(t.ids[i], point);
        }
    }

    void touchedPoison() {
        throw new IllegalStateException("a reader touched a reclaimed (poisoned) tree");
    }
}
