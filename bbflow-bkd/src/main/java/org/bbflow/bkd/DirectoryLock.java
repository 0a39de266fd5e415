package org.bbflow.bkd;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive {@code write.lock} of an index directory: an OS file lock (released by the kernel
 * when the process dies, so a crash never leaves a stale lock), held at most once per process.
 *
 * <p>On POSIX systems the OS lock belongs to the process and is dropped when the process closes
 * <em>any</em> channel to the file. So the lock files this JVM holds are kept in a process-wide set
 * (by file identity: device and inode where the file system has them, so a second path to the same
 * directory, such as a bind mount, which real paths do not unify, is the same entry; else by real
 * path), checked and claimed <em>before</em> any channel to the file is opened: a second
 * {@link BkdTree} on the same directory in this JVM is refused without touching the file, and can
 * never release the holder's lock (Lucene's {@code NativeFSLockFactory} does the same). The file
 * itself is never deleted.
 */
final class DirectoryLock implements AutoCloseable {
    static final String NAME = "write.lock";
    /** Identities ({@link #identity}) of the lock files held by this JVM. */
    private static final Set<Object> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final Object identity;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path file, Object identity, FileChannel channel, FileLock lock) {
        this.file = file;
        this.identity = identity;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code dir} or fails at once with {@link IndexLockedException}. */
    static DirectoryLock obtain(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        try {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            // an earlier index made it; locks live in the kernel, not in the file
        }
        Path real = file.toRealPath();
        if (!Files.isRegularFile(real)) {      // opening a named pipe to write would wait for a reader forever
            throw new IOException(file + " is not a regular file (a directory, a pipe or a device): remove it;"
                    + " the lock is held in the kernel, the file holds nothing");
        }
        Object identity = identity(real);
        if (!HELD.add(identity)) {
            throw new IndexLockedException(dir, "another BkdTree in this JVM has it open");
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(real, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;           // not ours (HELD says so): some other code of this JVM locked the file
            }
            if (l == null) {
                throw new IndexLockedException(dir, "another process has it open (" + file + ")");
            }
            return new DirectoryLock(real, identity, ch, l);
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } finally {
                HELD.remove(identity);
            }
            throw e;
        }
    }

    /**
     * What makes two paths the same lock file: the file key (device and inode on POSIX), which a
     * bind mount or any other second path shares; the real path where the file system has no key.
     */
    private static Object identity(Path real) throws IOException {
        Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
        return key != null ? key : real;
    }

    /** Whether this process still holds the OS lock (fails a commit that would write without it). */
    void ensureValid() throws IOException {
        if (!lock.isValid() || !channel.isOpen()) {
            throw new IOException("the write.lock of " + file.getParent() + " was lost; nothing more is written");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            try {
                channel.close();
            } finally {
                HELD.remove(identity);
            }
        }
    }
}
