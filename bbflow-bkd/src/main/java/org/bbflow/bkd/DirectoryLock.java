package org.bbflow.bkd;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive {@code write.lock} of an index directory: an OS file lock (released by the kernel
 * when the process dies, so a crash never leaves a stale lock). A second {@link BkdTree} in the
 * same JVM is refused too, since the JVM reports overlapping locks on one file. The file itself
 * is never deleted.
 */
final class DirectoryLock implements AutoCloseable {
    static final String NAME = "write.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code dir} or fails at once with {@link IndexLockedException}. */
    static DirectoryLock obtain(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new IndexLockedException(dir, "another BkdTree in this JVM has it open");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (l == null) {
            ch.close();
            throw new IndexLockedException(dir, "another process has it open (" + file + ")");
        }
        return new DirectoryLock(ch, l);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
