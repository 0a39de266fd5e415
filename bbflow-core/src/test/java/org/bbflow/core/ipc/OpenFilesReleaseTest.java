package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The last endpoint of this JVM on a channel file closing its descriptor while another endpoint of
 * this JVM opens the same file. The release unregistered the file, then closed the descriptor
 * outside the monitor: an opening in between found the file unregistered, opened a descriptor of its
 * own and took its liveness lock, and the close then dropped that lock in the kernel (POSIX: closing
 * any descriptor of a file drops all of the process's locks on it) while Java still called it valid.
 * Its peers in other processes would have taken the new endpoint for dead. The first release is
 * paused by {@link OpenFiles#beforeCloseHook}; the lock is read back from {@code /proc/locks}, so
 * the test runs on Linux only.
 */
class OpenFilesReleaseTest {
    private static final Path PROC_LOCKS = Path.of("/proc/locks");

    @TempDir
    Path dir;

    @AfterEach
    void noHook() {
        OpenFiles.beforeCloseHook = null;
    }

    @Test
    @Timeout(60)
    void aReleaseRacingAnOpenLeavesTheNewEndpointsLockInTheKernel() throws Exception {
        assumeTrue(Files.isReadable(PROC_LOCKS), "needs /proc/locks (Linux)");
        Path file = dir.resolve("race.ipc");
        Files.write(file, new byte[4096]);
        long offset = IpcFile.LOCK_BASE + 7;
        OpenFiles.Handle first = OpenFiles.open(file);
        CountDownLatch inClose = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread closing = new Thread(first::release, "first-release");
        OpenFiles.beforeCloseHook = () -> {
            if (Thread.currentThread() == closing) {
                inClose.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        AtomicReference<OpenFiles.Handle> second = new AtomicReference<>();
        AtomicReference<FileLock> lock = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try {
            closing.start();
            assertTrue(inClose.await(10, TimeUnit.SECONDS), "the first release did not reach its close");
            Thread opening = new Thread(() -> {
                try {
                    OpenFiles.Handle h = OpenFiles.open(file);
                    second.set(h);
                    lock.set(h.channel.tryLock(offset, 1, false));
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "second-open");
            opening.start();
            // the open either completes (and locks) at once, or waits for the release: whichever, go on
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (opening.isAlive() && opening.getState() != Thread.State.BLOCKED && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            release.countDown();
            closing.join(20_000);
            opening.join(20_000);
            assertNull(failed.get(), () -> "the second open failed: " + failed.get());
            assertNotNull(lock.get(), "the second endpoint did not get its lock");
            assertTrue(lock.get().isValid(), "Java dropped the second endpoint's lock");
            assertTrue(kernelHolds(offset), "the first release closed its descriptor after the second endpoint had"
                    + " opened the file and locked it: the kernel dropped that lock (Java still calls it valid)");
        } finally {
            release.countDown();
            FileLock l = lock.get();
            if (l != null && l.isValid()) {
                l.release();
            }
            OpenFiles.Handle h = second.get();
            if (h != null) {
                h.release();
            }
        }
    }

    /** Whether this process holds a POSIX lock starting at {@code offset}, as the kernel lists it. */
    private static boolean kernelHolds(long offset) throws IOException {
        String pid = " " + ProcessHandle.current().pid() + " ";
        String at = " " + offset + " ";
        return Files.readAllLines(PROC_LOCKS).stream().anyMatch(l -> l.contains("POSIX") && l.contains(pid) && l.contains(at));
    }
}
