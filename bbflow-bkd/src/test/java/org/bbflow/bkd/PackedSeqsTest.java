package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.bbflow.testing.TestSeed;

/**
 * Packed ids and sequence numbers (tree file format 3): widths at their boundaries, tombstones
 * filtering packed sequence numbers, the round trip through files, and the refusal of the older
 * formats 1 and 2 (never upgraded in place).
 */
class PackedSeqsTest {

    @Test
    void widthIsTheNarrowestThatHoldsTheRange() {
        assertEquals(0, PackedLongs.widthFor(5, 5));
        assertEquals(1, PackedLongs.widthFor(5, 5 + 0xFF));
        assertEquals(2, PackedLongs.widthFor(5, 5 + 0x100));
        assertEquals(2, PackedLongs.widthFor(-3, -3 + 0xFFFF));
        assertEquals(3, PackedLongs.widthFor(-3, -3 + 0x10000));
        assertEquals(3, PackedLongs.widthFor(-3, -3 + 0xFF_FFFF));
        assertEquals(4, PackedLongs.widthFor(-3, -3 + 0x100_0000));
        assertEquals(4, PackedLongs.widthFor(Long.MIN_VALUE, Long.MIN_VALUE + 0xFFFF_FFFFL));
        assertEquals(8, PackedLongs.widthFor(Long.MIN_VALUE, Long.MIN_VALUE + 0x1_0000_0000L));
        assertEquals(8, PackedLongs.widthFor(Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(8, PackedLongs.widthFor(-1, Long.MAX_VALUE));
    }

    /** Every value comes back at every boundary range, whatever the base's sign, across pages of 128 values (the last one short). */
    @ParameterizedTest
    @CsvSource({"0,0", "0,255", "0,256", "-7,65535", "-7,65536", "-7,16777215", "-7,16777216",
                "100,4294967295", "100,4294967296",
                "-9223372036854775808,4294967295", "-9223372036854775808,-1", "9223372036854775807,0"})
    void valuesRoundTripAtEveryWidthBoundary(long base, long range) {
        Random r = new Random(TestSeed.mix(base ^ range));
        int n = 1000;
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = base + (range == 0 ? 0 : (r.nextLong() & Long.MAX_VALUE) % (range == -1 ? Long.MAX_VALUE : range));
        }
        v[r.nextInt(n)] = base;
        v[r.nextInt(n)] = base + range;
        long[] orig = v.clone();
        PackedLongs p = PackedLongs.pack(v, n, 7);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long x : orig) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        assertEquals(PackedLongs.widthFor(min, max), p.width, "base " + base + " range " + range);
        for (int i = 0; i < n; i++) {
            assertEquals(orig[i], p.get(i), "value " + i);
        }
        long[] back = new long[n + 3];
        p.copyTo(back, 3);
        for (int i = 0; i < n; i++) {
            assertEquals(orig[i], back[i + 3]);
        }
    }

    private static KdTree onlyTree(BkdTree t) {
        KdTree[] trees = t.forest().trees;
        assertEquals(1, trees.length, "one tree");
        return trees[0];
    }

    /**
     * {@code gap} deletes between the oldest and the newest insert of one tree: its sequence
     * numbers span exactly {@code gap}, just fitting or just not fitting a narrow width. A point
     * deleted mid-way stays hidden, its re-insert (stamped with the delete's number) stays visible,
     * before and after a merge and through a commit and reopen.
     */
    @ParameterizedTest
    @CsvSource({"255,1", "256,2", "65535,2", "65536,3"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void tombstonesFilterPackedSequenceNumbersAtWidthBoundaries(int gap, int width, @TempDir Path dir) {
        Oracle oracle = new Oracle();
        double[] p = {3, 4};
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(1 << 20).merging(false).build()) {
            t.insert(new double[] {1, 1}, 1);                   // the oldest stamp
            oracle.insert(new double[] {1, 1}, 1);
            for (int i = 0; i < gap; i++) {
                if (i == gap / 2) {
                    t.insert(p, 7);
                    t.delete(p, 7);                              // hides the copy just inserted
                    t.insert(p, 7);                              // stamped with the delete's number: survives
                    oracle.insert(p, 7);
                    t.insert(p, 8);
                    oracle.insert(p, 8);
                } else {
                    t.delete(new double[] {-1, -1}, i);          // advances the clock, hides nothing
                }
            }
            t.insert(new double[] {2, 2}, 2);                    // the newest stamp: range = gap
            oracle.insert(new double[] {2, 2}, 2);
            t.refresh();
            KdTree tree = onlyTree(t);
            assertEquals(width, tree.seqs.width, "sequence range " + gap);
            assertEquals(gap, tree.seqs.get(maxSeqIndex(tree)) - tree.minSeq);
            assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(t, Box.all(2)));
            assertEquals(4, t.count(Box.all(2)));
            assertEquals(2, t.count(Box.of(p, p)));
            t.commit();
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).merging(false).build()) {
            assertEquals(width, onlyTree(t).seqs.width, "after reopening");
            assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(t, Box.all(2)), "after reopening");
            t.insert(new double[] {9, 9}, 9);
            oracle.insert(new double[] {9, 9}, 9);
            t.refresh();
            t.forceMerge();
            assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(t, Box.all(2)), "after a merge");
            assertEquals(2, t.count(Box.of(p, p)));
        }
    }

    private static int maxSeqIndex(KdTree t) {
        int best = 0;
        for (int i = 1; i < t.size; i++) {
            if (t.seqs.get(i) > t.seqs.get(best)) {
                best = i;
            }
        }
        return best;
    }

    /** Ids spanning just under and just over 2^32 (and the whole long range) come back exact. */
    @ParameterizedTest
    @CsvSource({"-9223372036854775808,4294967295,4", "-9223372036854775808,4294967296,8",
                "-9223372036854775808,-1,8", "1000,0,0"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idsAtWidthBoundariesComeBackExact(long base, long range, int width, @TempDir Path dir) {
        long[] ids = {base, base + range / 3, base + range};
        if (range == -1) {
            ids = new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE};
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).merging(false).build()) {
            for (int i = 0; i < ids.length; i++) {
                t.insert(new double[] {i, i}, ids[i]);
            }
            t.delete(new double[] {1, 1}, ids[1]);
            t.refresh();
            assertEquals(width, onlyTree(t).ids.width);
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).merging(false).build()) {
            long[] got = Oracle.ids(t, Box.all(2));
            long[] want = range == 0 ? new long[] {base, base} : new long[] {ids[0], ids[2]};
            java.util.Arrays.sort(want);
            assertArrayEquals(want, got);
        }
    }

    /** Without deletes every point of a tree has the same sequence number: 0 bytes for them. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTreeWithoutDeletesStoresNoSequenceBytes() {
        int n = 100_000;
        try (BkdTree t = BkdTree.builder(2).build()) {
            Random r = new Random(TestSeed.mix(17));
            for (int i = 0; i < n; i++) {
                t.insert(new double[] {r.nextDouble() * 10_000, r.nextDouble() * 10_000}, i);
            }
            t.refresh();
            t.forceMerge();
            KdTree tree = onlyTree(t);
            assertEquals(0, tree.seqs.width);
            assertEquals(3, tree.ids.width);
            BkdStats s = t.stats();
            System.out.printf("2-D, %d points, no deletes: %.2f bytes per point%n", n, s.treeBytesPerPoint());
            assertTrue(s.treeBytesPerPoint() < 20, "bytes per point " + s.treeBytesPerPoint());
        }
    }

    /**
     * Indexes written by formats 1 and 2 (before files were bound to their index and commit) are
     * refused, naming the manifest and its version; nothing is deleted, nothing upgraded.
     */
    @ParameterizedTest
    @CsvSource({"index-v1,MANIFEST;tree-00000001.bkd;tombstones-00000003.bin",
                "index-v2,MANIFEST;tree-00000001.bkd;tree-00000002.bkd;tombstones-00000003.bin"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anIndexOfAnOlderFormatIsRefusedNamingTheVersion(String fixture, String names, @TempDir Path dir) throws Exception {
        for (String name : names.split(";")) {
            try (InputStream in = PackedSeqsTest.class.getResourceAsStream(fixture + "/" + name)) {
                Files.copy(in, dir.resolve(name));
            }
        }
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> BkdTree.builder(2).directory(dir).build().close());
        CorruptIndexException c = assertInstanceOf(CorruptIndexException.class, e.getCause());
        assertEquals(dir.resolve("MANIFEST"), c.file());
        assertTrue(c.getMessage().contains("format version 1") && c.getMessage().contains("older BBFlow")
                && c.getMessage().contains("rebuild"), c.getMessage());
        for (String name : names.split(";")) {
            assertTrue(Files.exists(dir.resolve(name)), "a refused open deletes nothing: " + name);
        }
    }
}
