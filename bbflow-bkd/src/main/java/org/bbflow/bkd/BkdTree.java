package org.bbflow.bkd;

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
 * <p><b>Reads.</b> {@link #count}, {@link #query} and {@link #contains} take no lock: they pin the
 * current set of trees (published by read-copy-update) and announce it in a per-reader slot so the
 * reclaimer keeps those trees alive. A point is visible once its buffer is published: when the
 * buffer fills, on {@link #refresh()} by the inserting thread, or on {@link BkdWriter#flush()}.
 * {@link #snapshot()} gives a repeatable view.
 *
 * <p><b>Coordinates</b> compare like {@link Double#compare(double, double)}: {@code -0.0 < 0.0},
 * infinities are allowed, NaN is rejected. Internally they are stored as sortable longs.
 */
public final class BkdTree implements AutoCloseable {
    /** Largest supported number of dimensions. */
    public static final int MAX_DIMS = 8;

    final int dims;
    final int leafSize;
    final int bufferSize;
    final int mergeFactor;
    final boolean poisonCheck;
    final AtomicLong sequence = new AtomicLong();
    final ArrayPool pool;
    final Tombstones tombstones;
    final Reclaimer reclaimer;
    final AtomicLong merges = new AtomicLong();
    private final AtomicReference<Forest> forest = new AtomicReference<>(Forest.EMPTY);
    private final CopyOnWriteArrayList<InsertBuffer> buffers = new CopyOnWriteArrayList<>();
    private final ThreadLocal<InsertBuffer> localBuffer;
    private final ThreadLocal<ReaderSlot> localSlot;
    final Merger merger;
    private final MergeStage mergeStage;
    private volatile boolean closed;
    private final java.nio.file.Path directory;
    private final AtomicLong fileNumbers = new AtomicLong();

    private BkdTree(Builder b) {
        this.dims = b.dims;
        this.leafSize = b.leafSize;
        this.bufferSize = b.bufferSize;
        this.mergeFactor = b.mergeFactor;
        this.poisonCheck = b.poisonReclaimed;
        this.pool = new ArrayPool(8, 256L << 20, b.poisonReclaimed);
        this.tombstones = new Tombstones(dims, b.expectedTombstones);
        this.reclaimer = new Reclaimer(pool, 2_000_000L);
        this.localBuffer = ThreadLocal.withInitial(
                () -> register(new InsertBuffer(this, dims, bufferSize, leafSize, Thread.currentThread())));
        this.localSlot = ThreadLocal.withInitial(() -> reclaimer.register(Thread.currentThread()));
        this.reclaimer.housekeeping(this::publishBuffersOfTerminatedThreads);
        this.merger = new Merger(this);
        this.directory = b.directory;
        if (directory != null) {
            reopen();
        }
        this.mergeStage = b.merging
                ? MergeStages.create(merger, b.mergeWorkers, b.mergeBacklog, "bkd", b.plainThreadMerges)
                : null;
        reclaimer.start("bkd-reclaimer");
        if (mergeStage != null) {
            mergeStage.start();
            if (forest.get().trees.length > 0) {
                mergeStage.offer();     // reopened trees may already be due for a merge
            }
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
        localBuffer.get().insert(point, id);
    }

    /** Publishes the calling thread's buffered inserts now (read-your-writes for this thread). */
    public void refresh() {
        checkOpen();
        localBuffer.get().flush();
    }

    /** Same as {@link #refresh()}. */
    public void flush() {
        refresh();
    }

    /**
     * Opens a writer handle with its own private buffer (close it to flush and release it).
     *
     * @return a new writer
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
     * @throws IllegalStateException after {@link #close()}
     */
    public void delete(double[] point, long id) {
        checkOpen();
        long[] key = new long[dims];
        Coordinates.encodePoint(point, dims, key, 0);
        tombstones.add(key, id, sequence);
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
        ReaderSlot slot = localSlot.get();
        Forest f = enter(slot);
        try {
            return lookup(f, point, id, Long.MAX_VALUE);
        } finally {
            leave(slot);
        }
    }

    /**
     * Opens a repeatable point-in-time view; close it to let its trees be reclaimed.
     *
     * @return the snapshot
     */
    public Snapshot snapshot() {
        checkOpen();
        return new Snapshot(this);
    }

    private long readLocal(Box box, PointVisitor visitor) {
        checkOpen();
        ReaderSlot slot = localSlot.get();
        Forest f = enter(slot);
        try {
            return run(f, box, visitor, Long.MAX_VALUE);
        } finally {
            leave(slot);
        }
    }

    private Forest enter(ReaderSlot slot) {
        if (slot.depth++ == 0) {
            slot.pinned = pin(slot);
        }
        return slot.pinned;
    }

    private void leave(ReaderSlot slot) {
        if (--slot.depth == 0) {
            slot.pinned = null;
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
        QueryContext q = new QueryContext(box.min, box.max, visitor, dims, tombstones, limit, poisonCheck);
        for (KdTree t : f.trees) {
            t.query(q);
        }
        return q.count;
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
     * @throws IllegalStateException if a background merge failed (its exception is the cause)
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public void awaitMerges() throws InterruptedException {
        checkOpen();
        if (mergeStage == null) {
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
     * calling thread, dropping dead points, then purges tombstones that can no longer match. After
     * {@link #awaitMerges()} this leaves a single tree.
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
        merger.run(claimed.toArray(new KdTree[0]));
    }

    /**
     * Current statistics.
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
        return new BkdStats(List.copyOf(levels), f.trees.length, f.points(), tombstones.size(),
                merges.get(), reclaimer.retiredTrees.get(), reclaimer.reclaimedTrees.get(),
                mergeStage == null ? 0 : mergeStage.backlog(),
                mergeStage == null ? "none" : mergeStage.kind());
    }

    /**
     * Stops the background threads, drops all trees and buffers and releases the pooled arrays.
     * Buffered points of other threads that were never published are discarded. Trees still seen
     * by open snapshots are left to the garbage collector; using the index or its snapshots and
     * writers afterwards throws {@link IllegalStateException}. Idempotent. With a
     * {@linkplain Builder#directory directory}, first writes every published tree, the tombstones
     * and the sequence number there (a checkpoint that the next {@code build()} reopens).
     *
     * @throws java.io.UncheckedIOException if the checkpoint cannot be written (everything is released anyway)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (mergeStage != null) {
            mergeStage.close();
        }
        Forest f;
        Forest empty;
        do {
            f = forest.get();
            empty = new Forest(f.version + 1, new KdTree[0]);
        } while (!forest.compareAndSet(f, empty));
        java.io.IOException persistFailure = null;
        if (directory != null) {
            try {
                TreeFiles.checkpoint(directory, dims, sequence.get(), f.trees, tombstones.entries(),
                        fileNumbers::incrementAndGet);
            } catch (java.io.IOException e) {
                persistFailure = e;
            }
            for (KdTree t : f.trees) {
                t.file = null;   // the files now belong to the manifest, not to the tree objects
            }
        }
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
        pool.clear();
        if (persistFailure != null) {
            throw new java.io.UncheckedIOException("cannot write index directory " + directory, persistFailure);
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

    private void reopen() {
        try {
            java.nio.file.Files.createDirectories(directory);
            fileNumbers.set(TreeFiles.maxFileNumber(directory));
            TreeFiles.Contents c = TreeFiles.open(directory, dims, pool);
            if (c == null) {
                return;
            }
            sequence.set(c.sequence());
            for (Tombstones.Entry e : c.tombstones()) {
                tombstones.restore(e.key(), e.seq());
            }
            for (KdTree t : c.trees()) {
                publish(t);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot open index directory " + directory, e);
        }
    }

    private void checkMerges() {
        Throwable t = mergeStage.failure();
        if (t != null) {
            throw new IllegalStateException("a background merge failed: " + t, t);
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

    int levelOf(int n) {
        int level = 0;
        long cap = bufferSize;
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

    long minBufferedSeq() {
        long min = Long.MAX_VALUE;
        for (InsertBuffer b : buffers) {
            min = Math.min(min, b.minSeq);
        }
        return min;
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

    /** Adds a freshly built tree to the forest (RCU). */
    void publish(KdTree tree) {
        for (;;) {
            Forest cur = forest.get();
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
        for (InsertBuffer b : buffers) {
            if (b.thread != null && !b.thread.isAlive() && !closed) {
                try {
                    b.flush(false);     // still registered meanwhile: its minSeq guards the tombstone purge
                } finally {
                    buffers.remove(b);
                    b.release();
                }
            }
        }
    }

    /** Replaces merged inputs by their output (RCU) and retires the inputs. */
    void install(KdTree[] inputs, KdTree output) {
        Forest next;
        for (;;) {
            Forest cur = forest.get();
            next = cur.replace(inputs, output);
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
        private int expectedTombstones = 1 << 16;
        private boolean plainThreadMerges;
        private java.nio.file.Path directory;

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
         * How many trees of one level are merged into one tree of the next level (at least 2).
         *
         * @param n the merge factor
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
         * Number of background bulk-loaders (at least 1).
         *
         * @param n the number of merge workers
         * @return this builder
         */
        public Builder mergeWorkers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("mergeWorkers must be at least 1, got " + n);
            }
            mergeWorkers = n;
            return this;
        }

        /**
         * Merge tickets that may wait before inserters are slowed down (at least 1).
         *
         * @param n the backlog of merge tickets
         * @return this builder
         */
        public Builder mergeBacklog(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("mergeBacklog must be at least 1, got " + n);
            }
            mergeBacklog = n;
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

        /**
         * Expected number of live tombstones (sizes the Bloom filter; it is rebuilt after purges).
         *
         * @param n the expected number of tombstones
         * @return this builder
         */
        public Builder expectedTombstones(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("expectedTombstones must be at least 1, got " + n);
            }
            expectedTombstones = n;
            return this;
        }

        /**
         * Keeps the index in {@code dir}: {@code build()} reopens what the last {@link BkdTree#close()}
         * wrote there (trees are read back through memory mappings), and {@code close()} writes a new
         * checkpoint. Files of trees replaced by merges are deleted when the tree is reclaimed, that
         * is after the last reader that could see it has left. There is no crash recovery: only a
         * clean close writes a checkpoint.
         *
         * @param dir the directory to keep the index in
         * @return this builder
         */
        public Builder directory(java.nio.file.Path dir) {
            if (dir == null) {
                throw new IllegalArgumentException("directory must not be null");
            }
            directory = dir;
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
         * @return the index
         * @throws IllegalArgumentException if the directory holds an index of another dimension count
         * @throws java.io.UncheckedIOException if the directory cannot be read
         */
        public BkdTree build() {
            return new BkdTree(this);
        }
    }
}
