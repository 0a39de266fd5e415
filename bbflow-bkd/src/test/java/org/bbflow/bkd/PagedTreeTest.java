package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Trees keep their points in pages ({@link Pages}); with a tiny page (1 to 32 points) a small tree
 * spans many pages and leaves cross page boundaries (leaf sizes that do not divide the page). Every
 * query kind must answer exactly what brute force answers: counts, the ids and coordinates a box
 * visits, radius queries, nearest neighbours with their distances, contains; on a forest of several
 * trees, after a forced merge (pages gathered and re-paged) and after a reopen from disk with
 * another page size (pages are not in the file format).
 */
@Timeout(120)
class PagedTreeTest {

    @ParameterizedTest(name = "{0}-D, pages of 2^{1} points, leaves of {2}")
    @CsvSource({"1,0,3", "2,0,8", "2,1,5", "2,3,13", "3,2,7", "3,5,8", "8,1,3", "2,4,40"})
    void everyQueryOnAPagedForestMatchesBruteForce(int dims, int shift, int leaf, @TempDir Path dir) {
        long seed = TestSeed.mix(dims * 1000L + shift * 100L + leaf);
        System.out.println("PagedTreeTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + ")");
        Random r = new Random(seed);
        int grid = dims <= 2 ? 30 : 6;
        Oracle oracle = new Oracle();
        try (BkdTree t = BkdTree.builder(dims).directory(dir).pageShift(shift).leafSize(leaf).bufferSize(97)
                .merging(false).build()) {
            oracle.fill(t, r, dims, grid, 1500, 9);
            t.refresh();
            assertTrue(t.stats().trees() > 10, "a forest of many trees: " + t.stats());
            assertTrue(t.forest().trees[0].coords.length > 1, "a tree spans several pages");
            check("forest, seed " + seed, t, oracle, r, dims, grid);
            t.forceMerge();
            assertEquals(1, t.stats().trees());
            check("merged, seed " + seed, t, oracle, r, dims, grid);
            t.commit();
        }
        try (BkdTree t = BkdTree.builder(dims).directory(dir).pageShift((shift + 2) % 6).leafSize(leaf).build()) {
            check("reopened with pages of 2^" + (shift + 2) % 6 + ", seed " + seed, t, oracle, r, dims, grid);
        }
    }

    private static void check(String what, BkdTree t, Oracle oracle, Random r, int dims, int grid) {
        Map<Long, double[]> byId = new HashMap<>();
        for (Oracle.Pt x : oracle.live) {
            byId.put(x.id(), x.p());
        }
        assertEquals(oracle.live.size(), t.count(Box.all(dims)), what);
        for (int q = 0; q < 60; q++) {
            Box box = q == 0 ? Box.all(dims) : Oracle.randomBox(r, dims, grid);
            String w = what + ", " + box;
            long[] want = oracle.ids(box);
            assertEquals(want.length, t.count(box), w);
            List<Long> got = new ArrayList<>();
            t.query(box, (id, p) -> {
                got.add(id);
                assertArrayEquals(byId.get(id), p, 0.0, w + ": coordinates of id " + id);
            });
            assertArrayEquals(want, got.stream().mapToLong(Long::longValue).sorted().toArray(), w);

            double[] c = new double[dims];
            for (int d = 0; d < dims; d++) {
                c[d] = r.nextInt(grid + 2) - 1 + (q % 3 == 0 ? 0.5 : 0);
            }
            double radius = r.nextInt(grid / 3 + 1) + (q % 4 == 0 ? 0.25 : 0);
            String wd = what + ", center " + Arrays.toString(c) + " radius " + radius;
            long[] inBall = oracle.live.stream().filter(x -> Oracle.dist2(x.p(), c) <= radius * radius)
                    .mapToLong(Oracle.Pt::id).sorted().toArray();
            List<Long> ball = new ArrayList<>();
            t.withinDistance(c, radius, (id, p) -> {
                ball.add(id);
                assertArrayEquals(byId.get(id), p, 0.0, wd + ": coordinates of id " + id);
            });
            assertArrayEquals(inBall, ball.stream().mapToLong(Long::longValue).sorted().toArray(), wd);
            assertEquals(inBall.length, t.countWithinDistance(c, radius), wd);

            int k = 1 + r.nextInt(30);
            double[] brute = oracle.live.stream().mapToDouble(x -> Math.sqrt(Oracle.dist2(x.p(), c))).sorted().limit(k).toArray();
            List<Neighbor> nn = t.nearest(c, k);
            assertEquals(brute.length, nn.size(), wd);
            for (int i = 0; i < nn.size(); i++) {
                Neighbor x = nn.get(i);
                assertEquals(brute[i], x.distance(), 0.0, wd + ": distance of neighbour " + i);
                assertArrayEquals(byId.get(x.id()), x.point(), 0.0, wd + ": neighbour " + i + " is the live point of its id");
            }
        }
        for (int i = 0; i < 40; i++) {
            Oracle.Pt x = oracle.live.get(r.nextInt(oracle.live.size()));
            assertTrue(t.contains(x.p(), x.id()), what + ": contains " + x.id());
        }
    }
}
