package org.bbflow.core.ipc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The channel files this JVM holds open: one {@link FileChannel} per file, shared by all the
 * endpoints of this JVM on that file and closed with the last of them.
 *
 * <p>Why: POSIX drops every lock a process holds on a file as soon as the process closes any
 * descriptor of that file. With a descriptor per endpoint, a sender closing (or a failed open) would
 * silently release the liveness locks of the other endpoints of this JVM on the same file, and the
 * peers in other processes would take those endpoints for dead. So this JVM never closes a descriptor
 * of a file it holds locks on: files are identified by their {@link BasicFileAttributes#fileKey()}
 * (device and inode), and where the platform has none (Windows, whose locks are per handle) every
 * endpoint keeps its own channel. A channel operation interrupted (or begun with the interrupt flag
 * set) closes the channel, so whatever may block on the shared channel runs on a thread of its own
 * ({@link #uninterruptibly}); locks are taken with {@code tryLock}, which no interrupt affects.
 */
final class OpenFiles {
    private static final Map<Object, Shared> OPEN = new HashMap<>();
    /** Test hook: runs in {@link Handle#release()} just before a shared channel is closed (null in production). */
    static volatile Runnable beforeCloseHook;
    /** Test hook: runs in {@link #createNew} just after the file is made, before its key is read (null in production). */
    static volatile Runnable afterCreateNewHook;

    private OpenFiles() {
    }

    /** One open file and the endpoints of this JVM using it. */
    private static final class Shared {
        final FileChannel channel;
        int users = 1;

        Shared(FileChannel channel) {
            this.channel = channel;
        }
    }

    /** A use of a file: its channel and the key it is shared under (null: not shared). */
    static final class Handle {
        final FileChannel channel;
        private final Object key;
        private boolean released;

        private Handle(FileChannel channel, Object key) {
            this.channel = channel;
            this.key = key;
        }

        /**
         * Whether {@code path} names the file this channel is open on now (by device and inode). Always true
         * where the platform has no file keys (Windows): there this check cannot be made.
         */
        boolean isAt(Path path) throws IOException {
            if (key == null) {
                return true;
            }
            try {
                return key.equals(keyOf(path));
            } catch (NoSuchFileException gone) {
                return false;
            }
        }

        /**
         * Ends this use; the channel is closed when no other endpoint of this JVM uses it. Idempotent.
         * A shared channel is closed under the same monitor every opening takes: closed after it, an
         * endpoint of this JVM that opened the file in between (finding it no longer registered, so
         * on a descriptor of its own) and took its liveness lock lost that lock in the kernel when
         * this descriptor closed (POSIX drops all of a process's locks on a file with any of its
         * descriptors), while Java still called it valid; its peers would then take it for dead
         * (OpenFilesReleaseTest).
         */
        void release() {
            synchronized (OPEN) {
                if (released) {
                    return;
                }
                released = true;
                if (key != null) {
                    Shared s = OPEN.get(key);
                    if (s == null || s.channel != channel || --s.users > 0) {
                        return;
                    }
                    OPEN.remove(key);
                    closeChannel();
                    return;
                }
            }
            closeChannel(); // not shared: no other endpoint of this JVM is on this descriptor
        }

        private void closeChannel() {
            Runnable hook = beforeCloseHook;
            if (hook != null) {
                hook.run();
            }
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing useful to do: the descriptor is gone either way
            }
        }
    }

    /** Opens an existing channel file for reading and writing, sharing this JVM's channel if it has one. */
    static Handle open(Path path) throws IOException {
        synchronized (OPEN) {
            for (int attempt = 0; attempt < 3; attempt++) {
                Object key = keyOf(path);
                Shared s = key == null ? null : OPEN.get(key);
                if (s != null) {
                    s.users++;
                    return new Handle(s.channel, key);
                }
                FileChannel fc = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Object now = keyOf(path);
                if (Objects.equals(key, now)) { // the channel is on the file the key names
                    return register(fc, key);
                }
                // Replaced by another process between the two looks: the channel's file is a fresh one
                // this JVM holds no lock on, so closing it is safe; look again.
                fc.close();
            }
            throw new IOException(path + " keeps being replaced while it is opened");
        }
    }

    /**
     * Creates a new file ({@code CREATE_NEW}: fails if the path exists) for reading and writing;
     * {@link NoSuchFileException} also when another process removed it before its key was read.
     */
    static Handle createNew(Path path) throws IOException {
        synchronized (OPEN) {
            FileChannel fc = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            try {
                Runnable hook = afterCreateNewHook;
                if (hook != null) {
                    hook.run();
                }
                return register(fc, keyOf(path));
            } catch (IOException | RuntimeException e) {
                fc.close();
                throw e;
            }
        }
    }

    /**
     * Runs {@code action} on a short-lived thread of its own and waits for it, so that an interrupt of
     * the caller (a flow being cancelled) cannot close a shared channel in the middle of an operation.
     * The caller's interrupt status is kept.
     */
    static <T> T uninterruptibly(Callable<T> action) {
        FutureTask<T> task = new FutureTask<>(action);
        Thread t = new Thread(task, "bbflow-ipc-file");
        t.setDaemon(true);
        t.start();
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException) {
                        throw (RuntimeException) cause;
                    }
                    if (cause instanceof Error) {
                        throw (Error) cause;
                    }
                    throw new IpcException(cause.toString(), cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Handle register(FileChannel fc, Object key) {
        if (key != null) {
            OPEN.put(key, new Shared(fc));
        }
        return new Handle(fc, key);
    }

    private static Object keyOf(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    /** @return how many files this JVM holds open (for tests) */
    static int openCount() {
        synchronized (OPEN) {
            return OPEN.size();
        }
    }
}
