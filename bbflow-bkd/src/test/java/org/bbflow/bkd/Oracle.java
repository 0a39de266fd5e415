package org.bbflow.bkd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Brute-force reference: a plain list of live points. */
final class Oracle {
    record Pt(double[] p, long id) {}

    final List<Pt> live = new ArrayList<>();

    void insert(double[] p, long id) {
        live.add(new Pt(p.clone(), id));
    }

    void delete(double[] p, long id) {
        live.removeIf(x -> x.id == id && Arrays.equals(x.p, p));
    }

    /**
     * Inserts {@code n} points of the grid (ids 0 to n-1) into the tree and here, and after every
     * {@code deleteEvery}-th insert (from the first on; 0: never) deletes a random live point from both.
     */
    void fill(BkdTree tree, Random r, int dims, int grid, int n, int deleteEvery) {
        for (int i = 0; i < n; i++) {
            double[] p = gridPoint(r, dims, grid);
            tree.insert(p, i);
            insert(p, i);
            if (deleteEvery > 0 && i % deleteEvery == 0) {
                deleteRandom(tree, r);
            }
        }
    }

    /** Deletes a random live point from the tree and from here; returns it. */
    Pt deleteRandom(BkdTree tree, Random r) {
        Pt x = live.get(r.nextInt(live.size()));
        tree.delete(x.p(), x.id());
        delete(x.p(), x.id());
        return x;
    }

    /** The squared Euclidean distance of two points. */
    static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int d = 0; d < a.length; d++) {
            double x = a[d] - b[d];
            s += x * x;
        }
        return s;
    }

    long[] ids(Box box) {
        return live.stream().filter(x -> box.contains(x.p)).mapToLong(Pt::id).sorted().toArray();
    }

    static long[] ids(BkdTree tree, Box box) {
        List<Long> out = new ArrayList<>();
        long n = tree.query(box, (id, p) -> out.add(id));
        long[] r = out.stream().mapToLong(Long::longValue).sorted().toArray();
        if (n != r.length) {
            throw new AssertionError("query returned " + n + " but visited " + r.length);
        }
        return r;
    }

    static long[] ids(Snapshot s, Box box) {
        List<Long> out = new ArrayList<>();
        s.query(box, (id, p) -> out.add(id));
        return out.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** A point on a coarse grid, so duplicates and boxes touching cell edges are common. */
    static double[] gridPoint(Random r, int dims, int grid) {
        double[] p = new double[dims];
        for (int d = 0; d < dims; d++) {
            p[d] = r.nextInt(grid);
        }
        return p;
    }

    static Box randomBox(Random r, int dims, int grid) {
        double[] lo = new double[dims];
        double[] hi = new double[dims];
        for (int d = 0; d < dims; d++) {
            double a = r.nextInt(grid + 2) - 1;
            double b = r.nextInt(grid + 2) - 1;
            if (r.nextInt(8) == 0) {
                a += 0.5;
            }
            lo[d] = Math.min(a, b);
            hi[d] = Math.max(a, b);
        }
        return Box.of(lo, hi);
    }

    /** Deterministic coordinates of id (for concurrent tests where the id names the point). */
    static double[] pointOf(long id, int dims, int grid) {
        long h = id * 0x9E3779B97F4A7C15L;
        double[] p = new double[dims];
        for (int d = 0; d < dims; d++) {
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            p[d] = Math.floorMod(h >>> 7, grid);
        }
        return p;
    }
}
