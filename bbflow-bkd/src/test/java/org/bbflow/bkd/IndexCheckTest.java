package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/** The read-only check tool on intact and damaged indexes. */
@Timeout(60)
class IndexCheckTest {

    private static CheckedFile file(IndexCheck c, String name) {
        return c.files().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not reported: " + c));
    }

    private static List<String> snapshot(Path dir) throws Exception {
        return CommitPointTest.listing(dir).stream().map(n -> {
            try {
                return n + " " + Files.size(dir.resolve(n)) + " " + Files.getLastModifiedTime(dir.resolve(n));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).collect(Collectors.toList());
    }

    @Test
    void anIntactIndexPassesEveryFileAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        Oracle oracle = CommitPointTest.build(dir, 3);
        List<String> before = snapshot(dir);
        IndexCheck c = IndexCheck.run(dir);
        System.out.println(c);
        assertTrue(c.ok(), c.toString());
        assertEquals(1 + 5 + 1, c.files().size(), "manifest, 5 trees, tombstones: " + c);
        assertEquals(200, c.files().stream().filter(f -> f.kind().equals("tree")).mapToLong(CheckedFile::points).sum());
        assertEquals(20, file(c, CommitPointTest.named(dir, "tombstones-").get(0)).points());
        assertTrue(c.report().get(c.report().size() - 1).startsWith("OK: commit"), c.toString());
        assertEquals(before, snapshot(dir), "the check writes, renames and deletes nothing");
        try (BkdTree t = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(oracle.live.size(), t.count(Box.all(2)));
            assertTrue(IndexCheck.run(dir).ok(), "it takes no lock: runs beside an open index");
        }
    }

    @Test
    void aDamagedTreeIsReportedAndTheOtherFilesStillChecked(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        CommitPointTest.build(dir, 3);
        String victim = CommitPointTest.named(dir, "tree-").get(1);
        byte[] b = Files.readAllBytes(dir.resolve(victim));
        b[b.length / 2] ^= 0x40;
        Files.write(dir.resolve(victim), b);
        List<String> before = snapshot(dir);
        IndexCheck c = IndexCheck.run(dir);
        System.out.println(c);
        assertFalse(c.ok());
        assertFalse(file(c, victim).ok());
        assertTrue(file(c, victim).detail().contains("checksum"), file(c, victim).detail());
        assertEquals(1, c.files().stream().filter(f -> !f.ok()).count(), c.toString());
        assertTrue(c.report().get(c.report().size() - 1).startsWith("DAMAGED: 1 of 7"), c.toString());
        assertEquals(before, snapshot(dir));
    }

    @Test
    void foreignMissingAndLeftoverFilesAreReported(@TempDir Path tmp) throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        CommitPointTest.build(a, 3);
        CommitPointTest.build(b, 4);
        List<String> trees = CommitPointTest.named(a, "tree-");
        Files.copy(b.resolve(trees.get(0)), a.resolve(trees.get(0)), StandardCopyOption.REPLACE_EXISTING);
        Files.delete(a.resolve(trees.get(1)));
        Files.write(a.resolve("tree-00000099.bkd"), new byte[] {1, 2, 3});
        IndexCheck c = IndexCheck.run(a);
        System.out.println(c);
        assertFalse(c.ok());
        assertTrue(file(c, trees.get(0)).detail().contains("another index"), file(c, trees.get(0)).detail());
        assertTrue(file(c, trees.get(1)).detail().contains("missing"), file(c, trees.get(1)).detail());
        assertEquals("leftover", file(c, "tree-00000099.bkd").kind());
        assertTrue(file(c, "tree-00000099.bkd").ok());
        assertEquals(2, c.files().stream().filter(f -> !f.ok()).count(), c.toString());
    }

    @Test
    void withoutAManifestEveryFileIsStillCheckedOnItsOwn(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        CommitPointTest.build(dir, 3);
        Files.delete(dir.resolve(Manifest.NAME));
        IndexCheck c = IndexCheck.run(dir);
        assertFalse(c.ok());
        assertFalse(file(c, Manifest.NAME).ok());
        assertTrue(file(c, Manifest.NAME).detail().contains("missing"));
        assertEquals(6, c.files().stream().filter(CheckedFile::ok).count(), "every tree and tombstone file verifies: " + c);
    }

    /**
     * A manifest or a tree replaced by a directory, or tombstones by a named pipe, is damage named by
     * its file, for the check (which goes on with the other files) and for build(). Before, a
     * directory failed both with a bare "No such device" (the check threw instead of reporting) and
     * a pipe made both wait forever.
     */
    @Test
    void aFileReplacedByADirectoryIsReportedNamingIt(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        CommitPointTest.build(dir, 3);
        String tree = CommitPointTest.named(dir, "tree-").get(0);
        Files.delete(dir.resolve(tree));
        Files.createDirectory(dir.resolve(tree));
        IndexCheck c = IndexCheck.run(dir);
        System.out.println(c);
        assertFalse(file(c, tree).ok());
        assertTrue(file(c, tree).detail().contains("not a regular file"), file(c, tree).detail());
        assertEquals(1, c.files().stream().filter(f -> !f.ok()).count(), c.toString());
        CommitPointTest.expectRefused(dir, dir.resolve(tree), "not a regular file");

        Files.delete(dir.resolve(Manifest.NAME));
        Files.createDirectory(dir.resolve(Manifest.NAME));
        c = IndexCheck.run(dir);
        System.out.println(c);
        assertFalse(file(c, Manifest.NAME).ok());
        assertTrue(file(c, Manifest.NAME).detail().contains("not a regular file"), file(c, Manifest.NAME).detail());
        assertEquals(5, c.files().stream().filter(CheckedFile::ok).count(),
                "the other trees and the tombstones are still checked (the tree directory is left): " + c);
        CommitPointTest.expectRefused(dir, dir.resolve(Manifest.NAME), "not a regular file");

        // a named pipe: opening it to read would wait for a writer forever
        Path pipes = tmp.resolve("pipes");
        CommitPointTest.build(pipes, 3);
        String tombs = CommitPointTest.named(pipes, "tombstones-").get(0);
        Files.delete(pipes.resolve(tombs));
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", pipes.resolve(tombs).toString())
                .inheritIO().start().waitFor() == 0, "mkfifo is available");
        c = IndexCheck.run(pipes);
        assertTrue(file(c, tombs).detail().contains("not a regular file"), file(c, tombs).detail());
        CommitPointTest.expectRefused(pipes, pipes.resolve(tombs), "a pipe");
    }

    @Test
    void treeInvariantsCatchABoxThatDoesNotBoundItsPoints() {
        Random r = new Random(TestSeed.mix(5));
        int n = 300;
        long[] c = new long[2 * n];
        long[] ids = new long[n];
        long[] seqs = new long[n];
        double[] p = new double[2];
        for (int i = 0; i < n; i++) {
            p[0] = r.nextDouble();
            p[1] = r.nextDouble();
            Coordinates.encodePoint(p, 2, c, 2 * i);
            ids[i] = i;
        }
        KdTree t = new BulkLoader(2, 8, 5).build(c, ids, seqs, n, 0);      // pages of 32 points
        assertNull(IndexCheck.invariants(t, 0));
        assertNotNull(IndexCheck.invariants(t, -1), "a sequence beyond the clock");
        t.nodeMax[3 * 2 + 1]++;
        String wrong = IndexCheck.invariants(t, 0);
        assertNotNull(wrong);
        assertTrue(wrong.contains("box of node 3"), wrong);
        t.nodeMax[3 * 2 + 1]--;
        t.nodeTo[t.nodeFrom.length - 1]--;
        assertNotNull(IndexCheck.invariants(t, 0), "a node range that does not match its parent's split");
    }

    @Test
    void aDirectoryWithoutAnIndexIsNotOk(@TempDir Path tmp) throws Exception {
        IndexCheck c = IndexCheck.run(tmp);
        assertFalse(c.ok(), "an empty directory is no intact index: " + c);
        assertFalse(c.found(), c.toString());
        assertFalse(file(c, Manifest.NAME).ok(), c.toString());
        assertTrue(c.report().get(c.report().size() - 1).startsWith("NO INDEX:"), c.toString());
    }
}
