package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

class PersistenceTest {

    private static List<Path> treeFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("tree-")).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void writeCloseReopenQueryEqualsOracle(@TempDir Path dir) throws Exception {
        long seed = TestSeed.mix(77);
        Random r = new Random(seed);
        Oracle oracle = new Oracle();
        try (BkdTree t = BkdTree.builder(2).directory(dir).leafSize(8).bufferSize(300).pageShift(4).build()) {
            oracle.fill(t, r, 2, 50, 5000, 9);
            t.refresh();
            t.awaitMerges();
        }
        assertTrue(Files.exists(dir.resolve("MANIFEST")));
        assertFalse(treeFiles(dir).isEmpty());
        double[] old = oracle.live.get(0).p();
        long oldId = oracle.live.get(0).id();
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            for (int i = 0; i < 40; i++) {
                Box box = Oracle.randomBox(r, 2, 50);
                assertArrayEquals(oracle.ids(box), Oracle.ids(t, box), "seed " + seed + " " + box);
            }
            assertEquals(oracle.live.size(), t.count(Box.all(2)));
            // sequence numbers continue: a delete now hides the old point, a later re-insert survives
            t.delete(old, oldId);
            oracle.delete(old, oldId);
            t.insert(old, oldId);
            oracle.insert(old, oldId);
            t.refresh();
            assertTrue(t.contains(old, oldId));
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).pageShift(3).build()) {   // pages are not in the file format
            assertEquals(oracle.live.size(), t.count(Box.all(2)));
            assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(t, Box.all(2)));
            for (int i = 0; i < 40; i++) {
                Box box = Oracle.randomBox(r, 2, 50);
                assertArrayEquals(oracle.ids(box), Oracle.ids(t, box), "seed " + seed + " " + box);
            }
        }
    }

    @Test
    void replacedTreeFilesAreDeletedOnlyAfterANewerCommitIsDurable(@TempDir Path dir) throws Exception {
        try (BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(10).merging(false).build()) {
            for (int i = 0; i < 30; i++) {
                t.insert(new double[] {i}, i);
            }
            t.refresh();
        }
        List<Path> files = treeFiles(dir);
        assertEquals(3, files.size());
        try (BkdTree t = BkdTree.builder(1).directory(dir).merging(false).build()) {
            Snapshot snap = t.snapshot();
            t.forceMerge();
            assertEquals(30, snap.count(Box.all(1)));
            snap.close();
            t.reclaimNow();
            assertTrue(files.stream().allMatch(Files::exists),
                    "the merged trees are reclaimed, but the durable manifest still names their files");
            t.commit();
            assertTrue(files.stream().noneMatch(Files::exists), "deleted once a newer manifest is durable");
            assertEquals(1, treeFiles(dir).size());
            assertEquals(30, t.count(Box.all(1)));
        }
        assertEquals(1, treeFiles(dir).size());
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(30, t.count(Box.all(1)));
        }
    }

    @Test
    void wrongDimensionCountIsRejected(@TempDir Path dir) {
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            t.insert(new double[] {1, 2}, 1);
            t.refresh();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BkdTree.builder(3).directory(dir).build());
        assertTrue(e.getMessage().contains("2-dimensional"), e.getMessage());
    }
}
