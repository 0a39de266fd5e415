package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * The commit point binds every file to its index and commit: a missing manifest, a file of another
 * index, of an older commit, a duplicated file or older tombstones are each refused with a
 * {@link CorruptIndexException} naming the file, and the refused open deletes nothing.
 */
@Timeout(60)
class CommitPointTest {

    /** An index of 200 points in 5 trees (no merges), 20 of them deleted, committed once at close. */
    static Oracle build(Path dir, long seed) {
        Random r = new Random(TestSeed.mix(seed));
        Oracle oracle = new Oracle();
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(40).leafSize(4).merging(false).build()) {
            for (int i = 0; i < 200; i++) {
                double[] p = Oracle.gridPoint(r, 2, 20);
                t.insert(p, i);
                oracle.insert(p, i);
            }
            t.refresh();
            for (int i = 0; i < 20; i++) {
                oracle.deleteRandom(t, r);
            }
        }
        return oracle;
    }

    static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    static List<String> named(Path dir, String prefix) throws IOException {
        return listing(dir).stream().filter(n -> n.startsWith(prefix)).collect(Collectors.toList());
    }

    /** Opening {@code dir} fails with a CorruptIndexException naming {@code file}; nothing is deleted. */
    static void expectRefused(Path dir, Path file, String what) throws IOException {
        List<String> before = listing(dir);
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> BkdTree.builder(2).directory(dir).build().close(), what + ": the open must fail");
        CorruptIndexException c = assertInstanceOf(CorruptIndexException.class, e.getCause(), what);
        assertEquals(file, c.file(), what + ": " + c.getMessage());
        assertTrue(e.getMessage().contains(file.getFileName().toString()), what + ": " + e.getMessage());
        assertEquals(before, listing(dir), what + ": a refused open deletes nothing");
    }

    @Test
    void aMissingManifestIsRefusedAndNothingIsDeleted(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        build(dir, 1);
        Files.delete(dir.resolve(Manifest.NAME));
        expectRefused(dir, dir.resolve(Manifest.NAME), "manifest deleted");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BkdTree.builder(2).directory(dir).build());
        assertTrue(e.getMessage().contains("MANIFEST") && e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void aRenamedManifestIsRefusedAndNothingIsDeleted(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        build(dir, 1);
        Files.move(dir.resolve(Manifest.NAME), dir.resolve("MANIFEST.old"));
        expectRefused(dir, dir.resolve(Manifest.NAME), "manifest renamed");
    }

    @Test
    void aTreeOfAnotherIndexIsRefused(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        build(a, 1);
        build(b, 2);                                   // same file names, other points
        String name = named(a, "tree-").get(2);
        Files.copy(b.resolve(name), a.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        expectRefused(a, a.resolve(name), "tree " + name + " of another index");
    }

    @Test
    void tombstonesOfAnotherIndexAreRefused(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        build(a, 1);
        build(b, 2);
        String name = named(a, "tombstones-").get(0);
        assertEquals(name, named(b, "tombstones-").get(0));
        Files.copy(b.resolve(name), a.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        expectRefused(a, a.resolve(name), "tombstones of another index");
    }

    @Test
    void aManifestOfAnotherIndexIsRefused(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        build(a, 1);
        build(b, 2);
        assertEquals(named(a, "tree-"), named(b, "tree-"));
        Files.copy(b.resolve(Manifest.NAME), a.resolve(Manifest.NAME), StandardCopyOption.REPLACE_EXISTING);
        Path first = a.resolve(named(a, "t").get(0));   // the first file it names that is checked
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> BkdTree.builder(2).directory(a).build().close());
        CorruptIndexException c = assertInstanceOf(CorruptIndexException.class, e.getCause());
        assertTrue(c.file().getFileName().toString().startsWith("t"), c.getMessage());
        assertTrue(Files.exists(first));
    }

    @Test
    void aDuplicatedTreeIsRefused(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        build(dir, 1);
        List<String> trees = named(dir, "tree-");
        Files.copy(dir.resolve(trees.get(0)), dir.resolve(trees.get(1)), StandardCopyOption.REPLACE_EXISTING);
        expectRefused(dir, dir.resolve(trees.get(1)), "tree " + trees.get(0) + " duplicated as " + trees.get(1));
    }

    @Test
    void aTreeAndTombstonesOfAnOlderCommitAreRefused(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        Oracle oracle = build(dir, 1);
        Path older = DurabilityTest.crashImage(dir, tmp.resolve("older"));
        Path deleted;
        try (BkdTree t = BkdTree.builder(2).directory(dir).merging(false).build()) {
            for (int i = 0; i < 30; i++) {                 // 30 more completed deletes
                Oracle.Pt x = oracle.live.get(i);
                t.delete(x.p(), x.id());
            }
            t.commit();
            deleted = DurabilityTest.crashImage(dir, tmp.resolve("deleted"));
            t.forceMerge();                                // one new tree replaces the old ones
            t.commit();
        }
        String tombs = named(deleted, "tombstones-").get(0);
        assertTrue(!named(older, "tombstones-").contains(tombs), "each commit writes its own tombstone file");
        Path undone = DurabilityTest.crashImage(deleted, tmp.resolve("old-tombstones"));
        Files.copy(older.resolve(named(older, "tombstones-").get(0)), undone.resolve(tombs),
                StandardCopyOption.REPLACE_EXISTING);
        expectRefused(undone, undone.resolve(tombs), "an older commit's tombstones (30 deletes undone)");
        List<String> trees = named(dir, "tree-");
        assertEquals(1, trees.size());
        Path swapped = DurabilityTest.crashImage(dir, tmp.resolve("old-tree"));
        Files.copy(older.resolve(named(older, "tree-").get(4)), swapped.resolve(trees.get(0)),
                StandardCopyOption.REPLACE_EXISTING);
        expectRefused(swapped, swapped.resolve(trees.get(0)), "an older commit's tree");
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(oracle.live.size() - 30, t.count(Box.all(2)), "the untouched index still opens");
        }
    }
}
