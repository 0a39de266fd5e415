package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/** Every kind of index file, damaged: bytes flipped or cut short. Opening must name the file. */
@Timeout(60)
class CorruptionTest {
    private static final long SEED = 4242;

    /** A small index with several tree files, a non-empty tombstone file and a manifest. */
    private static Oracle pristine(Path dir) {
        Random r = new Random(TestSeed.mix(SEED));
        Oracle oracle = new Oracle();
        try (BkdTree t = BkdTree.builder(2).directory(dir).bufferSize(40).leafSize(4).merging(false).build()) {
            for (int i = 0; i < 200; i++) {
                double[] p = Oracle.gridPoint(r, 2, 20);
                t.insert(p, i);
                oracle.insert(p, i);
                if (i % 5 == 0) {
                    t.delete(new double[] {-1, -1}, i);     // tombstones that match nothing stay
                }
            }
        }
        return oracle;
    }

    private static List<String> files(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted()
                    .collect(Collectors.toList());
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.collect(Collectors.toList())) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
        return to;
    }

    private static void expectCorrupt(Path dir, Path damaged, String what) {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> BkdTree.builder(2).directory(dir).build().close(), what);
        CorruptIndexException c = assertInstanceOf(CorruptIndexException.class, e.getCause(), what);
        assertEquals(damaged, c.file(), what);
        assertTrue(e.getMessage().contains(damaged.getFileName().toString()), what + ": " + e.getMessage());
    }

    @Test
    void flippedBytesInEveryKindOfFileAreReportedNamingTheFile(@TempDir Path tmp) throws Exception {
        Path clean = tmp.resolve("clean");
        Oracle oracle = pristine(clean);
        List<String> targets = List.of(files(clean, "tree-").get(1), files(clean, "tombstones-").get(0), Manifest.NAME);
        assertEquals(1, files(clean, "tombstones-").size());
        Random r = new Random(TestSeed.mix(SEED));
        int trial = 0;
        for (String name : targets) {
            for (int k = 0; k < 8; k++) {
                Path dir = copy(clean, tmp.resolve("flip-" + trial++));
                Path f = dir.resolve(name);
                byte[] b = Files.readAllBytes(f);
                int i = r.nextInt(b.length);
                int j = r.nextInt(b.length);
                b[i] ^= (byte) (1 + r.nextInt(255));
                b[j] ^= (byte) (1 + r.nextInt(255));
                if (i == j && Files.readAllBytes(f)[i] == b[i]) {
                    b[i] ^= 1;
                }
                Files.write(f, b);
                expectCorrupt(dir, f, "seed " + SEED + ": " + name + " bytes " + i + ", " + j + " flipped");
            }
        }
        try (BkdTree t = BkdTree.builder(2).directory(clean).build()) {
            assertEquals(oracle.live.size(), t.count(Box.all(2)), "the undamaged original still opens");
        }
    }

    @Test
    void truncatedOrExtendedFilesOfEveryKindAreReportedNamingTheFile(@TempDir Path tmp) throws Exception {
        Path clean = tmp.resolve("clean");
        pristine(clean);
        List<String> targets = List.of(files(clean, "tree-").get(0), files(clean, "tombstones-").get(0), Manifest.NAME);
        Random r = new Random(TestSeed.mix(SEED));
        int trial = 0;
        for (String name : targets) {
            long length = Files.size(clean.resolve(name));
            long[] cuts = {0, 5, length - 1, length - 12, 1 + r.nextInt((int) length - 1), length + 3};
            for (long cut : cuts) {
                Path dir = copy(clean, tmp.resolve("cut-" + trial++));
                Path f = dir.resolve(name);
                if (cut > length) {
                    Files.write(f, new byte[(int) (cut - length)], StandardOpenOption.APPEND);
                } else {
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                        ch.truncate(cut);
                    }
                }
                expectCorrupt(dir, f, "seed " + SEED + ": " + name + " of " + length + " bytes resized to " + cut);
            }
        }
    }

    @Test
    void aMissingTreeFileIsReportedNamingTheFile(@TempDir Path dir) throws Exception {
        pristine(dir);
        Path gone = dir.resolve(files(dir, "tree-").get(0));
        Files.delete(gone);
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> BkdTree.builder(2).directory(dir).build().close());
        assertTrue(e.getMessage().contains(gone.getFileName().toString()), e.getMessage());
        assertTrue(Files.exists(dir.resolve(files(dir, "tree-").get(0))), "nothing deleted on a failed open");
    }
}
