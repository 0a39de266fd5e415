package org.bbflow.core.ipc;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * One mapping of a channel file: the versioned header, the producer slot table, the Agrona ring
 * buffer behind it, and the liveness locks.
 *
 * <p>Layout (naturally aligned int32/int64 fields, no pointers; the configuration fields and the magic
 * are little-endian, the fields written atomically at run time are in the host's order):
 * <pre>
 *   0  long magic "BBFLOIPC"      8  int version      12 int kind (1 one-to-one, 2 many-to-one)
 *  16  int ring capacity (2^n)   20  int producers   24 int header length   28 int max record length
 *  32  long consumer pid         40  int consumer state
 *  44  int record header length  48  int record alignment  52 int ring trailer length (Agrona's layout)
 *  56  int record format name length (0: none)  60  record format name, UTF-8, at most 64 bytes
 * 128 + 64*i: producer slot i: int state, int reserved, long pid
 * HEADER_LENGTH: Agrona ring buffer (capacity bytes + its trailer)
 * </pre>
 *
 * <p>Version 2 added the fields from 44: the ring's record layout, which the senders' Agrona must
 * share (a record header, an alignment or a trailer of another length would misplace every record),
 * and the name of the receiver codec's {@link IpcCodec#recordFormat()}, which a sender's codec must
 * match when both name one. Any change of the layout or of the create protocol takes a new version:
 * an opener refuses every version but its own.
 *
 * <p>Liveness: every live endpoint holds an exclusive {@link FileLock} on one byte far beyond the end
 * of the file (POSIX allows locks past EOF). The operating system drops the lock when the process
 * dies, even on SIGKILL, so a peer that can take the lock knows the owner is gone. Locks are only
 * probed after a peer has been silent for the configured timeout. The endpoints of one JVM on one file
 * share its descriptor ({@link OpenFiles}): closing any descriptor would drop all of the process's locks.
 * The consumer lock also decides a create on a path that has a file: only a process that takes that
 * file's consumer lock may replace it, by renaming its own, already locked, file over it (see
 * {@link #createNow}), so a live receiver's file is never replaced and concurrent creates have one winner.
 */
final class IpcFile implements AutoCloseable {
    static final long MAGIC = 0x4242464C4F495043L; // "BBFLOIPC" read as a big-endian long
    static final int VERSION = 2;
    static final int KIND_ONE_TO_ONE = 1;
    static final int KIND_MANY_TO_ONE = 2;
    static final int HEADER_LENGTH = 4096;
    static final int MAX_PRODUCERS = 62;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int KIND_OFFSET = 12;
    static final int CAPACITY_OFFSET = 16;
    static final int PRODUCERS_OFFSET = 20;
    static final int HEADER_LENGTH_OFFSET = 24;
    static final int MAX_RECORD_OFFSET = 28;
    static final int CONSUMER_PID_OFFSET = 32;
    static final int CONSUMER_STATE_OFFSET = 40;
    static final int RECORD_HEADER_OFFSET = 44;
    static final int RECORD_ALIGNMENT_OFFSET = 48;
    static final int TRAILER_LENGTH_OFFSET = 52;
    static final int FORMAT_NAME_LENGTH_OFFSET = 56;
    static final int FORMAT_NAME_OFFSET = 60;
    static final int MAX_FORMAT_NAME_BYTES = 64;
    static final int SLOTS_OFFSET = 128;
    static final int SLOT_LENGTH = 64;

    static final int SLOT_FREE = 0;
    static final int SLOT_REGISTERING = 1;
    static final int SLOT_LIVE = 2;
    static final int SLOT_CLOSED = 3;
    static final int SLOT_DEAD = 4;
    static final int SLOT_FAILED = 5;

    static final int CONSUMER_OPEN = 1;
    static final int CONSUMER_CLOSED = 2;

    /** Lock positions: far past any file length so they never cover data. */
    static final long LOCK_BASE = 1L << 50;

    /** Data records carry msgTypeId = DATA_TYPE_BASE + producer slot, so a stuck claim names its owner. */
    static final int DATA_TYPE_BASE = 1;

    final Path path;
    private final OpenFiles.Handle handle;
    final FileChannel fileChannel;
    final MappedByteBuffer mapped;
    final UnsafeBuffer header;
    final RingBuffer ring;
    final int kind;
    final int capacity;
    final int producers;
    /** The receiver codec's {@link IpcCodec#recordFormat()}, "" for none. */
    final String recordFormat;
    private FileLock ownLock;
    private boolean closed;

    private IpcFile(Path path, OpenFiles.Handle handle, MappedByteBuffer mapped, int kind, int capacity, int producers,
                    String recordFormat) {
        this.path = path;
        this.handle = handle;
        this.fileChannel = handle.channel;
        this.mapped = mapped;
        this.header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        UnsafeBuffer ringBuffer = new UnsafeBuffer(mapped, HEADER_LENGTH, capacity + RingBufferDescriptor.TRAILER_LENGTH);
        this.ring = kind == KIND_ONE_TO_ONE ? new OneToOneRingBuffer(ringBuffer) : new ManyToOneRingBuffer(ringBuffer);
        this.kind = kind;
        this.capacity = capacity;
        this.producers = producers;
        this.recordFormat = recordFormat;
    }

    static long fileLength(int capacity) {
        return (long) HEADER_LENGTH + capacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Agrona 2 reaches {@code jdk.internal.misc.Unsafe} for every buffer; without the JVM option that
     * opens it, its first buffer fails deep inside Agrona with an {@link IllegalAccessError}. Said
     * here, at the boundary, with the option to add.
     */
    static void requireUnsafeAccess() {
        Module agrona = UnsafeBuffer.class.getModule();
        if (!Object.class.getModule().isExported("jdk.internal.misc", agrona)) {
            throw new IllegalStateException("inter-process channels need the JVM option --add-opens java.base/jdk.internal.misc="
                + (agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED")
                + " (Agrona 2, which maps the channel file, reads and writes it through jdk.internal.misc.Unsafe)");
        }
    }

    /**
     * Creates a fresh channel file at {@code path} and takes its consumer liveness lock. An existing
     * file whose receiver is alive is refused; one whose receiver closed or died (or an empty file) is
     * replaced by an atomic rename, so stale mappings elsewhere stay valid and nobody ever sees the
     * path without a complete header once it had one.
     */
    static IpcFile create(Path path, int capacity, int producers, String recordFormat) {
        requireUnsafeAccess();
        byte[] format = formatName(recordFormat);
        return OpenFiles.uninterruptibly(() -> createNow(path, capacity, producers, recordFormat, format));
    }

    /**
     * The UTF-8 bytes of a codec's record format name, checked: never null, at most
     * {@link #MAX_FORMAT_NAME_BYTES} bytes (the room in the header).
     */
    static byte[] formatName(String recordFormat) {
        if (recordFormat == null) {
            throw new IllegalArgumentException("a codec's recordFormat() is null (\"\" names no format)");
        }
        byte[] b = recordFormat.getBytes(StandardCharsets.UTF_8);
        if (b.length > MAX_FORMAT_NAME_BYTES) {
            throw new IllegalArgumentException("a codec's recordFormat() is at most " + MAX_FORMAT_NAME_BYTES
                + " bytes of UTF-8, got " + b.length + ": \"" + recordFormat + "\"");
        }
        return b;
    }

    /**
     * Serialises this JVM's creates. Across processes the file locks decide (see {@link #createNow});
     * within one JVM they would only throw {@link OverlappingFileLockException}, which reads as "a
     * live receiver in this process", so two threads of one JVM must not meet there.
     */
    private static final Object CREATING = new Object();

    /** How often a create looks again at a path that another process removed or replaced meanwhile. */
    private static final int CREATE_ATTEMPTS = 100;

    /**
     * Numbers the files a create builds beside the channel file before renaming them into place: the
     * name is {@code .<name>.<pid>.<n>.creating}, so creates of different live processes never collide
     * (a live process's pid is its own); a leftover of a dead process whose pid was reused (a container
     * whose JVM always gets the same pid) can have the name a create wants: that create takes the next
     * number, and the sweep removes the leftover (see {@link #sweepLeftovers}).
     */
    static final AtomicLong TEMP_FILES = new AtomicLong();

    /** The end of a temporary file's name. */
    static final String TEMP_SUFFIX = ".creating";

    /**
     * Test hook run by a create that has decided to replace the file at its path (it holds the file's
     * consumer lock and its fresh file is built), just before the rename; null in production.
     */
    static volatile Runnable beforeReplace;

    /** Test hook run by a create that has opened the file at its path, before it takes the file's lock; null in production. */
    static volatile Runnable beforeLock;

    /**
     * Test hook run by a create right after it made its temporary file, before it locks it (the file
     * is empty and unlocked); null in production.
     */
    static volatile Runnable afterTempCreated;

    /** Test hook run by a create that has locked its temporary file, before it has a header; null in production. */
    static volatile Runnable afterTempLocked;

    /** How often a create makes a new temporary file when its name is taken or its file was swept away. */
    private static final int TEMP_ATTEMPTS = 100;

    /**
     * The create protocol. "Live" means "holds the consumer lock": a receiver takes the exclusive
     * consumer lock of its file before the file appears at its path and holds it until it closes, and
     * the operating system drops it when the process dies (even on SIGKILL). A create:
     * <ol>
     *   <li>removes the temporary files that dead creates on this path left ({@link #sweepLeftovers});</li>
     *   <li>opens the file at the path (if there is none, first puts an empty one there with
     *       {@code CREATE_NEW}, which only one process can do, and opens that);</li>
     *   <li>takes that file's consumer lock, exclusively; if it cannot, a live receiver holds it (or
     *       another create is replacing it right now): refused;</li>
     *   <li>checks that the path still names the file it locked (another create may have renamed its
     *       own file over it in between: then it looks again);</li>
     *   <li>checks the file is empty or a channel file (never someone's data);</li>
     *   <li>builds its own file beside it under a temporary name, its consumer lock taken and its
     *       header complete, and renames it over the locked one ({@code rename(2)}, atomic);</li>
     *   <li>releases the old file's lock.</li>
     * </ol>
     * The file at the path is only ever replaced by a process that holds its exclusive consumer lock
     * and has seen the path name it while holding it, and the new file is locked before it appears: so
     * of any number of processes creating on one path at once exactly one wins, and a receiver's file
     * is never replaced while it lives. The decision needs no time-of-check gap: the check is the lock.
     * Senders never take the consumer lock to hold it; they only probe it after a silence, which at
     * worst makes a create in that moment refuse.
     */
    private static IpcFile createNow(Path path, int capacity, int producers, String recordFormat, byte[] format) {
        if (capacity < 1024 || !BitUtil.isPowerOfTwo(capacity) || capacity > (1 << 30)) {
            throw new IllegalArgumentException("capacity must be a power of two in [1 KiB, 1 GiB], got " + capacity);
        }
        if (producers < 1 || producers > MAX_PRODUCERS) {
            throw new IllegalArgumentException("producers must be in [1, " + MAX_PRODUCERS + "], got " + producers);
        }
        int kind = producers == 1 ? KIND_ONE_TO_ONE : KIND_MANY_TO_ONE;
        try {
            synchronized (CREATING) {
                sweepLeftovers(path);
                for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
                    OpenFiles.Handle old;
                    try {
                        old = OpenFiles.open(path);
                    } catch (NoSuchFileException absent) {
                        try {
                            OpenFiles.createNew(path).release(); // no lock was taken on it: closing is safe
                        } catch (FileAlreadyExistsException another) {
                            // another process put one there first: take it like any other file
                        }
                        continue;
                    }
                    try {
                        IpcFile f = replaceLocked(path, old, capacity, producers, kind, recordFormat, format);
                        if (f != null) {
                            return f;
                        }
                    } finally {
                        old.release();
                    }
                }
            }
        } catch (IOException e) {
            throw new IpcException("cannot create IPC channel file " + path + ": " + e, e);
        }
        throw new IpcException("cannot create IPC channel file " + path + ": other processes kept removing or"
            + " replacing it (" + CREATE_ATTEMPTS + " attempts)");
    }

    /**
     * Steps 3 to 7 of {@link #createNow} on the file {@code old} was opened on.
     *
     * @return the new file, or null when the path no longer names {@code old} (look again)
     */
    private static IpcFile replaceLocked(Path path, OpenFiles.Handle old, int capacity, int producers, int kind,
                                         String recordFormat, byte[] format) throws IOException {
        Runnable hook = beforeLock;
        if (hook != null) {
            hook.run();
        }
        FileLock oldLock;
        try {
            oldLock = old.channel.tryLock(LOCK_BASE, 1, false); // tryLock: no interrupt closes the shared channel
        } catch (OverlappingFileLockException e) {
            throw refusal(path, old.channel, true);
        }
        if (oldLock == null) {
            throw refusal(path, old.channel, false);
        }
        try {
            if (!old.isAt(path)) {
                return null;
            }
            requireReplaceable(path, old.channel);
            return buildAndRename(path, capacity, producers, kind, recordFormat, format);
        } finally {
            if (oldLock.isValid()) {
                oldLock.release();
            }
        }
    }

    /** Step 5: never someone's data, only an empty file or a channel file. */
    private static void requireReplaceable(Path path, FileChannel channel) throws IOException {
        if (channel.size() == 0) {
            return;
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining() && channel.read(b, b.position()) >= 0) {
            // read the magic
        }
        if (b.hasRemaining() || b.getLong(0) != MAGIC) {
            throw new IpcFormatException("refusing to replace " + path
                + ": it exists and is not a BBFlow IPC channel file");
        }
    }

    /** Step 6: the new file, complete and locked under a temporary name, then renamed into place. */
    private static IpcFile buildAndRename(Path path, int capacity, int producers, int kind, String recordFormat,
                                          byte[] format) throws IOException {
        for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
            Path temp = path.resolveSibling(tempPrefix(path) + ProcessHandle.current().pid() + "."
                + TEMP_FILES.incrementAndGet() + TEMP_SUFFIX);
            OpenFiles.Handle handle;
            try {
                handle = OpenFiles.createNew(temp);
            } catch (FileAlreadyExistsException leftover) {
                continue; // a dead process with this pid left it (the sweep could not remove it): the next name
            } catch (NoSuchFileException swept) {
                // Another process's sweep removed it between its creation and the look at its key (it
                // was not locked yet); a missing directory is said as it is.
                if (Files.isDirectory(temp.toAbsolutePath().getParent())) {
                    continue;
                }
                throw swept;
            }
            IpcFile f = null;
            try {
                Runnable created = afterTempCreated;
                if (created != null) {
                    created.run();
                }
                // Locked before it has a header or its name: whoever finds the file at the path finds it taken.
                // Until this lock the file is unlocked, and another process's sweep may take it for a dead
                // create's and delete it: a create that finds its lock taken, or its name no longer naming
                // its file, makes a new one (no such gap is left once it holds the lock).
                FileLock consumerLock = handle.channel.tryLock(LOCK_BASE, 1, false);
                if (consumerLock == null || !handle.isAt(temp)) {
                    if (consumerLock != null) {
                        consumerLock.release();
                    }
                    handle.release();
                    handle = null;
                    continue;
                }
                Runnable locked = afterTempLocked;
                if (locked != null) {
                    locked.run();
                }
                MappedByteBuffer mbb = handle.channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength(capacity));
                f = new IpcFile(path, handle, mbb, kind, capacity, producers, recordFormat);
                f.ownLock = consumerLock;
                f.writeHeader(format);
                Runnable hook = beforeReplace;
                if (hook != null) {
                    hook.run();
                }
                // An open of the path in this JVM meanwhile cannot mistake the rename for a replacement and
                // close the new file's descriptor (with this JVM's locks on it): this create keeps both the
                // old and the new file registered in OpenFiles, so such an open shares their channels.
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE); // rename(2): replaces the locked file atomically
                return f;
            } catch (IOException | RuntimeException | Error e) {
                // An ordinary failure (no room for the file, a mapping refused, an error) leaves no
                // temporary file behind: only a killed process does, for the next create's sweep.
                if (f != null) {
                    f.close();
                } else if (handle != null) {
                    handle.release();
                }
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException | RuntimeException notDeleted) {
                    e.addSuppressed(notDeleted);
                }
                throw e;
            }
        }
        throw new IOException("no temporary file beside " + path + " could be made and kept locked ("
            + TEMP_ATTEMPTS + " attempts: the names were taken, or other processes' creates removed the files)");
    }

    /** The start of the names of {@code path}'s temporary files: {@code .<name>.} */
    static String tempPrefix(Path path) {
        return "." + path.getFileName() + ".";
    }

    /**
     * Step 1 of {@link #createNow}: removes the temporary files {@code .<name>.<pid>.<n>.creating}
     * that creates on {@code path} left when their process was killed between making the file and
     * renaming it into place. Nothing else would ever remove them: they are in the user's directory,
     * named after the path, and no open looks at them.
     *
     * <p>A temporary file is a dead create's exactly when its consumer lock is free: a create locks
     * its file right after making it and holds the lock until the file is renamed away (or deleted,
     * on an ordinary failure), and the operating system releases the lock when the process dies,
     * even on SIGKILL. So the sweep try-locks each one and deletes it only while it holds that lock
     * and after checking that the name still names the file it locked (by file key, device and
     * inode, as a create checks its path): two sweeps never delete a file some create made anew
     * under a freed name. A live create's file is locked and left alone; in the instant between
     * making its file and locking it, a create whose file a sweep took makes another (see
     * {@link #buildAndRename}). Without file keys (Windows) the re-check cannot be made: as for the
     * create's check of its path, the guarantee is POSIX-only.
     *
     * <p>The sweep runs on create only, not when a sender or receiver opens a file: only creates
     * make temporary files, every run that makes a receiver on the path creates first (so the
     * leftovers of a killed run go at the next run's create), a sender may not be allowed to delete
     * in the directory, and an open should not list the directory. Best effort: a file it cannot
     * open, lock or delete is left for a later create, and it never fails the create.
     *
     * @return how many leftovers it removed
     */
    static int sweepLeftovers(Path path) {
        Path parent = path.getParent();
        Path dir = parent != null ? parent : path.getFileSystem().getPath("");
        String prefix = tempPrefix(path);
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                String name = e.getFileName().toString();
                if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)
                    && isPidAndNumber(name.substring(prefix.length(), name.length() - TEMP_SUFFIX.length()))) {
                    candidates.add(path.resolveSibling(name));
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            return 0; // cannot list the directory: the create goes on and says what is wrong with it, if anything
        }
        int removed = 0;
        for (Path temp : candidates) {
            if (removeIfDead(temp)) {
                removed++;
            }
        }
        return removed;
    }

    /** Whether {@code s} is {@code <pid>.<n>}, two runs of digits. */
    private static boolean isPidAndNumber(String s) {
        int dot = s.indexOf('.');
        return dot > 0 && dot < s.length() - 1 && s.indexOf('.', dot + 1) < 0 && allDigits(s, 0, dot)
            && allDigits(s, dot + 1, s.length());
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Deletes the temporary file {@code temp} if its creator is dead (its lock free); see {@link #sweepLeftovers}. */
    private static boolean removeIfDead(Path temp) {
        OpenFiles.Handle h;
        try {
            h = OpenFiles.open(temp);
        } catch (IOException e) {
            return false; // gone already (renamed into place, or another sweep), or not ours to open
        }
        try {
            FileLock l;
            try {
                l = h.channel.tryLock(LOCK_BASE, 1, false);
            } catch (OverlappingFileLockException e) {
                return false; // this JVM holds it (its creates are serialised, so none is under way: defensive)
            }
            if (l == null) {
                return false; // a live create holds it
            }
            try {
                if (!h.isAt(temp)) {
                    return false; // another sweep deleted it, and the name may now be a live create's file
                }
                Files.delete(temp);
                return true;
            } finally {
                l.release();
            }
        } catch (IOException e) {
            return false;
        } finally {
            h.release();
        }
    }

    private void writeHeader(byte[] format) {
        UnsafeBuffer h = header;
        h.putInt(VERSION_OFFSET, VERSION, ByteOrder.LITTLE_ENDIAN);
        h.putInt(KIND_OFFSET, kind, ByteOrder.LITTLE_ENDIAN);
        h.putInt(CAPACITY_OFFSET, capacity, ByteOrder.LITTLE_ENDIAN);
        h.putInt(PRODUCERS_OFFSET, producers, ByteOrder.LITTLE_ENDIAN);
        h.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH, ByteOrder.LITTLE_ENDIAN);
        h.putInt(MAX_RECORD_OFFSET, ring.maxMsgLength(), ByteOrder.LITTLE_ENDIAN);
        h.putLong(CONSUMER_PID_OFFSET, ProcessHandle.current().pid(), ByteOrder.LITTLE_ENDIAN);
        h.putInt(RECORD_HEADER_OFFSET, RecordDescriptor.HEADER_LENGTH, ByteOrder.LITTLE_ENDIAN);
        h.putInt(RECORD_ALIGNMENT_OFFSET, RecordDescriptor.ALIGNMENT, ByteOrder.LITTLE_ENDIAN);
        h.putInt(TRAILER_LENGTH_OFFSET, RingBufferDescriptor.TRAILER_LENGTH, ByteOrder.LITTLE_ENDIAN);
        h.putInt(FORMAT_NAME_LENGTH_OFFSET, format.length, ByteOrder.LITTLE_ENDIAN);
        h.putBytes(FORMAT_NAME_OFFSET, format);
        h.putIntVolatile(CONSUMER_STATE_OFFSET, CONSUMER_OPEN);
        // The magic last, with release semantics: whoever sees it sees a complete header (the file
        // is renamed into place only after this anyway).
        h.putLongOrdered(MAGIC_OFFSET, toNativeLittleEndian(MAGIC));
    }

    /**
     * The refusal of a create whose path is held: by a live receiver (its pid from the header), or,
     * when the header names no running receiver, by another create replacing the file right now.
     * A lock held in this JVM is a live receiver of this JVM, since this JVM's creates are serialised.
     */
    private static IpcException refusal(Path path, FileChannel channel, boolean inThisJvm) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(CONSUMER_STATE_OFFSET + 4).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining() && channel.read(b, b.position()) >= 0) {
            // read the header up to the consumer state
        }
        boolean header = !b.hasRemaining() && b.getLong(MAGIC_OFFSET) == MAGIC;
        long pid = header ? b.getLong(CONSUMER_PID_OFFSET) : 0;
        // the state is written at run time, in the host's order (see the layout above)
        boolean open = header && b.order(ByteOrder.nativeOrder()).getInt(CONSUMER_STATE_OFFSET) == CONSUMER_OPEN;
        String holder;
        if (inThisJvm) {
            holder = "a live receiver holds it (in this process, pid " + ProcessHandle.current().pid() + ")";
        } else if (open && pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            holder = "a live receiver holds it (process " + pid + ")";
        } else {
            return new IpcException("refusing to replace " + path + ": another process is creating a receiver on it"
                + " right now (it holds the file's receiver lock); create the channel at another path, or again"
                + " once that receiver has closed");
        }
        return new IpcException("refusing to replace " + path + ": " + holder + "; close that receiver first (an"
            + " IpcSource that never ran: source.receiver().close()), or create the channel at another path");
    }

    /** Opens an existing file and checks its header. */
    static IpcFile open(Path path) {
        requireUnsafeAccess();
        return OpenFiles.uninterruptibly(() -> openNow(path));
    }

    private static IpcFile openNow(Path path) {
        OpenFiles.Handle handle = null;
        try {
            handle = OpenFiles.open(path);
            FileChannel fc = handle.channel;
            long length = fc.size();
            if (length < HEADER_LENGTH) {
                throw new IpcFormatException(path + " is not a BBFlow IPC channel file: " + length
                    + " bytes, shorter than the " + HEADER_LENGTH + "-byte header");
            }
            MappedByteBuffer probe = fc.map(FileChannel.MapMode.READ_ONLY, 0, HEADER_LENGTH);
            UnsafeBuffer h = new UnsafeBuffer(probe);
            long magic = h.getLongVolatile(MAGIC_OFFSET);
            if (magic != toNativeLittleEndian(MAGIC)) {
                IoUtil.unmap(probe);
                throw new IpcFormatException(path + " is not a BBFlow IPC channel file (or not initialised yet): magic 0x"
                    + Long.toHexString(fromNativeLittleEndian(magic)) + ", expected 0x" + Long.toHexString(MAGIC));
            }
            int version = h.getInt(VERSION_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int kind = h.getInt(KIND_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int capacity = h.getInt(CAPACITY_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int producers = h.getInt(PRODUCERS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int headerLength = h.getInt(HEADER_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int recordHeader = h.getInt(RECORD_HEADER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int alignment = h.getInt(RECORD_ALIGNMENT_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int trailer = h.getInt(TRAILER_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            int formatLength = h.getInt(FORMAT_NAME_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            byte[] format = new byte[formatLength >= 0 && formatLength <= MAX_FORMAT_NAME_BYTES ? formatLength : 0];
            h.getBytes(FORMAT_NAME_OFFSET, format);
            IoUtil.unmap(probe);
            if (version != VERSION) {
                throw new IpcFormatException(path + ": unsupported IPC channel format version " + version
                    + " (this library reads version " + VERSION + "; the receiver runs another BBFlow version)");
            }
            if (recordHeader != RecordDescriptor.HEADER_LENGTH || alignment != RecordDescriptor.ALIGNMENT
                || trailer != RingBufferDescriptor.TRAILER_LENGTH) {
                throw new IpcFormatException(path + ": the ring's record layout (record header " + recordHeader
                    + " bytes, alignment " + alignment + ", trailer " + trailer + ") differs from this library's ("
                    + RecordDescriptor.HEADER_LENGTH + ", " + RecordDescriptor.ALIGNMENT + ", "
                    + RingBufferDescriptor.TRAILER_LENGTH + "): the receiver runs another Agrona version");
            }
            if (formatLength < 0 || formatLength > MAX_FORMAT_NAME_BYTES) {
                throw new IpcFormatException(path + ": record format name of " + formatLength + " bytes, at most "
                    + MAX_FORMAT_NAME_BYTES);
            }
            if (headerLength != HEADER_LENGTH) {
                throw new IpcFormatException(path + ": header length " + headerLength + ", expected " + HEADER_LENGTH);
            }
            if (kind != KIND_ONE_TO_ONE && kind != KIND_MANY_TO_ONE) {
                throw new IpcFormatException(path + ": unknown channel kind " + kind);
            }
            if (capacity < 1024 || !BitUtil.isPowerOfTwo(capacity) || capacity > (1 << 30)) {
                throw new IpcFormatException(path + ": ring capacity " + capacity + " is not a power of two in [1 KiB, 1 GiB]");
            }
            if (producers < 1 || producers > MAX_PRODUCERS || (kind == KIND_ONE_TO_ONE && producers != 1)) {
                throw new IpcFormatException(path + ": invalid producer count " + producers + " for kind " + kind);
            }
            if (length != fileLength(capacity)) {
                throw new IpcFormatException(path + ": file length " + length + " does not match the header (capacity "
                    + capacity + " needs " + fileLength(capacity) + " bytes)");
            }
            MappedByteBuffer mbb = fc.map(FileChannel.MapMode.READ_WRITE, 0, length);
            return new IpcFile(path, handle, mbb, kind, capacity, producers, new String(format, StandardCharsets.UTF_8));
        } catch (IOException e) {
            closeQuietly(handle);
            throw new IpcException("cannot open IPC channel file " + path + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(handle);
            throw e;
        }
    }

    private static long toNativeLittleEndian(long v) {
        // Header longs are stored little-endian; putLongOrdered uses native order.
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? v : Long.reverseBytes(v);
    }

    private static long fromNativeLittleEndian(long v) {
        return toNativeLittleEndian(v);
    }

    // ---- producer slots -------------------------------------------------------------------

    static int slotOffset(int slot) {
        return SLOTS_OFFSET + slot * SLOT_LENGTH;
    }

    int slotState(int slot) {
        return header.getIntVolatile(slotOffset(slot));
    }

    void slotState(int slot, int state) {
        header.putIntOrdered(slotOffset(slot), state);
    }

    boolean casSlotState(int slot, int expected, int update) {
        return header.compareAndSetInt(slotOffset(slot), expected, update);
    }

    long slotPid(int slot) {
        return header.getLongVolatile(slotOffset(slot) + 8);
    }

    /** Registers this process as a producer: takes a free slot and holds its liveness lock. */
    int registerProducer() {
        for (int i = 0; i < producers; i++) {
            if (slotState(i) == SLOT_FREE && casSlotState(i, SLOT_FREE, SLOT_REGISTERING)) {
                try {
                    // tryLock, unlike lock, cannot be interrupted (which would close the shared channel).
                    ownLock = fileChannel.tryLock(LOCK_BASE + 1 + i, 1, false);
                } catch (IOException | OverlappingFileLockException e) {
                    slotState(i, SLOT_FREE);
                    throw new IpcException("cannot take the liveness lock of producer slot " + i + " in " + path, e);
                }
                if (ownLock == null) {
                    slotState(i, SLOT_FREE);
                    throw new IpcException("the liveness lock of free producer slot " + i + " in " + path
                        + " is held by another process");
                }
                header.putLongVolatile(slotOffset(i) + 8, ProcessHandle.current().pid());
                slotState(i, SLOT_LIVE);
                return i;
            }
        }
        throw new IpcException("all " + producers + " producer slot(s) of " + path + " are taken");
    }

    /**
     * Whether the process holding the lock at {@code position} is gone. Only meaningful for an
     * endpoint that registered (state LIVE/OPEN); a lock held in this JVM counts as alive.
     */
    boolean lockOwnerDead(long position) {
        try {
            FileLock l = fileChannel.tryLock(position, 1, false);
            if (l == null) {
                return false;
            }
            l.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // held by this very JVM
        } catch (IOException e) {
            return false;
        }
    }

    boolean producerDead(int slot) {
        return lockOwnerDead(LOCK_BASE + 1 + slot);
    }

    boolean consumerDead() {
        return lockOwnerDead(LOCK_BASE);
    }

    int consumerState() {
        return header.getIntVolatile(CONSUMER_STATE_OFFSET);
    }

    void consumerState(int state) {
        header.putIntOrdered(CONSUMER_STATE_OFFSET, state);
    }

    long consumerPid() {
        return header.getLong(CONSUMER_PID_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (ownLock != null && ownLock.isValid()) {
                ownLock.release();
            }
        } catch (IOException ignored) {
            // the channel's last user closes it, and the lock with it
        }
        IoUtil.unmap(mapped);
        handle.release();
    }

    boolean isClosed() {
        return closed;
    }

    private static void closeQuietly(OpenFiles.Handle handle) {
        if (handle != null) {
            handle.release();
        }
    }
}
