package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

/** Issue 12.10: k-nearest-neighbour queries equal brute force (with deletes and several trees). */
class NearestTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void nearestEqualsBruteForce(long seed) {
        System.out.println("NearestTest seed " + seed);
        Random r = new Random(TestSeed.mix(seed));
        int dims = 1 + r.nextInt(3);
        int grid = 50;
        try (BkdTree t = BkdTree.builder(dims).leafSize(2 + r.nextInt(16)).bufferSize(1 + r.nextInt(300))
                .mergeFactor(2 + r.nextInt(3)).poisonReclaimed(true).pageShift(r.nextInt(6)).build()) {
            Oracle oracle = new Oracle();
            List<Oracle.Pt> inserted = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                double[] p = new double[dims];
                for (int d = 0; d < dims; d++) {
                    p[d] = r.nextInt(grid) + (r.nextBoolean() ? 0.25 : 0);
                }
                t.insert(p, i);
                oracle.insert(p, i);
                inserted.add(new Oracle.Pt(p, i));
                if (r.nextInt(10) == 0) {
                    Oracle.Pt x = inserted.get(r.nextInt(inserted.size()));
                    t.delete(x.p(), x.id());
                    oracle.delete(x.p(), x.id());
                }
            }
            t.refresh();
            for (int step = 0; step < 200; step++) {
                double[] q = new double[dims];
                for (int d = 0; d < dims; d++) {
                    q[d] = r.nextDouble() * (grid + 10) - 5;
                }
                int k = 1 + r.nextInt(step % 20 == 0 ? 4000 : 30);
                List<double[]> got = new ArrayList<>();
                List<Long> ids = new ArrayList<>();
                int n = t.nearest(q, k, (id, p) -> {
                    got.add(p.clone());
                    ids.add(id);
                });
                double[] expected = oracle.live.stream().mapToDouble(x -> Oracle.dist2(x.p(), q)).sorted()
                        .limit(k).toArray();
                double[] actual = got.stream().mapToDouble(p -> Oracle.dist2(p, q)).toArray();
                assertEquals(Math.min(k, oracle.live.size()), n, "seed " + seed + " step " + step);
                assertArrayEquals(expected, actual, "seed " + seed + " step " + step + " k " + k);
                for (int i = 0; i < got.size(); i++) {
                    double[] p = got.get(i);
                    long id = ids.get(i);
                    assertTrue(oracle.live.stream().anyMatch(x -> x.id() == id && Arrays.equals(x.p(), p)),
                            "seed " + seed + ": a returned point is live");
                }
                if (step % 50 == 0) {
                    t.forceMerge();
                }
            }
            assertThrows(IllegalArgumentException.class, () -> t.nearest(new double[dims], 0, (id, p) -> { }));
        }
    }
}
