package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The message of a failed build() says what is wrong, not only which path: a java.nio exception
 * such as NoSuchFileException has the bare path as its message, so before, a missing tree file
 * read "cannot open index directory D: D/tree-00000001.bkd" and a directory path naming a regular
 * file "cannot open index directory F: F".
 */
class OpenErrorMessageTest {

    @Test
    void aMissingTreeFileIsCalledMissing(@TempDir Path dir) throws Exception {
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            t.insert(new double[] {1, 2}, 1);
            t.commit();
        }
        Path tree;
        try (Stream<Path> s = Files.list(dir)) {
            tree = s.filter(p -> p.getFileName().toString().startsWith("tree-")).findFirst().orElseThrow();
        }
        Files.delete(tree);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BkdTree.builder(2).directory(dir).build());
        assertTrue(e.getMessage().contains(tree.getFileName().toString()) && e.getMessage().contains("no such file"),
                e.getMessage());
    }

    @Test
    void aDirectoryPathNamingARegularFileSaysSo(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("points"), "not an index");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BkdTree.builder(2).directory(file).build());
        assertTrue(e.getMessage().contains("exists and is not a directory"), e.getMessage());
    }
}
