package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * Durability in one process. A "crash image" is a copy of the directory's files taken while the
 * index is open: exactly what a {@code kill -9} at that moment would leave on disk.
 */
@Timeout(60)
class DurabilityTest {

    static Path crashImage(Path dir, Path into) throws IOException {
        Files.createDirectories(into);
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.collect(Collectors.toList())) {
                Files.copy(p, into.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return into;
    }

    @Test
    void aReopenedIndexWhoseTreesWereMergedAwayStillReopensAfterACrash(@TempDir Path tmp) throws Exception {
        long seed = TestSeed.mix(12);
        Random r = new Random(seed);
        Oracle oracle = new Oracle();
        Path dir = tmp.resolve("index");
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(10).leafSize(4).merging(false).build()) {
            oracle.fill(t, r, 2, 10, 120, 7);
        }
        // no writes: the merge that starts by itself on open replaces the reopened trees
        try (BkdTree t = BkdTree.builder(2).directory(dir).mergeFactor(2).build()) {
            t.awaitMerges();
            t.forceMerge();
            assertEquals(1, t.stats().trees());
            t.reclaimNow();
            Path image = crashImage(dir, tmp.resolve("crash"));
            try (BkdTree again = BkdTree.builder(2).directory(image).build()) {
                assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(again, Box.all(2)), "seed " + seed);
            }
        }
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            assertArrayEquals(oracle.ids(Box.all(2)), Oracle.ids(t, Box.all(2)), "seed " + seed);
        }
    }

    @Test
    void commitMakesThisThreadsBufferedInsertsAndDeletesDurable(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        try (BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(1000).build()) {
            for (int i = 0; i < 25; i++) {
                t.insert(new double[] {i}, i);
            }
            for (int i = 0; i < 5; i++) {
                t.delete(new double[] {i}, i);
            }
            t.commit();
            Path first = crashImage(dir, tmp.resolve("after-commit"));
            for (int i = 100; i < 110; i++) {
                t.insert(new double[] {i}, i);
            }
            t.refresh();    // published, but not committed
            t.delete(new double[] {10}, 10);
            Path second = crashImage(dir, tmp.resolve("before-next-commit"));
            for (Path image : List.of(first, second)) {
                try (BkdTree c = BkdTree.builder(1).directory(image).build()) {
                    assertEquals(20, c.count(Box.all(1)), image.toString());
                    assertTrue(c.contains(new double[] {5}, 5));
                    assertTrue(c.contains(new double[] {10}, 10));
                    assertEquals(0, c.count(Box.of(new double[] {0}, new double[] {4})));
                    assertEquals(0, c.count(Box.of(new double[] {100}, new double[] {200})));
                }
            }
        }
    }

    @Test
    void closeCommitsTheClosingThreadsBuffer(@TempDir Path dir) {
        try (BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(1000).build()) {
            for (int i = 0; i < 10; i++) {
                t.insert(new double[] {i}, i);
            }
        }
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(10, t.count(Box.all(1)));
        }
    }

    @Test
    void aSecondIndexOnTheSameDirectoryIsRefusedUntilTheFirstCloses(@TempDir Path dir) {
        BkdTree first = BkdTree.builder(1).directory(dir).build();
        try {
            first.insert(new double[] {1}, 1);
            first.commit();
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> BkdTree.builder(1).directory(dir).build());
            IndexLockedException locked = assertInstanceOf(IndexLockedException.class, e.getCause());
            assertEquals(dir, locked.directory());
            assertTrue(e.getMessage().contains("locked"), e.getMessage());
            assertEquals(1, first.count(Box.all(1)), "the refused open changed nothing");
        } finally {
            first.close();
        }
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(1, t.count(Box.all(1)));
        }
    }

    @Test
    void aFailedOpenReleasesTheLockAndDeletesNothing(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        try (BkdTree t = BkdTree.builder(1).directory(dir).bufferSize(4).merging(false).build()) {
            for (int i = 0; i < 12; i++) {
                t.insert(new double[] {i}, i);
            }
        }
        Path good = crashImage(dir, tmp.resolve("good"));
        Path manifest = dir.resolve(Manifest.NAME);
        byte[] b = Files.readAllBytes(manifest);
        b[b.length / 2] ^= 0x10;
        Files.write(manifest, b);
        List<Path> before;
        try (Stream<Path> s = Files.list(dir)) {
            before = s.sorted().collect(Collectors.toList());
        }
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BkdTree.builder(1).directory(dir).build());
        assertInstanceOf(CorruptIndexException.class, e.getCause());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(before, s.sorted().collect(Collectors.toList()), "a corrupt index is left as it was");
        }
        Files.copy(good.resolve(Manifest.NAME), manifest, StandardCopyOption.REPLACE_EXISTING);
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(12, t.count(Box.all(1)));
        }
    }

    /**
     * A named pipe in place of write.lock fails build() at once, naming it (before, opening the pipe
     * to write waited for a reader forever); once it is removed the index opens.
     */
    @Test
    void aWriteLockThatIsAPipeFailsTheOpenAtOnce(@TempDir Path dir) throws Exception {
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            t.insert(new double[] {1}, 1);
        }
        Path lock = dir.resolve(DirectoryLock.NAME);
        Files.delete(lock);
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", lock.toString())
                .inheritIO().start().waitFor() == 0, "mkfifo is available");
        UncheckedIOException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> assertThrows(UncheckedIOException.class, () -> BkdTree.builder(1).directory(dir).build()));
        assertTrue(e.getMessage().contains("write.lock") && e.getMessage().contains("not a regular file"), e.getMessage());
        Files.delete(lock);
        try (BkdTree t = BkdTree.builder(1).directory(dir).build()) {
            assertEquals(1, t.count(Box.all(1)));
        }
    }

    @Test
    void commitWithoutADirectoryPublishesAndCommitAfterCloseIsRefused() {
        BkdTree t = BkdTree.builder(1).bufferSize(1000).build();
        t.insert(new double[] {1}, 1);
        t.commit();
        assertEquals(1, t.count(Box.all(1)));
        t.close();
        assertThrows(IllegalStateException.class, t::commit);
    }
}
