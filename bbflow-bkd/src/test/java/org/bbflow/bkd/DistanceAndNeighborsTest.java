package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

/**
 * Distance (radius) queries and nearest neighbours with their distances, against brute force, on
 * a forest of several trees with deleted points (grid coordinates: many points lie exactly on the
 * radius and many distances tie).
 */
@Timeout(120)
class DistanceAndNeighborsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void radiusQueriesAndNeighbourDistancesMatchBruteForce(int dims) {
        long seed = TestSeed.mix(dims);
        System.out.println("DistanceAndNeighborsTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), " + dims + "-D");
        Random r = new Random(seed);
        Oracle oracle = new Oracle();
        int grid = dims <= 2 ? 40 : 8;
        try (BkdTree t = BkdTree.builder(dims).bufferSize(300).leafSize(8).merging(false).pageShift(dims).build()) {
            oracle.fill(t, r, dims, grid, 3000, 7);
            t.refresh();
            for (int q = 0; q < 200; q++) {
                double[] c = new double[dims];
                for (int d = 0; d < dims; d++) {
                    c[d] = r.nextInt(grid + 4) - 2 + (q % 3 == 0 ? 0.5 : 0);
                }
                double radius = q % 10 == 0 ? 0 : r.nextInt(grid / 2) + (q % 4 == 0 ? 0.25 : 0);
                String what = "seed " + seed + ", query " + q + ": center " + Arrays.toString(c) + " radius " + radius;
                long[] want = oracle.live.stream().filter(x -> Oracle.dist2(x.p(), c) <= radius * radius)
                        .mapToLong(Oracle.Pt::id).sorted().toArray();
                List<Long> got = new ArrayList<>();
                long n = t.withinDistance(c, radius, (id, p) -> {
                    got.add(id);
                    assertEquals(true, Oracle.dist2(p, c) <= radius * radius, what + ": visited a point outside");
                });
                assertEquals(got.size(), n, what);
                assertArrayEquals(want, got.stream().mapToLong(Long::longValue).sorted().toArray(), what);
                assertEquals(want.length, t.countWithinDistance(c, radius), what);

                int k = 1 + r.nextInt(40);
                double[] brute = oracle.live.stream().mapToDouble(x -> Math.sqrt(Oracle.dist2(x.p(), c))).sorted()
                        .limit(k).toArray();
                List<Neighbor> nn = t.nearest(c, k);
                assertEquals(brute.length, nn.size(), what);
                for (int i = 0; i < nn.size(); i++) {
                    Neighbor x = nn.get(i);
                    assertEquals(brute[i], x.distance(), 0.0, what + ": distance of neighbour " + i);
                    assertEquals(Math.sqrt(Oracle.dist2(x.point(), c)), x.distance(), 0.0, what + ": the distance is its own");
                    assertEquals(true, t.contains(x.point(), x.id()), what + ": a live point");
                }
            }
        }
    }

    /**
     * Distances whose squares over- or underflow a double: the same grid scaled by 2^600 and by
     * 2^-600 (exact in binary) answers every radius and nearest-neighbour query exactly as the
     * unscaled grid, scaled. Before, a radius above about 1.3e154 took every point (its square was
     * infinite), a tiny one took points beyond it, and neighbours at 1e200 all had distance
     * infinity (ranked arbitrarily).
     */
    @ParameterizedTest
    @ValueSource(ints = {600, -600})
    void hugeAndTinyScalesGiveTheAnswersOfTheUnscaledGrid(int exponent) {
        long seed = TestSeed.mix(exponent);
        System.out.println("DistanceAndNeighborsTest scales seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), 2^" + exponent);
        Random r = new Random(seed);
        int dims = 2;
        int grid = 40;
        double s = Math.scalb(1.0, exponent);
        try (BkdTree plain = BkdTree.builder(dims).bufferSize(300).leafSize(8).merging(false).build();
             BkdTree scaled = BkdTree.builder(dims).bufferSize(300).leafSize(8).merging(false).build()) {
            for (int i = 0; i < 2000; i++) {
                double[] p = Oracle.gridPoint(r, dims, grid);
                plain.insert(p, i);
                scaled.insert(new double[] {p[0] * s, p[1] * s}, i);
            }
            plain.refresh();
            scaled.refresh();
            for (int q = 0; q < 100; q++) {
                double[] c = {r.nextInt(grid + 4) - 2 + (q % 3 == 0 ? 0.5 : 0), r.nextInt(grid + 4) - 2};
                double[] sc = {c[0] * s, c[1] * s};
                double radius = q % 10 == 0 ? 0 : r.nextInt(grid / 2) + (q % 4 == 0 ? 0.25 : 0);
                String what = "seed " + seed + ", query " + q + ": center " + Arrays.toString(c) + " radius " + radius;
                assertArrayEquals(ids(plain, c, radius), ids(scaled, sc, radius * s), what);
                assertEquals(plain.countWithinDistance(c, radius), scaled.countWithinDistance(sc, radius * s), what);
                int k = 1 + r.nextInt(40);
                List<Neighbor> want = plain.nearest(c, k);
                List<Neighbor> got = scaled.nearest(sc, k);
                assertEquals(want.size(), got.size(), what);
                for (int i = 0; i < want.size(); i++) {
                    assertEquals(want.get(i).distance() * s, got.get(i).distance(), 0.0, what + ": neighbour " + i);
                }
            }
        }
        try (BkdTree t = BkdTree.builder(2).build()) {
            t.insert(new double[] {1e300, 1e300}, 1);
            t.insert(new double[] {3e200, 0}, 2);
            t.insert(new double[] {1e200, 0}, 3);
            t.insert(new double[] {0.8e-200, 0.8e-200}, 4);
            t.insert(new double[] {0.5e-200, 0}, 5);
            t.insert(new double[] {Double.MIN_VALUE, 0}, 6);
            t.insert(new double[] {0, 0}, 7);
            t.refresh();
            double[] o = {0, 0};
            assertEquals(6, t.countWithinDistance(o, 3e200), "all but the point at 1.4e300");
            assertEquals(5, t.countWithinDistance(o, 1e200));
            assertEquals(3, t.countWithinDistance(o, 1e-200), "the point at 1.13e-200 lies beyond 1e-200");
            assertEquals(1, t.countWithinDistance(o, 0), "only the point at distance 0, not the one at 4.9e-324");
            assertEquals(7, t.countWithinDistance(o, Double.MAX_VALUE));
            List<Neighbor> nn = t.nearest(o, 7);
            long[] order = nn.stream().mapToLong(Neighbor::id).toArray();
            assertArrayEquals(new long[] {7, 6, 5, 4, 3, 2, 1}, order, nn.toString());
            for (Neighbor x : nn) {
                double want = Math.hypot(x.point()[0], x.point()[1]);
                assertEquals(want, x.distance(), Math.ulp(want), "distance of " + x.id());
            }
        }
    }

    private static long[] ids(BkdTree t, double[] c, double radius) {
        List<Long> got = new ArrayList<>();
        t.withinDistance(c, radius, (id, p) -> got.add(id));
        return got.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    @Test
    void badArgumentsAreRefused() {
        try (BkdTree t = BkdTree.builder(2).build()) {
            double[] c = {0, 0};
            assertThrows(IllegalArgumentException.class, () -> t.countWithinDistance(c, -1));
            assertThrows(IllegalArgumentException.class, () -> t.countWithinDistance(c, Double.NaN));
            assertThrows(IllegalArgumentException.class, () -> t.countWithinDistance(new double[] {0}, 1));
            assertThrows(IllegalArgumentException.class, () -> t.countWithinDistance(new double[] {0, Double.NaN}, 1));
            assertThrows(IllegalArgumentException.class, () -> t.withinDistance(c, 1, null));
            assertThrows(IllegalArgumentException.class, () -> t.nearest(c, 0));
            t.insert(new double[] {Double.POSITIVE_INFINITY, 1}, 1);
            t.insert(new double[] {3, 4}, 2);
            t.refresh();
            assertEquals(1, t.countWithinDistance(c, 5));
            assertEquals(2, t.countWithinDistance(c, Double.POSITIVE_INFINITY));
            List<Neighbor> nn = t.nearest(c, 5);
            assertEquals(2, nn.size());
            assertEquals(5.0, nn.get(0).distance());
            assertEquals(Double.POSITIVE_INFINITY, nn.get(1).distance());
        }
    }
}
