package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.bbflow.testing.TestSeed;

class EdgeCaseTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 8})
    void oneAndEightDimensionsMatchOracle(int dims) throws Exception {
        long seed = TestSeed.mix(100 + dims);
        Random r = new Random(seed);
        try (BkdTree t = BkdTree.builder(dims).leafSize(8).bufferSize(100).mergeFactor(3).build()) {
            Oracle oracle = new Oracle();
            oracle.fill(t, r, dims, 6, 3000, 5);
            t.refresh();
            t.awaitMerges();
            for (int i = 0; i < 60; i++) {
                Box box = Oracle.randomBox(r, dims, 6);
                assertArrayEquals(oracle.ids(box), Oracle.ids(t, box), "seed " + seed + " " + box);
            }
            assertEquals(oracle.live.size(), t.count(Box.all(dims)));
        }
    }

    @Test
    void allPointsEqual() {
        try (BkdTree t = BkdTree.builder(3).leafSize(16).bufferSize(1000).build()) {
            double[] p = {1.5, -2, 7};
            for (int i = 0; i < 5000; i++) {
                t.insert(p, i);
            }
            t.refresh();
            t.forceMerge();
            assertEquals(5000, t.count(Box.point(p)));
            assertEquals(5000, t.count(Box.all(3)));
            assertEquals(0, t.count(Box.of(new double[] {1.5, -2, 7.000001}, new double[] {2, 0, 8})));
            assertTrue(t.contains(p, 4999));
            assertFalse(t.contains(p, 5000));
        }
    }

    @Test
    void emptyIndex() throws Exception {
        try (BkdTree t = BkdTree.builder(2).build()) {
            assertEquals(0, t.count(Box.all(2)));
            assertEquals(0, t.query(Box.all(2), (id, p) -> { throw new AssertionError(); }));
            assertFalse(t.contains(new double[] {0, 0}, 0));
            t.refresh();
            t.forceMerge();
            t.awaitMerges();
            try (Snapshot s = t.snapshot()) {
                assertEquals(0, s.count(Box.all(2)));
            }
            BkdStats stats = t.stats();
            assertEquals(0, stats.trees());
            assertEquals(0, stats.points());
        }
    }

    @Test
    void boxesTouchingCellEdgesAreInclusive() {
        try (BkdTree t = BkdTree.builder(1).leafSize(4).bufferSize(1000).build()) {
            for (int i = 0; i < 100; i++) {
                t.insert(new double[] {i}, i);
            }
            t.refresh();
            assertEquals(11, t.count(Box.of(new double[] {10}, new double[] {20})));
            assertEquals(1, t.count(Box.of(new double[] {4}, new double[] {4})));
            assertEquals(0, t.count(Box.of(new double[] {3.5}, new double[] {3.9})));
            assertEquals(100, t.count(Box.of(new double[] {0}, new double[] {99})));
            assertEquals(1, t.count(Box.of(new double[] {99}, new double[] {1e300})));
            assertEquals(0, t.count(Box.of(new double[] {-1e300}, new double[] {-Double.MIN_VALUE})));
        }
    }

    @Test
    void doublesCompareLikeDoubleCompare() {
        try (BkdTree t = BkdTree.builder(1).build()) {
            t.insert(new double[] {-0.0}, 1);
            t.insert(new double[] {0.0}, 2);
            t.insert(new double[] {Double.NEGATIVE_INFINITY}, 3);
            t.insert(new double[] {Double.POSITIVE_INFINITY}, 4);
            t.insert(new double[] {-Double.MAX_VALUE}, 5);
            t.refresh();
            assertEquals(1, t.count(Box.of(new double[] {0.0}, new double[] {0.0})), "-0.0 < 0.0");
            assertEquals(2, t.count(Box.of(new double[] {-0.0}, new double[] {0.0})));
            assertEquals(5, t.count(Box.all(1)));
            assertEquals(2, t.count(Box.of(new double[] {Double.NEGATIVE_INFINITY}, new double[] {-1})));
            List<Long> bits = new ArrayList<>();
            t.query(Box.of(new double[] {-0.0}, new double[] {-0.0}), (id, p) -> bits.add(Double.doubleToRawLongBits(p[0])));
            assertEquals(List.of(Double.doubleToRawLongBits(-0.0)), bits);
            assertTrue(t.contains(new double[] {-0.0}, 1));
            assertFalse(t.contains(new double[] {0.0}, 1));
        }
    }

    @Test
    void badInputIsRejectedWithClearMessages() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(0)).getMessage().contains("dims"));
        assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(9));
        assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(2).leafSize(1));
        assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(2).mergeFactor(1));
        // merge workers are threads: the bound of every BBFlow worker count (a huge one started threads
        // until the JVM could start no more)
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BkdTree.builder(2).mergeWorkers(0))
                .getMessage().contains("mergeWorkers"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BkdTree.builder(2).mergeWorkers(org.bbflow.core.Parallelism.MAX + 1)).getMessage()
                .contains("mergeWorkers must be in [1, " + org.bbflow.core.Parallelism.MAX + "]"));
        BkdTree.builder(2).mergeWorkers(org.bbflow.core.Parallelism.MAX);
        try (BkdTree t = BkdTree.builder(2).build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.insert(new double[] {1}, 1));
            assertTrue(e.getMessage().contains("1 dimensions"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> t.insert(new double[] {1, Double.NaN}, 1));
            assertTrue(e.getMessage().contains("NaN"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> t.insert(null, 1));
            assertThrows(IllegalArgumentException.class, () -> t.delete(new double[] {Double.NaN, 1}, 1));
            e = assertThrows(IllegalArgumentException.class, () -> Box.of(new double[] {2, 0}, new double[] {1, 1}));
            assertTrue(e.getMessage().contains("inverted"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Box.of(new double[] {Double.NaN, 0}, new double[] {1, 1}));
            assertThrows(IllegalArgumentException.class, () -> Box.of(new double[] {0}, new double[] {1, 1}));
            e = assertThrows(IllegalArgumentException.class, () -> t.count(Box.all(3)));
            assertTrue(e.getMessage().contains("3 dimensions"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> t.query(Box.all(2), null));
            t.insert(new double[] {1, 1}, 1);
            t.refresh();
            assertEquals(1, t.count(Box.all(2)), "failed inserts left nothing behind");
        }
    }

    @Test
    void useAfterCloseIsRejected() {
        BkdTree t = BkdTree.builder(2).build();
        BkdWriter w = t.writer();
        Snapshot s = t.snapshot();
        t.close();
        t.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.insert(new double[] {1, 1}, 1));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> t.count(Box.all(2)));
        assertThrows(IllegalStateException.class, () -> t.delete(new double[] {1, 1}, 1));
        assertThrows(IllegalStateException.class, t::snapshot);
        assertThrows(IllegalStateException.class, t::refresh);
        assertThrows(IllegalStateException.class, () -> s.count(Box.all(2)));
        assertThrows(IllegalStateException.class, () -> w.insert(new double[] {1, 1}, 1));
        w.close();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.count(Box.all(2)));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void bufferOfATerminatedThreadIsPublishedByTheScheduler() throws Exception {
        try (BkdTree t = BkdTree.builder(2).build()) {
            Thread w = new Thread(() -> {
                for (int i = 0; i < 5; i++) {
                    t.insert(new double[] {i, i}, i);
                }
                t.count(Box.all(2));
            });
            w.start();
            w.join();
            while (t.count(Box.all(2)) != 5) {
                LockSupport.parkNanos(1_000_000);
            }
            assertTrue(t.contains(new double[] {4, 4}, 4));
        }
    }

    @Test
    void writerHandlesPublishOnFlushAndClose() {
        try (BkdTree t = BkdTree.builder(2).build()) {
            try (BkdWriter w = t.writer()) {
                w.insert(new double[] {1, 2}, 1);
                assertEquals(1, w.buffered());
                assertEquals(0, t.count(Box.all(2)), "not visible before flush");
                w.flush();
                assertEquals(1, t.count(Box.all(2)));
                w.insert(new double[] {1, 2}, 2);
            }
            assertEquals(2, t.count(Box.all(2)), "close flushes");
        }
    }
}
