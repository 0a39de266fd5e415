package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kills child JVMs ({@link CrashChild}) with SIGKILL ({@code ProcessHandle.destroyForcibly}) at random points
 * of ingest, merge, commit and close, and checks that every reopen gives exactly the last commit
 * the child acknowledged, or, if the kill hit a commit (or close) whose acknowledgement was not
 * printed, exactly that commit's content. Sessions continue on the directories they inherit, so
 * later sessions reopen indexes that earlier kills left behind. Seeded by the test seed ({@code -Dbbflow.seed}),
 * number of kills {@code -Dbkd.crash.kills} (25 by default, 100 in the long test tier).
 */
class CrashTest {

    private static Process start(String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void kill(Process p) throws InterruptedException {
        p.destroyForcibly();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            fail("child " + p.pid() + " did not die");
        }
    }

    /** What the parent learns from a child's lines: the last acknowledged content and a commit in flight. */
    private static final class Session {
        long[] acked;
        long[] pending;
        String lastLine = "(none)";

        Session(long[] start) {
            acked = start;
        }

        void apply(String line, String where) {
            lastLine = line;
            String[] w = line.split(" ");
            switch (w[0]) {
                case "opened" -> assertEquals(Arrays.toString(acked), Arrays.toString(digest(w, 1)),
                        where + ": the child reopened something else than the parent verified");
                case "committing", "closing" -> pending = digest(w, w[0].equals("closing") ? 1 : 2);
                case "ack" -> {
                    assertEquals(Arrays.toString(pending), Arrays.toString(digest(w, 2)), where);
                    acked = pending;
                    pending = null;
                }
                case "closed" -> {
                    acked = pending;
                    pending = null;
                }
                case "merged", "at" -> { }
                default -> fail(where + ": unexpected child line " + line);
            }
        }

        private static long[] digest(String[] w, int from) {
            return new long[] {Long.parseLong(w[from]), Long.parseLong(w[from + 1])};
        }
    }

    @Test
    @Timeout(400)
    void everyReopenAfterAKillGivesExactlyTheLastCommit(@TempDir Path tmp) throws Exception {
        long seed = TestSeed.current();
        int kills = Integer.getInteger("bkd.crash.kills", TestTier.pick(25, 100)); // a new seed each run: new kill points
        System.out.println("CrashTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), " + kills + " kills");
        Random r = new Random(seed);
        int dirs = 5;
        long[][] state = new long[dirs][];
        Arrays.fill(state, new long[] {0, 0});
        int duringCommit = 0;
        int alive = 0;
        long started = System.nanoTime();
        for (int k = 0; k < kills; k++) {
            int d = k % dirs;
            Path dir = tmp.resolve("index-" + d);
            long childSeed = r.nextLong();
            int killAfterLines = 1 + r.nextInt(10);
            int choice = r.nextInt(10);
            long delayNanos = choice < 2 ? 0 : choice < 7 ? r.nextInt(3_000_000) : r.nextInt(60_000_000);
            String where = "seed " + seed + ", kill " + k + " (dir " + d + ", child seed " + childSeed
                    + ", after line " + killAfterLines + " + " + delayNanos / 1000 + " us)";
            Session s = new Session(state[d]);
            Process p = start("work", dir.toString(), Long.toString(childSeed));
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                for (int n = 0; n < killAfterLines && (line = out.readLine()) != null; n++) {
                    s.apply(line, where);
                }
                if (delayNanos > 0) {
                    LockSupport.parkNanos(delayNanos);
                }
                if (p.isAlive()) {
                    alive++;
                }
                // SIGKILL through the handle: unlike Process.destroyForcibly() it leaves the pipe open,
                // so the lines the child printed before it died can still be read
                p.toHandle().destroyForcibly();
                while ((line = out.readLine()) != null) {   // whatever the child printed before it died
                    s.apply(line, where);
                }
            } finally {
                kill(p);
            }
            if (s.pending != null) {
                duringCommit++;
            }
            long[] actual;
            try (BkdTree t = CrashChild.open(dir)) {
                actual = CrashChild.digest(t);
            } catch (RuntimeException e) {
                throw new AssertionError(where + ": the index does not reopen (last child line: " + s.lastLine + ")", e);
            }
            boolean isAcked = Arrays.equals(actual, s.acked);
            boolean isPending = s.pending != null && Arrays.equals(actual, s.pending);
            assertTrue(isAcked || isPending, where + ": reopened " + Arrays.toString(actual) + ", last acknowledged "
                    + Arrays.toString(s.acked) + ", in flight " + Arrays.toString(s.pending)
                    + " (last child line: " + s.lastLine + ")");
            state[d] = actual;
        }
        System.out.printf("CrashTest: %d kills (%d of a live child, %d with a commit or close in flight) in %.1f s%n",
                kills, alive, duringCommit, (System.nanoTime() - started) / 1e9);
    }

    @Test
    @Timeout(60)
    void aSecondProcessIsRefusedTheDirectoryUntilTheHolderDies(@TempDir Path dir) throws Exception {
        try (BkdTree t = CrashChild.open(dir)) {
            t.insert(new double[] {1, 2}, 3);
        }
        Process p = start("hold", dir.toString());
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("open", out.readLine(), "the child opened the index");
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> CrashChild.open(dir));
            IndexLockedException locked = assertInstanceOf(IndexLockedException.class, e.getCause());
            assertNotNull(locked.directory());
            assertTrue(e.getMessage().contains("another process"), e.getMessage());
        } finally {
            kill(p);
        }
        try (BkdTree t = CrashChild.open(dir)) {
            assertEquals(1, t.count(Box.all(2)), "the dead holder's lock is gone, the index is intact");
        }
    }

    /**
     * A second build() of a directory this JVM already holds is refused, and the refusal must not
     * drop the holder's OS lock (on Linux closing any channel to the lock file would): a child JVM
     * trying the directory afterwards is still locked out.
     */
    @Test
    @Timeout(60)
    void aRefusedSecondOpenInThisJvmKeepsOtherProcessesOut(@TempDir Path dir) throws Exception {
        try (BkdTree first = CrashChild.open(dir)) {
            first.insert(new double[] {1, 2}, 3);
            first.commit();
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> CrashChild.open(dir));
            assertInstanceOf(IndexLockedException.class, e.getCause());
            assertTrue(e.getMessage().contains("this JVM"), e.getMessage());
            Process p = start("try", dir.toString());
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                assertEquals("locked", out.readLine(), "another process must still be refused the directory");
            } finally {
                kill(p);
            }
            first.insert(new double[] {4, 5}, 6);
            first.commit();
        }
        try (BkdTree t = CrashChild.open(dir)) {
            assertEquals(2, t.count(Box.all(2)), "both commits of the holder survive");
        }
    }

    /**
     * The same directory under a second path that real paths do not unify (a bind mount, made in a
     * mount namespace of the child's own): the child's second build() through that path is refused
     * and must not drop its OS lock, so this process is still locked out. Before, the held-lock set
     * was keyed by real path, the refused open reached the OS lock and closed a channel to the
     * file, and another process could open the index beside the holder. Needs Linux with
     * {@code unshare -m} and {@code mount} (root); skipped otherwise.
     */
    @Test
    @Timeout(60)
    void aRefusedOpenThroughABindMountKeepsOtherProcessesOut(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        Path alias = tmp.resolve("alias");
        java.nio.file.Files.createDirectories(alias);
        try (BkdTree t = CrashChild.open(dir)) {
            t.insert(new double[] {1, 2}, 3);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(bindMountsWork(tmp), "unshare -m and mount --bind work here");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("unshare", "-m", "sh", "-c",
                "mount --bind \"$0\" \"$1\" && exec \"$2\" -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp \"$3\" "
                        + CrashChild.class.getName() + " hold-alias \"$0\" \"$1\"",
                dir.toString(), alias.toString(), java, System.getProperty("java.class.path"))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String refused = out.readLine();
            assertTrue(refused != null && refused.startsWith("refused-alias") && refused.contains("this JVM"),
                    "the alias is refused as the directory this JVM holds: " + refused);
            assertEquals("open", out.readLine());
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> CrashChild.open(dir).close(),
                    "the child holds the directory: this process must be refused");
            assertInstanceOf(IndexLockedException.class, e.getCause());
        } finally {
            kill(p);
        }
        try (BkdTree t = CrashChild.open(dir)) {
            assertEquals(1, t.count(Box.all(2)), "the dead holder's lock is gone, the index is intact");
        }
    }

    private static boolean bindMountsWork(Path tmp) throws InterruptedException {
        try {
            Path a = java.nio.file.Files.createDirectories(tmp.resolve("probe-a"));
            Path b = java.nio.file.Files.createDirectories(tmp.resolve("probe-b"));
            Process p = new ProcessBuilder("unshare", "-m", "sh", "-c", "mount --bind \"$0\" \"$1\"", a.toString(), b.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * kill -9 at each step of a commit's writes, inside commit() and inside close(): before the
     * manifest's rename the reopen gives the previous commit, from the rename on the new one.
     * Each directory is reopened twice (a second session on what the first left behind).
     */
    @ParameterizedTest(name = "{1} killed after: {0}")
    @CsvSource({"trees written,commit", "tombstones written,commit", "manifest written,commit",
                "manifest renamed,commit", "old files deleted,commit",
                "trees written,close", "tombstones written,close", "manifest written,close",
                "manifest renamed,close", "old files deleted,close"})
    @Timeout(120)
    void aKillAtEachStepOfACommitReopensThePreviousOrTheNewCommit(String step, String where, @TempDir Path dir)
            throws Exception {
        boolean renamed = step.equals("manifest renamed") || step.equals("old files deleted");
        long[] state = {0, 0};
        for (int session = 0; session < 2; session++) {
            Session s = new Session(state);
            Process p = start("stall", dir.toString(), Long.toString(31L * session + step.hashCode()), step, where);
            String at = where + " killed after " + step + ", session " + session;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    s.apply(line, at);
                    if (line.startsWith("at ")) {
                        break;
                    }
                }
                assertEquals("at " + step, s.lastLine, at + ": the child reached the step");
                p.toHandle().destroyForcibly();
            } finally {
                kill(p);
            }
            long[] want = renamed ? s.pending : s.acked;
            try (BkdTree t = CrashChild.open(dir)) {
                assertArrayEquals(want, CrashChild.digest(t), at + ": reopened the wrong commit");
            }
            state = want;
        }
    }
}
