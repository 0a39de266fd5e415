package org.bbflow.bkd;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A concurrent Bkd-tree: a dynamic index of points with 1 to 8 {@code double} coordinates and a
 * {@code long} id each.
 *
 * <p><b>Writes.</b> {@link #insert} appends to the calling thread's private buffer (or use a
 * {@link #writer()} handle); a full buffer is bulk-loaded into a balanced kd-tree on the inserting
 * thread and published. Trees of similar size are merged in the background (logarithmic method);
 * when merges fall behind, inserters wait on a bounded backlog. {@link #delete} records a tombstone
 * that hides the matching points inserted before it, at once.
 *
 * <p><b>Reads.</b> {@link #count}, {@link #query}, {@link #withinDistance}, {@link #nearest} and
 * {@link #contains} take no lock: they pin the
 * current set of trees (published by read-copy-update) and announce it in a per-reader slot so the
 * reclaimer keeps those trees alive. A point is visible once its buffer is published: when the
 * buffer fills, on {@link #refresh()} by the inserting thread, or on {@link BkdWriter#flush()}.
 * {@link #snapshot()} gives a repeatable view.
 *
 * <p><b>Durability.</b> With a {@linkplain Builder#directory directory}, {@link #commit()} makes
 * every insert and delete made before it by the calling thread, and every published tree, durable;
 * {@link #close()} commits too. After a crash (even {@code kill -9} in the middle of a commit or a
 * merge) the next {@code build()} reopens exactly the last completed commit. Every file is
 * checksummed and verified on open ({@link CorruptIndexException}); a {@code write.lock} keeps a
 * second index, in this or another process, out of the directory ({@link IndexLockedException}).
 *
 * <p><b>Coordinates</b> compare like {@link Double#compare(double, double)}: {@code -0.0 < 0.0},
 * infinities are allowed, NaN is rejected. Internally they are stored as sortable longs.
 */
public final class BkdTree implements AutoCloseable {
    /** Largest supported number of dimensions. */
    public static final int MAX_DIMS = 8;

    /**
     * Largest merge backlog ({@link Builder#mergeBacklog}): 2^20 tickets. A ticket only asks a merge
     * worker to look for work, so a longer backlog changes nothing but the memory its queue takes
     * (the flow's ticket channel rounds its capacity up to a power of two and holds at most 2^30).
     */
    public static final int MAX_MERGE_BACKLOG = 1 << 20;

    /**
     * Largest {@link Builder#expectedTombstones}: 2^24 (16,777,216). The Bloom filter in front of the
     * tombstones keeps 16 bits per expected tombstone and is at most 2^28 bits (32 MiB), so a larger
     * expectation could not be honoured (more tombstones than that are fine: the filter's
     * false-positive rate grows, and it is rebuilt for the live count after purges).
     */
    public static final int MAX_EXPECTED_TOMBSTONES = 1 << 24;

    final int dims;
    final int leafSize;
    /** log2 of the points per page of every tree ({@link Pages}). */
    final int pageShift;
    final int bufferSize;
    final int mergeFactor;
    /** Inserts idle this long: the background merger merges all trees into one (0: never). */
    final long idleMergeNanos;
    /** {@link System#nanoTime()} of the last tree published from an insert buffer. */
    volatile long lastPublish = System.nanoTime();
    final boolean poisonCheck;
    final AtomicLong sequence = new AtomicLong();
    final Tombstones tombstones;
    final Reclaimer reclaimer;
    final AtomicLong merges = new AtomicLong();
    /** Points taken out of insert buffers (published or dropped as already deleted). */
    final AtomicLong insertedPoints = new AtomicLong();
    /** Points written into merged trees. */
    final AtomicLong mergedPoints = new AtomicLong();
    private final AtomicReference<Forest> forest = new AtomicReference<>(Forest.EMPTY);
    private final CopyOnWriteArrayList<InsertBuffer> buffers = new CopyOnWriteArrayList<>();
    /**
     * The calling thread's buffer, held weakly: the strong reference lives in {@link #buffers}, so
     * a closed (unreachable) index is not kept alive by the thread-local maps of its inserters.
     */
    private final ThreadLocal<WeakReference<InsertBuffer>> localBuffer = new ThreadLocal<>();
    private final ThreadLocal<ReaderSlot> localSlot;
    final Merger merger;
    private final MergeStage mergeStage;
    private volatile boolean closed;
    private final java.nio.file.Path directory;
    private final AtomicLong fileNumbers = new AtomicLong();
    /** Serializes commits: only a commit writes files into the directory. */
    private final Object commitLock = new Object();
    /** Serializes {@link #close()} calls, so the first one does the work and the others wait for it. */
    private final Object closeLock = new Object();
    /** Serializes {@link #publishBuffersOfTerminatedThreads()} (the scheduler thread and close()). */
    private final Object terminatedLock = new Object();
    /** Generation of the last durable manifest (guarded by {@link #commitLock}). */
    private long generation;
    /** The id made when the index was created, stamped into every file (persistent indexes). */
    private java.util.UUID indexId;
    private DirectoryLock lock;
    /**
     * The clock up to which every delete is in the commit of {@link #close()} (set by that commit;
     * -1 until then, or if it failed). Guarded by {@link #closeLock} for the deletes that read it.
     */
    private long closeCommittedUpTo = -1;
    /**
     * Test hook run by {@link #delete} after its open check (null in production). Plain, not volatile:
     * a delete is a per-point write path, and a test sets the hook before it starts the deleting
     * thread ({@code Thread.start} orders it).
     */
    Runnable deleteHook;
    /** Test hook run by {@link #commit()} after its open check (null in production). */
    volatile Runnable commitHook;
    /** Test hook run by a buffer's flush before it bulk-loads its live points (null in production). */
    volatile Runnable bulkLoadHook;
    /** Test hook told each step of a commit's writes ("trees written", ...; null in production). */
    volatile java.util.function.Consumer<String> commitSteps;

    private BkdTree(Builder b) {
        this.dims = b.dims;
        this.leafSize = b.leafSize;
        this.pageShift = b.pageShift >= 0 ? b.pageShift : Pages.shift(b.dims);
        this.bufferSize = b.bufferSize;
        this.mergeFactor = b.mergeFactor;
        this.idleMergeNanos = b.idleMergeNanos;
        this.poisonCheck = b.poisonReclaimed;
        this.tombstones = new Tombstones(dims, b.expectedTombstones);
        this.reclaimer = new Reclaimer(b.poisonReclaimed, 2_000_000L);
        this.localSlot = ThreadLocal.withInitial(() -> reclaimer.register(Thread.currentThread()));
        this.reclaimer.housekeeping(() -> {
            publishBuffersOfTerminatedThreads();
            tombstones.dropSlotsOfTerminatedThreads();
            offerIdleMerge();
        });
        this.merger = new Merger(this);
        this.directory = b.directory;
        // Made (not started) before the directory is locked: nothing after reopen() may fail, since a
        // failed constructor cannot release the lock (before, a merge stage that could not be made
        // left the directory locked in this JVM for good).
        this.mergeStage = b.merging
                ? MergeStages.create(merger, b.mergeWorkers, b.mergeBacklog, "bkd", b.plainThreadMerges, b.threadFactory)
                : null;
        if (directory != null) {
            boolean interrupted = Thread.interrupted();     // FileChannel reads fail on an interrupted thread
            try {
                reopen();
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        try {
            reclaimer.start("bkd-reclaimer", b.threadFactory);
            if (mergeStage != null) {
                mergeStage.start();
                if (forest.get().trees.length > 0) {
                    mergeStage.offer();     // reopened trees may already be due for a merge
                }
            }
        } catch (RuntimeException | Error e) {
            // A thread that cannot start (an OutOfMemoryError "unable to create native thread", a
            // thread factory that throws): undo everything made so far before rethrowing. Before,
            // write.lock stayed held for the JVM's life (every later build() of the directory failed
            // with "another BkdTree in this JVM has it open") and a started scheduler thread ran on,
            // holding this unreachable index (BuildThreadFailureTest).
            abandonBuild(e);
            throw e;
        }
    }

    /** Undoes a build whose background threads could not all start; failures are suppressed into {@code failure}. */
    private void abandonBuild(Throwable failure) {
        closed = true;
        try {
            if (mergeStage != null) {
                mergeStage.close();     // stops the workers that did start; a flow that failed to start has none
            }
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
        reclaimer.stop();               // joins the scheduler thread if it started
        if (lock != null) {
            releaseLockAfterFailedOpen(failure);
        }
    }

    /**
     * Starts configuring an index of {@code dims} dimensions (1 to {@value #MAX_DIMS}).
     *
     * @param dims the number of dimensions
     * @return a builder
     */
    public static Builder builder(int dims) {
        return new Builder(dims);
    }

    /**
     * Number of dimensions of every point.
     *
     * @return the number of dimensions
     */
    public int dims() {
        return dims;
    }

    // ---------------------------------------------------------------- writes

    /**
     * Inserts a point into the calling thread's buffer; it becomes visible when that buffer is
     * published (full, or {@link #refresh()} on this thread; if the thread terminates first, the
     * scheduler thread publishes the buffer shortly after). Several points may share coordinates
     * and even ids. Allocates nothing per point.
     *
     * @param point the coordinates, one per dimension
     * @param id the point's id
     * @throws IllegalArgumentException on a wrong dimension count or NaN coordinate
     * @throws IllegalStateException after {@link #close()}
     */
    public void insert(double[] point, long id) {
        localBuffer().insert(point, id);
    }

    /**
     * Publishes the calling thread's buffered inserts now (read-your-writes for this thread).
     *
     * @throws IllegalStateException after {@link #close()}, also when close() ran before the buffer
     *         was published (its points are then discarded; a refresh that returned is in the commit of
     *         close())
     */
    public void refresh() {
        checkOpen();
        InsertBuffer b = currentBuffer();
        if (b != null) {
            b.flush();
        }
    }

    /** The calling thread's buffer, created and registered on first use. */
    private InsertBuffer localBuffer() {
        InsertBuffer b = currentBuffer();
        if (b == null) {
            checkOpen();
            b = register(new InsertBuffer(this, dims, bufferSize, leafSize, Thread.currentThread()));
            localBuffer.set(new WeakReference<>(b));
        }
        return b;
    }

    /** The calling thread's buffer, or null if it has none. */
    private InsertBuffer currentBuffer() {
        WeakReference<InsertBuffer> ref = localBuffer.get();
        return ref == null ? null : ref.get();
    }

    /** Same as {@link #refresh()}. */
    public void flush() {
        refresh();
    }

    /**
     * Makes the index durable up to now: publishes the calling thread's buffer, then writes every
     * published tree that has no file yet and the tombstones (each file fsynced and checksummed),
     * and finally replaces the manifest atomically (temp file, fsync, atomic rename, directory
     * fsync). When this returns, every insert and delete this thread made before the call, and
     * every point other threads had published, survives a crash; points still buffered by other
     * threads (or unflushed {@link BkdWriter}s) are not included. Files of the previous commit that
     * the new manifest no longer names are deleted only after it is durable. Concurrent commits run
     * one after the other, and one after the other with {@link #close()}: a commit that did not
     * start before {@code close()} fails and writes nothing. Without a directory this only
     * publishes the calling thread's buffer.
     *
     * @throws java.io.UncheckedIOException if a file cannot be written (also if the thread is interrupted while
     *         the files are written; an interrupt flag set before the call is cleared for the I/O and set
     *         again); the previous commit stays the durable one
     * @throws IllegalStateException after {@link #close()}, also when close() ran while this commit
     *         waited for a concurrent commit (nothing written or deleted then)
     */
    public void commit() {
        checkOpen();
        localBuffer().flush();
        Runnable hook = commitHook;
        if (hook != null) {
            hook.run();
        }
        if (directory == null) {
            return;
        }
        synchronized (commitLock) {
            if (closed) {
                throw new IllegalStateException("BkdTree was closed before this commit could run: nothing was"
                        + " committed by it (close() committed the index)");
            }
            boolean interrupted = Thread.interrupted();     // see commitPublished()
            try {
                commitPublished();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot commit to index directory " + directory + ": "
                        + reason(e), e);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * The message of a failed commit or open. A {@link java.nio.channels.ClosedByInterruptException}
     * has none: it means the thread was interrupted while the file I/O ran.
     */
    static String reason(java.io.IOException e) {
        if (e instanceof java.nio.channels.ClosedByInterruptException) {
            return "the thread was interrupted during the file I/O (a FileChannel closes on an interrupt)";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() == null && f.getFile() != null) {
            // java.nio's NoSuchFileException and its kin carry nothing but the path as their message:
            // "cannot open index directory D: D/tree-00000001.bkd" did not say the file was missing
            return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + what(f);
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** What a {@link java.nio.file.FileSystemException} without a reason means. */
    private static String what(java.nio.file.FileSystemException f) {
        if (f instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (f instanceof java.nio.file.FileAlreadyExistsException) {
            return "already exists";
        }
        if (f instanceof java.nio.file.AccessDeniedException) {
            return "access denied";
        }
        if (f instanceof java.nio.file.NotDirectoryException) {
            return "not a directory";
        }
        if (f instanceof java.nio.file.DirectoryNotEmptyException) {
            return "directory not empty";
        }
        return f.getClass().getSimpleName();
    }

    /**
     * Commits the current forest, the tombstones and the clock (a consistent cut, see below). The
     * caller holds {@link #commitLock} and has cleared its thread's interrupt flag (restoring it
     * afterwards): a FileChannel used by an interrupted thread closes itself and fails with a
     * {@link java.nio.channels.ClosedByInterruptException}, so a commit, and the commit of
     * {@code close()}, on a thread of a cancelled task would fail and lose what it should keep.
     *
     * @return the clock value up to which every delete is in this commit
     */
    private long commitPublished() throws java.io.IOException {
        assert Thread.holdsLock(commitLock);
        lock.ensureValid();
        // Pinning the forest like a reader keeps its trees' arrays from being reclaimed while they
        // are written, and keeps tombstones that may still hide points of these trees from being
        // purged before they are read below.
        ReaderSlot slot = reclaimer.register(null);
        try {
            Forest f = pin(slot);
            long seen = sequence.get();
            tombstones.awaitDeletesUpTo(seen);
            List<Tombstones.Entry> tombs = tombstones.entries();
            long clock = sequence.get();    // >= every tombstone read, >= every stamp in f
            long next = generation + 1;
            TreeFiles.commit(directory, indexId, dims, next, clock, f.trees, tombs, fileNumbers::incrementAndGet,
                    commitSteps);
            generation = next;
            return seen;
        } finally {
            reclaimer.unregister(slot);
        }
    }

    /**
     * Opens a writer handle with its own private buffer (close it to flush and release it).
     *
     * @return a new writer bound to this index
     */
    public BkdWriter writer() {
        checkOpen();
        return new BkdWriter(this, register(new InsertBuffer(this, dims, bufferSize, leafSize, null)));
    }

    /**
     * Deletes every point equal to {@code point} with this {@code id} that was inserted before
     * this call (also points still in some thread's unpublished buffer). A later insert of the same
     * point and id is not affected. Visible to queries as soon as this method returns.
     *
     * @param point the coordinates, one per dimension
     * @param id the point's id
     * @throws IllegalArgumentException on a wrong dimension count or NaN coordinate
     * @throws IllegalStateException after {@link #close()}, also when close() ran while this delete
     *         did and its commit does not hold the delete (a delete that returns normally is in it)
     */
    public void delete(double[] point, long id) {
        checkOpen();
        long[] key = new long[dims];
        Coordinates.encodePoint(point, dims, key, 0);
        Runnable hook = deleteHook;
        if (hook != null) {
            hook.run();
        }
        long seq = tombstones.add(key, id, sequence);
        if (closed && directory != null) {
            // close() began while this delete ran. It is in the commit of close() if its number is
            // at most the clock that commit read (the commit waits for every delete numbered up to
            // it); a delete that read closed == false after taking its number is, since close() sets
            // closed before its commit reads the clock. Else it returned normally and was lost on
            // reopen (DeleteCloseRaceTest): it fails instead, as a refresh() racing close() does.
            synchronized (closeLock) {          // wait for close() to finish its commit
                if (seq > closeCommittedUpTo) {
                    throw new IllegalStateException("BkdTree was closed while this delete ran: it is not in the"
                            + " commit of close(), so it is lost");
                }
            }
        }
    }

    // ---------------------------------------------------------------- reads

    /**
     * Number of live points inside {@code box} (inclusive bounds).
     *
     * @param box the query box
     * @return the number of live points in it
     */
    public long count(Box box) {
        return readLocal(box, null);
    }

    /**
     * Calls {@code visitor} for every live point in {@code box}; returns the number of points visited.
     *
     * @param box the query box
     * @param visitor called once per point
     * @return the number of points visited
     */
    public long query(Box box, PointVisitor visitor) {
        if (visitor == null) {
            throw new IllegalArgumentException("visitor must not be null");
        }
        return readLocal(box, visitor);
    }

    /**
     * Whether a live point with this id is stored at exactly {@code point}.
     *
     * @param point the coordinates, one per dimension
     * @param id the point's id
     * @return whether such a live point exists
     */
    public boolean contains(double[] point, long id) {
        checkOpen();
        ReaderSlot slot = enter();
        Forest f = slot.pinned;
        try {
            return lookup(f, point, id, Long.MAX_VALUE);
        } finally {
            leave(slot);
        }
    }

    /**
     * Visits the {@code k} live points nearest to {@code point} (Euclidean distance on the
     * doubles), nearest first; ties at the k-th distance are broken arbitrarily. Sees the same
     * points as {@link #query}.
     *
     * @param point  the query point (finite coordinates)
     * @param k      how many points to return (at least 1)
     * @param visitor receives each point's id and coordinates (the array is reused between calls)
     * @return the number of points visited: {@code k}, or fewer if the index holds fewer live points
     * @throws IllegalArgumentException on a wrong dimension count, a non-finite coordinate,
     *         {@code k < 1} or a null visitor
     * @throws IllegalStateException after {@link #close()}
     */
    public int nearest(double[] point, int k, PointVisitor visitor) {
        if (visitor == null) {
            throw new IllegalArgumentException("visitor must not be null");
        }
        return nearest(point, k, (NeighborVisitor) (id, p, distance) -> visitor.visit(id, p));
    }

    /**
     * Visits the {@code k} live points nearest to {@code point} with their distances, nearest first
     * (as {@link #nearest(double[], int, PointVisitor)}, which it is, plus the distance).
     *
     * @param point   the query point (finite coordinates)
     * @param k       how many points to return (at least 1)
     * @param visitor receives each point's id, coordinates (reused between calls) and distance
     * @return the number of points visited: {@code k}, or fewer if the index holds fewer live points
     * @throws IllegalArgumentException on a wrong dimension count, a non-finite coordinate,
     *         {@code k < 1} or a null visitor
     * @throws IllegalStateException after {@link #close()}
     */
    public int nearest(double[] point, int k, NeighborVisitor visitor) {
        if (visitor == null) {
            throw new IllegalArgumentException("visitor must not be null");
        }
        checkNearest(point, k);
        ReaderSlot slot = enter();
        Forest f = slot.pinned;
        try {
            int n = (int) Math.min(k, f.points());
            if (n == 0) {
                return 0;
            }
            return new NearestSearch(dims, point.clone(), n, tombstones, Long.MAX_VALUE, poisonCheck)
                    .run(f.trees, visitor);
        } finally {
            leave(slot);
        }
    }

    /**
     * The {@code k} live points nearest to {@code point}, nearest first, each with its distance
     * (Lucene's {@code KNN} results with their scores).
     *
     * @param point the query point (finite coordinates)
     * @param k     how many points to return (at least 1)
     * @return up to {@code k} neighbours, fewer if the index holds fewer live points
     * @throws IllegalArgumentException on a wrong dimension count, a non-finite coordinate or {@code k < 1}
     * @throws IllegalStateException after {@link #close()}
     */
    public List<Neighbor> nearest(double[] point, int k) {
        List<Neighbor> out = new ArrayList<>();
        nearest(point, k, (NeighborVisitor) (id, p, distance) -> out.add(new Neighbor(id, p.clone(), distance)));
        return out;
    }

    private void checkNearest(double[] point, int k) {
        checkOpen();
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        Coordinates.encodePoint(point, dims, new long[dims], 0);
        for (double v : point) {
            if (Double.isInfinite(v)) {
                throw new IllegalArgumentException("infinite query coordinate");
            }
        }
    }

    /**
     * Calls {@code visitor} for every live point whose Euclidean distance to {@code center} is at
     * most {@code radius} (a distance query, as Lucene's {@code newDistanceQuery} on the plane);
     * sees the same points as {@link #query}.
     *
     * @param center  the center (finite coordinates)
     * @param radius  the radius, zero or positive (infinity takes every point)
     * @param visitor called once per point (the array is reused between calls)
     * @return the number of points visited
     * @throws IllegalArgumentException on a wrong dimension count, a non-finite center, a negative
     *         or NaN radius or a null visitor
     * @throws IllegalStateException after {@link #close()}
     */
    public long withinDistance(double[] center, double radius, PointVisitor visitor) {
        if (visitor == null) {
            throw new IllegalArgumentException("visitor must not be null");
        }
        return distanceQuery(center, radius, visitor);
    }

    /**
     * Number of live points whose Euclidean distance to {@code center} is at most {@code radius}.
     *
     * @param center the center (finite coordinates)
     * @param radius the radius, zero or positive
     * @return the number of such points
     * @throws IllegalArgumentException on a wrong dimension count, a non-finite center or a negative or NaN radius
     * @throws IllegalStateException after {@link #close()}
     */
    public long countWithinDistance(double[] center, double radius) {
        return distanceQuery(center, radius, null);
    }

    private long distanceQuery(double[] center, double radius, PointVisitor visitor) {
        checkNearest(center, 1);
        if (!(radius >= 0)) {
            throw new IllegalArgumentException("radius must be zero or positive, got " + radius);
        }
        long[] lo = new long[dims];
        long[] hi = new long[dims];
        double[] p = new double[dims];
        for (int d = 0; d < dims; d++) {
            p[d] = center[d] - radius;
        }
        Coordinates.encodePoint(p, dims, lo, 0);
        for (int d = 0; d < dims; d++) {
            p[d] = center[d] + radius;
        }
        Coordinates.encodePoint(p, dims, hi, 0);
        ReaderSlot slot = enter();
        Forest f = slot.pinned;
        try {
            QueryContext q = new QueryContext(lo, hi, visitor, dims, tombstones, Long.MAX_VALUE, poisonCheck);
            DistanceQuery dq = new DistanceQuery(dims, center.clone(), radius, q);
            for (KdTree t : f.trees) {
                dq.run(t);
            }
            return q.count;
        } finally {
            leave(slot);
        }
    }

    /**
     * Opens a repeatable point-in-time view; close it to let its trees be reclaimed.
     *
     * @return a snapshot of the index as it is now
     */
    public Snapshot snapshot() {
        checkOpen();
        return new Snapshot(this);
    }

    private long readLocal(Box box, PointVisitor visitor) {
        checkOpen();
        ReaderSlot slot = enter();
        Forest f = slot.pinned;
        try {
            return run(f, box, visitor, Long.MAX_VALUE);
        } finally {
            leave(slot);
        }
    }

    /**
     * Pins the current forest for one read in the calling thread's slot and returns the slot (its
     * {@code pinned} forest); {@link #leave} it when done. A read nested in a visitor of another read
     * on this thread pins the forest current now in a slot of its own (so it sees what was published
     * since the outer read began, e.g. by the visitor's own refresh(), and the outer read keeps
     * its trees).
     *
     * @throws IllegalStateException if close() emptied the index since the caller's open check
     */
    private ReaderSlot enter() {
        ReaderSlot slot = localSlot.get();
        if (slot.depth != 0) {
            slot = reclaimer.register(null);
        }
        slot.depth = 1;
        Forest f = pin(slot);
        slot.pinned = f;
        if (f.sealed && f.trees.length == 0) {
            // close() ran between this read's open check and its pin, and emptied the forest after
            // its commit (only close() seals). Answering from it would be a wrong answer, no point at
            // all, rather than the index as it was: a read racing close() answers from the trees
            // close() committed or fails, as every operation racing close() does (before, a count
            // racing close() could return 0: ReadRacingCloseTest).
            leave(slot);
            throw new IllegalStateException("BkdTree is closed");
        }
        return slot;
    }

    private void leave(ReaderSlot slot) {
        slot.depth = 0;
        slot.pinned = null;
        if (slot.thread == null) {
            reclaimer.unregister(slot);         // a nested read's own slot
        } else {
            slot.version = ReaderSlot.IDLE;
        }
    }

    /** Announces the current forest in {@code slot} and returns it once the announcement is safe. */
    Forest pin(ReaderSlot slot) {
        Forest f = forest.get();
        for (;;) {
            slot.version = f.version;
            Forest again = forest.get();
            if (again == f) {
                return f;
            }
            f = again;
        }
    }

    long run(Forest f, Box box, PointVisitor visitor, long limit) {
        if (box == null) {
            throw new IllegalArgumentException("box must not be null");
        }
        if (box.dims() != dims) {
            throw new IllegalArgumentException("box has " + box.dims() + " dimensions, this index has " + dims);
        }
        return runContext(f, box, visitor, limit).count;
    }

    /** Runs a window query and returns its finished context (counts; tests look at its work). */
    QueryContext runContext(Forest f, Box box, PointVisitor visitor, long limit) {
        QueryContext q = new QueryContext(box.min, box.max, visitor, dims, tombstones, limit, poisonCheck);
        for (KdTree t : f.trees) {
            t.query(q);
        }
        return q;
    }

    boolean lookup(Forest f, double[] point, long id, long limit) {
        long[] key = new long[dims];
        Coordinates.encodePoint(point, dims, key, 0);
        boolean[] found = new boolean[1];
        QueryContext q = new QueryContext(key, key, (i, p) -> {
            if (i == id) {
                found[0] = true;
            }
        }, dims, tombstones, limit, poisonCheck);
        for (KdTree t : f.trees) {
            t.query(q);
            if (found[0]) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Waits until the background merges have caught up: no ticket queued or running and no level
     * with enough trees for another merge. Does not flush any buffer.
     *
     * <p>A background merge that fails changes nothing: a merge builds a new tree from its input
     * trees, which are immutable, and swaps it into the index in one atomic step, so until that
     * step nothing of the index was touched. The inputs stay in the index, unclaimed, every point
     * stays visible, and commits and {@code close()} go on writing them. So a failure does not
     * poison the index (unlike Lucene's tragic exceptions, which come from a writer whose state a
     * failure may have left half-changed): it is reported once, by the next call of this method
     * (in whichever thread), and then forgotten; the call after it retries the merge (a merge that
     * fails again is reported again). See {@code docs/bkd.md}.
     *
     * <p>Failures of the scheduler thread (publishing the buffer of a terminated thread, reclaiming
     * retired trees and tombstones; an {@code OutOfMemoryError}, say) are reported here the same
     * way, once, also when merging is off; the first one since the last report is logged too
     * (WARNING, logger {@code org.bbflow.bkd}). They lose nothing either: a terminated thread's
     * points whose publication failed stay buffered and a later pass publishes them.
     *
     * @throws IllegalStateException after {@link #close()}; or if background merges, or the
     *         scheduler thread, failed since the last report (the first failure is the cause; the
     *         failures are reported once)
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public void awaitMerges() throws InterruptedException {
        checkOpen();
        if (mergeStage == null) {
            checkMerges();
            return;
        }
        for (;;) {
            checkMerges();
            while (mergeStage.backlog() > 0) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(200_000);
                checkOpen();
            }
            if (!merger.hasWork()) {
                checkMerges();
                return;
            }
            mergeStage.submit();
        }
    }

    /**
     * Merges every published tree not claimed by a running background merge into one tree on the
     * calling thread, dropping dead points, then purges tombstones that can no longer match. Called
     * after {@link #awaitMerges()}, with no write and no background merge starting meanwhile, this
     * leaves a single tree. A merge that claimed trees first keeps them and publishes its own tree
     * (with {@link Builder#mergeWhenIdle} set, an idle merge may start between the two calls), so the
     * index may then hold two.
     *
     * @throws IllegalStateException after {@link #close()}, also when close() ran while this merged
     *         (the merged tree is then dropped)
     */
    public void forceMerge() {
        checkOpen();
        List<KdTree> claimed = new ArrayList<>();
        for (KdTree t : forest.get().trees) {
            if (t.claimed.compareAndSet(false, true)) {
                claimed.add(t);
            }
        }
        if (claimed.isEmpty()) {
            return;
        }
        merger.run(claimed.toArray(new KdTree[0]), true);
    }

    /**
     * Current statistics.
     *
     * <p>Unlike the other operations, this one also answers after {@link #close()}, as
     * {@link #isClosed()} does: it reads counters and changes nothing, a monitor polling it may race
     * {@code close()}, and what a closed index answers is meaningful: the index's final state. Once
     * {@code close()} returned, and every call that overlapped it returned too, it answers the same
     * every time: no tree, point or buffer held ({@code trees}, {@code points},
     * {@code treeBytes}, {@code bufferBytes} and {@code backlog} 0, every tree retired, and
     * reclaimed unless a snapshot left open saw it), and the counters since creation
     * ({@code insertedPoints}, {@code mergedPoints}, {@code merges}) as they stood when it closed: a
     * merge that was running when {@code close()} ran is dropped and counted nowhere. ({@link BkdStats}
     * documents its values once closed: the backlog reads 0 then, and close retires trees.)
     *
     * @return a snapshot of the statistics
     */
    public BkdStats stats() {
        Forest f = forest.get();
        int maxLevel = -1;
        for (KdTree t : f.trees) {
            maxLevel = Math.max(maxLevel, t.level);
        }
        int[] perLevel = new int[maxLevel + 1];
        for (KdTree t : f.trees) {
            perLevel[t.level]++;
        }
        List<Integer> levels = new ArrayList<>();
        for (int n : perLevel) {
            levels.add(n);
        }
        long bytes = 0;
        for (KdTree t : f.trees) {
            bytes += t.bytes();
        }
        long bufferBytes = 0;
        for (InsertBuffer b : buffers) {
            bufferBytes += b.bytes();
        }
        return new BkdStats(List.copyOf(levels), f.trees.length, f.points(), tombstones.size(),
                merges.get(), reclaimer.retiredTrees.get(), reclaimer.reclaimedTrees.get(),
                mergeStage == null || closed ? 0 : mergeStage.backlog(),
                mergeStage == null ? "none" : mergeStage.kind(),
                insertedPoints.get(), mergedPoints.get(), bytes, bufferBytes, tombstones.bytes(),
                mergeStage == null ? 0 : mergeStage.failures(), reclaimer.failures.total());
    }

    /**
     * Publishes the calling thread's own buffered points and those of threads that terminated before
     * this call (which the scheduler thread would publish a moment later), then stops the background
     * threads, drops all trees and buffers. Buffered points of other, live threads that
     * were never published are discarded. Trees still seen
     * by open snapshots are left to the garbage collector; using the index or its snapshots and
     * writers afterwards throws {@link IllegalStateException}. Idempotent: a {@code close()} racing
     * another waits for it to finish and returns. With a
     * {@linkplain Builder#directory directory}, first publishes the calling thread's buffer and
     * {@linkplain #commit() commits} (the next {@code build()} reopens that commit), then releases
     * the directory's {@code write.lock}.
     *
     * @throws java.io.UncheckedIOException if the commit cannot be written (everything is released
     *         anyway; the previous commit stays the durable one); any other exception or error of the
     *         commit is thrown as it is, also after everything was released
     */
    @Override
    public void close() {
        // One close runs at a time: a concurrent second close() waits for the first and returns (its
        // commit would fail on the released write.lock, and releasing the lock twice could drop the
        // claim of an index opened on the directory in between).
        synchronized (closeLock) {
            if (!closed) {
                // With the interrupt flag cleared (and restored): the commit's file I/O would fail
                // (see commitPublished()) and the joins of the background threads would not wait.
                boolean interrupted = Thread.interrupted();
                try {
                    closeOnce();
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    /** The body of {@link #close()}; the caller holds {@link #closeLock} and the index was open. */
    private void closeOnce() {
        InsertBuffer own = currentBuffer();
        localBuffer.remove();
        RuntimeException flushFailure = null;
        if (own != null) {
            try {
                own.flush(false);      // the closing thread's own inserts are kept (and committed)
            } catch (RuntimeException e) {
                flushFailure = e;      // still commit what was published, then release
            }
        }
        // Buffers of threads that terminated before this close() began are published, as the
        // scheduler thread would have done a moment later: only buffers of live threads are
        // discarded. Before, a thread joined just before close() lost its points unless the
        // scheduler (which polls every 2 ms) had run in between (TerminatedThreadCloseTest).
        try {
            publishBuffersOfTerminatedThreads();
        } catch (RuntimeException e) {
            flushFailure = flushFailure == null ? e : flushFailure;
        }
        closed = true;
        if (mergeStage != null) {
            mergeStage.close();
        }
        java.io.IOException persistFailure = null;
        Throwable commitError = null;
        // Under the commit lock: a commit waiting for it runs before (and is then committed again
        // here) or fails on "closed" after, never between this commit and the lock's release.
        synchronized (commitLock) {
            // Sealed first: a publish racing this close either added its tree before (and it is
            // committed here) or fails on "closed"; before, a refresh() could return after close()
            // had committed without its points, which were then lost (RefreshCloseRaceTest).
            Forest open;
            do {
                open = forest.get();
            } while (!forest.compareAndSet(open, open.seal()));
            if (directory != null) {
                try {
                    closeCommittedUpTo = commitPublished();
                } catch (java.io.IOException e) {
                    persistFailure = e;
                } catch (RuntimeException | Error e) {
                    // Still released below, as after an IOException: before, an OutOfMemoryError (or a
                    // provider's RuntimeException) here left the index closed with its write.lock held
                    // and its scheduler thread running, for good (CloseFailureReleasesTest).
                    commitError = e;
                }
            }
            Forest f;
            Forest empty;
            do {
                f = forest.get();
                empty = new Forest(f.version + 1, new KdTree[0], true);
            } while (!forest.compareAndSet(f, empty));
            for (KdTree t : f.trees) {
                t.death = empty.version;
                reclaimer.retire(t);
            }
            for (InsertBuffer b : buffers) {
                b.minSeq = Long.MAX_VALUE;
            }
            buffers.clear();
            reclaimer.stop();
            reclaimer.reclaimNow();
            if (lock != null) {
                try {
                    lock.close();
                } catch (java.io.IOException e) {
                    persistFailure = persistFailure == null ? e : persistFailure;
                }
            }
        }
        if (commitError != null) {
            if (persistFailure != null) {
                commitError.addSuppressed(persistFailure);      // the lock's release failed too
            }
            if (flushFailure != null) {
                commitError.addSuppressed(flushFailure);
            }
            if (commitError instanceof Error err) {
                throw err;
            }
            throw (RuntimeException) commitError;
        }
        if (persistFailure != null) {
            java.io.UncheckedIOException e = new java.io.UncheckedIOException("cannot commit to index directory "
                    + directory + ": " + reason(persistFailure), persistFailure);
            if (flushFailure != null) {
                e.addSuppressed(flushFailure);
            }
            throw e;
        }
        if (flushFailure != null) {
            throw flushFailure;
        }
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return whether the index is closed
     */
    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- internals

    /** Locks the directory and loads its last commit (verifying every file). */
    private void reopen() {
        if (java.nio.file.Files.exists(directory) && !java.nio.file.Files.isDirectory(directory)) {
            // createDirectories would throw a FileAlreadyExistsException whose message is the bare path
            throw new java.io.UncheckedIOException("cannot open index directory " + directory
                    + ": it exists and is not a directory", new java.nio.file.NotDirectoryException(directory.toString()));
        }
        try {
            java.nio.file.Files.createDirectories(directory);
            lock = DirectoryLock.obtain(directory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot open index directory " + directory + ": "
                    + reason(e), e);
        }
        try {
            fileNumbers.set(TreeFiles.maxFileNumber(directory));
            TreeFiles.Contents c = TreeFiles.open(directory, dims, pageShift);
            if (c == null) {
                Manifest m = TreeFiles.create(directory, dims);
                indexId = m.index();
                generation = m.generation();
                return;
            }
            indexId = c.manifest().index();
            generation = c.manifest().generation();
            sequence.set(c.manifest().sequence());
            for (Tombstones.Entry e : c.tombstones()) {
                tombstones.restore(e.key(), e.seq());
            }
            for (KdTree t : c.trees()) {
                publish(t);
            }
        } catch (java.io.IOException e) {
            releaseLockAfterFailedOpen(e);
            throw new java.io.UncheckedIOException("cannot open index directory " + directory + ": "
                    + reason(e), e);
        } catch (RuntimeException | Error e) {
            releaseLockAfterFailedOpen(e);
            throw e;
        }
    }

    private void releaseLockAfterFailedOpen(Throwable failure) {
        try {
            lock.close();
        } catch (java.io.IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** Run by the scheduler thread: queues a ticket for the idle merge once it is due. */
    private void offerIdleMerge() {
        MergeStage stage = mergeStage;
        if (stage != null && !closed && stage.backlog() == 0 && merger.idleMergeDue()) {
            stage.offer();
        }
    }

    /**
     * Throws the failures of background merges and of the scheduler thread since the last report,
     * once (see awaitMerges); a merge failure first, with the scheduler's suppressed in it.
     */
    private void checkMerges() {
        IllegalStateException failed = mergeStage == null ? null : mergeStage.takeFailure();
        IllegalStateException background = reclaimer.failures.take();
        if (failed != null) {
            if (background != null) {
                failed.addSuppressed(background);
            }
            throw failed;
        }
        if (background != null) {
            throw background;
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("BkdTree is closed");
        }
    }

    Forest forest() {
        return forest.get();
    }

    /**
     * The size tier of a tree of {@code n} points: the smallest {@code k} with
     * {@code n <= mergeFactor^k}. Merges combine {@code mergeFactor} trees of one tier, so a point
     * is rewritten about once per tier it climbs, whatever the size of the published trees.
     */
    int levelOf(int n) {
        int level = 0;
        long cap = 1;
        while (n > cap) {
            cap *= mergeFactor;
            level++;
        }
        return level;
    }

    InsertBuffer register(InsertBuffer b) {
        buffers.add(b);
        return b;
    }

    void unregister(InsertBuffer b) {
        buffers.remove(b);
    }

    /** The registered insert buffers (thread-local and writer handles). */
    List<InsertBuffer> buffers() {
        return buffers;
    }

    /**
     * Waits until every delete numbered up to the current sequence is recorded and returns that
     * number: a {@link #dropDead} pass started afterwards leaves no point hidden by such a delete.
     */
    long filterBound() {
        long bound = sequence.get();
        tombstones.awaitDeletesUpTo(bound);
        return bound;
    }

    /** Compacts away points hidden by tombstones; returns the number of live points kept in front. */
    int dropDead(long[] c, long[] ids, long[] seqs, int n) {
        if (tombstones.isEmpty()) {
            return n;
        }
        Tombstones.Probe probe = tombstones.newProbe();
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (tombstones.hides(c, i * dims, ids[i], seqs[i], Long.MAX_VALUE, probe)) {
                continue;
            }
            if (k != i) {
                System.arraycopy(c, i * dims, c, k * dims, dims);
                ids[k] = ids[i];
                seqs[k] = seqs[i];
            }
            k++;
        }
        return k;
    }

    /**
     * Adds a freshly built tree to the forest (RCU).
     *
     * @throws IllegalStateException if close() sealed the forest (the tree is dropped)
     */
    void publish(KdTree tree) {
        lastPublish = System.nanoTime();
        for (;;) {
            Forest cur = forest.get();
            if (cur.sealed) {
                throw new IllegalStateException("BkdTree is closed: these points were not published (close() ran"
                        + " before their buffer was)");
            }
            Forest next = cur.plus(tree);
            tree.birth = next.version;
            if (forest.compareAndSet(cur, next)) {
                return;
            }
        }
    }

    /** Called by an inserter after it published a tree: queue a merge ticket (may wait). */
    void afterPublish(boolean mayWait) {
        if (mergeStage == null) {
            return;
        }
        if (!mayWait) {
            mergeStage.offer();
            return;
        }
        try {
            mergeStage.submit();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Run by the scheduler thread: a terminated thread can no longer refresh its buffer, so its
     * points are published here (thread termination happens-before {@code isAlive()} returning
     * false, so the buffer's contents are visible to this thread).
     */
    void publishBuffersOfTerminatedThreads() {
        // One caller at a time: the scheduler thread and close() both run this, and two flushes of
        // one buffer at once would corrupt it (an InsertBuffer is confined to one thread at a time).
        synchronized (terminatedLock) {
            Throwable failed = null;
            for (InsertBuffer b : buffers) {
                if (b.thread != null && !b.thread.isAlive() && !closed) {
                    try {
                        b.flush(false); // still registered meanwhile: its minSeq guards the tombstone purge
                    } catch (RuntimeException | Error e) {
                        if (closed) {
                            // close() sealed the forest under this flush: the points are discarded as
                            // close() discards every unpublished buffer, and that is no failure to report
                            buffers.remove(b);
                            b.release();
                            continue;
                        }
                        // Kept registered with its points (a failed flush leaves the buffer whole), so a
                        // later pass publishes them; the failure is reported (Reclaimer.failures). Before,
                        // the buffer was dropped, and the thread's points with it, silently.
                        failed = failed == null ? e : failed;
                        continue;
                    }
                    buffers.remove(b);
                    b.release();
                }
            }
            if (failed instanceof Error e) {
                throw e;
            } else if (failed != null) {
                throw (RuntimeException) failed;
            }
        }
    }

    /** Replaces merged inputs by their output (RCU) and retires the inputs. */
    void install(KdTree[] inputs, KdTree output) {
        Forest next;
        for (;;) {
            Forest cur = forest.get();
            if (cur.sealed) {
                throw new IllegalStateException("BkdTree was closed while this merge ran; its result is dropped");
            }
            try {
                next = cur.replace(inputs, output);
            } catch (IllegalStateException e) {
                if (closed) {                   // close() emptied the forest while this merge ran
                    throw new IllegalStateException("BkdTree was closed while this merge ran; its result is dropped", e);
                }
                throw e;
            }
            if (output != null) {
                output.birth = next.version;
            }
            if (forest.compareAndSet(cur, next)) {
                break;
            }
        }
        for (KdTree t : inputs) {
            t.death = next.version;
            reclaimer.retire(t);
        }
    }

    /** Runs one reclamation pass now; returns the number of retired items still waiting for readers. */
    int reclaimNow() {
        return reclaimer.reclaimNow();
    }

    /**
     * Configuration of a {@link BkdTree}. Defaults: leaf size 512, buffer 65,536 points per writer,
     * merge factor 4, one merge worker, a backlog of 8 merge tickets, merging on, no poisoning.
     */
    public static final class Builder {
        private final int dims;
        private int leafSize = 512;
        private int bufferSize = 1 << 16;
        private int mergeFactor = 4;
        private int mergeWorkers = 1;
        private int mergeBacklog = 8;
        private boolean merging = true;
        private boolean poisonReclaimed;
        private int pageShift = -1;
        private int expectedTombstones = 1 << 16;
        private boolean plainThreadMerges;
        private java.nio.file.Path directory;
        private long idleMergeNanos = 1_000_000_000L;
        private java.util.concurrent.ThreadFactory threadFactory;

        private Builder(int dims) {
            if (dims < 1 || dims > MAX_DIMS) {
                throw new IllegalArgumentException("dims must be 1 to " + MAX_DIMS + ", got " + dims);
            }
            this.dims = dims;
        }

        /**
         * Maximum points per leaf (2 to 65,536).
         *
         * @param n points per leaf
         * @return this builder
         */
        public Builder leafSize(int n) {
            if (n < 2 || n > 65_536) {
                throw new IllegalArgumentException("leafSize must be 2..65536, got " + n);
            }
            leafSize = n;
            return this;
        }

        /**
         * Points buffered per writer before a tree is built (1 to 2^26 / dims).
         *
         * @param n points per buffer
         * @return this builder
         */
        public Builder bufferSize(int n) {
            if (n < 1 || n > (1 << 26) / dims) {
                throw new IllegalArgumentException("bufferSize must be 1.." + ((1 << 26) / dims) + ", got " + n);
            }
            bufferSize = n;
            return this;
        }

        /**
         * How many trees of one size tier are merged into one tree (2 to 64). A tree of {@code n}
         * points is in the smallest tier {@code k} with {@code n <= mergeFactor^k}.
         *
         * @param n the merge factor, 2 to 64
         * @return this builder
         */
        public Builder mergeFactor(int n) {
            if (n < 2 || n > 64) {
                throw new IllegalArgumentException("mergeFactor must be 2..64, got " + n);
            }
            mergeFactor = n;
            return this;
        }

        /**
         * Number of background bulk-loaders (1 to {@link org.bbflow.core.Parallelism#MAX}: each is a
         * thread, the bound every BBFlow worker count has).
         *
         * @param n the number of merge workers
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is not in {@code [1, Parallelism.MAX]}
         */
        public Builder mergeWorkers(int n) {
            mergeWorkers = org.bbflow.core.Parallelism.check("mergeWorkers", n);
            return this;
        }

        /**
         * Merge tickets that may wait before inserters are slowed down (1 to
         * {@link BkdTree#MAX_MERGE_BACKLOG}).
         *
         * @param n the backlog of merge tickets
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is outside that range
         */
        public Builder mergeBacklog(int n) {
            if (n < 1 || n > MAX_MERGE_BACKLOG) {
                throw new IllegalArgumentException("mergeBacklog must be 1 to " + MAX_MERGE_BACKLOG + ", got " + n);
            }
            mergeBacklog = n;
            return this;
        }

        /**
         * Once no tree was published for {@code idle}, the background merger merges all trees into
         * one (the index a streaming ingest leaves then queries as fast as one tree; a count or a
         * kNN search visits every tree). The merge rewrites every point once per idle period that
         * follows new inserts. {@link java.time.Duration#ZERO} turns it off; default 1 second. A duration
         * too long for a {@code long} of nanoseconds (about 292 years, e.g. {@code ChronoUnit.FOREVER})
         * means never too.
         * Ignored when merging is off.
         *
         * @param idle how long inserts must pause, zero for never
         * @return this builder
         */
        public Builder mergeWhenIdle(java.time.Duration idle) {
            if (idle == null || idle.isNegative()) {
                throw new IllegalArgumentException("mergeWhenIdle must be zero or positive, got " + idle);
            }
            long nanos;
            try {
                nanos = idle.toNanos();
            } catch (ArithmeticException beyondALong) {
                nanos = Long.MAX_VALUE;         // over 292 years: never (toNanos() threw "long overflow")
            }
            idleMergeNanos = nanos;
            return this;
        }

        /**
         * Whether trees are merged in the background (off: every published buffer stays a tree).
         *
         * @param on whether background merging is on
         * @return this builder
         */
        public Builder merging(boolean on) {
            merging = on;
            return this;
        }

        /**
         * Debug mode: reclaimed arrays are filled with a sentinel and readers check for it.
         *
         * @param on whether the debug mode is on
         * @return this builder
         */
        public Builder poisonReclaimed(boolean on) {
            poisonReclaimed = on;
            return this;
        }

        /** Tests: {@code 2^shift} points per page (default {@link Pages#shift}), so small trees span many pages. */
        Builder pageShift(int shift) {
            if (shift < 0 || shift > Pages.shift(1)) {
                throw new IllegalArgumentException("pageShift must be 0.." + Pages.shift(1) + ", got " + shift);
            }
            pageShift = shift;
            return this;
        }

        /**
         * Expected number of live tombstones, 1 to {@link BkdTree#MAX_EXPECTED_TOMBSTONES} (sizes
         * the Bloom filter, 16 bits per tombstone; it is rebuilt after purges). Default 65,536.
         *
         * @param n the expected number of tombstones
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is outside that range
         */
        public Builder expectedTombstones(int n) {
            if (n < 1 || n > MAX_EXPECTED_TOMBSTONES) {
                // Before, any int was taken, and 16 * n overflowed above 2^27: the filter got 2,048
                // bits, every tombstone lookup went to the map (ExpectedTombstonesTest)
                throw new IllegalArgumentException("expectedTombstones must be 1 to " + MAX_EXPECTED_TOMBSTONES
                        + " (the Bloom filter holds at most 2^28 bits, 16 per tombstone), got " + n);
            }
            expectedTombstones = n;
            return this;
        }

        /**
         * Keeps the index in {@code dir} (created if missing): {@code build()} locks the directory
         * ({@code write.lock}), verifies the checksums of the last commit's files and reopens it
         * (trees are read back through memory mappings into heap arrays); {@link BkdTree#commit()}
         * and {@link BkdTree#close()} write a new commit. After a crash, the next {@code build()}
         * gives exactly the last completed commit. Files of trees replaced by merges are deleted
         * once a newer commit no longer names them, never earlier.
         *
         * @param dir the index directory
         * @return this builder
         */
        public Builder directory(java.nio.file.Path dir) {
            if (dir == null) {
                throw new IllegalArgumentException("directory must not be null");
            }
            directory = dir;
            return this;
        }

        /**
         * Tests: makes the index's background threads (scheduler, merge workers, the merge flow's
         * nodes) with {@code factory} instead of {@code new Thread}, to make a thread start fail.
         */
        Builder threadFactory(java.util.concurrent.ThreadFactory factory) {
            threadFactory = factory;
            return this;
        }

        /** Runs merges on plain threads instead of a BBFlow flow (package-private: tests and fallback). */
        Builder plainThreadMerges(boolean on) {
            plainThreadMerges = on;
            return this;
        }

        /**
         * Creates the index (reopening its directory, if one was given) and starts its background threads.
         *
         * @return the new index
         * @throws IllegalArgumentException if the directory holds an index of another dimension count
         * @throws java.io.UncheckedIOException if the directory cannot be read; its cause is a
         *         {@link CorruptIndexException} (naming the file) if a file fails verification, an
         *         {@link IndexLockedException} if another open index holds the directory
         */
        public BkdTree build() {
            return new BkdTree(this);
        }
    }
}
