package org.bbflow.bkd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Epoch-based reclamation. Readers announce the forest version they pinned in a {@link ReaderSlot};
 * retired items (replaced trees, purged tombstones) carry the range of forest versions
 * {@code [birth, death)} in which they were visible and are reclaimed by the scheduler thread
 * only when no announced version falls in that range. So a stuck reader (an open snapshot) delays
 * only what its own forest version can see.
 */
final class Reclaimer implements Runnable {
    /** Something that becomes free once no reader announces a version in {@code [birth, death)}. */
    static final class Retired {
        final long birth;
        final long death;
        final KdTree tree;
        final Runnable action;
        /** Purged tombstones to remove, by {@link #removal} (with {@code tree} and {@code action} null). */
        final List<Tombstones.Entry> entries;
        final java.util.function.Consumer<List<Tombstones.Entry>> removal;

        Retired(long birth, long death, KdTree tree, Runnable action) {
            this(birth, death, tree, action, null, null);
        }

        Retired(long birth, long death, KdTree tree, Runnable action, List<Tombstones.Entry> entries,
                java.util.function.Consumer<List<Tombstones.Entry>> removal) {
            this.birth = birth;
            this.death = death;
            this.tree = tree;
            this.action = action;
            this.entries = entries;
            this.removal = removal;
        }
    }

    private final CopyOnWriteArrayList<ReaderSlot> slots = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Retired> incoming = new ConcurrentLinkedQueue<>();
    private final List<Retired> waiting = new ArrayList<>();
    /** Fill reclaimed trees with a sentinel (a debug mode of the tests). */
    private final boolean poison;
    private final long parkNanos;
    private volatile boolean running = true;
    private volatile Runnable housekeeping;
    private volatile Thread thread;
    final AtomicLong retiredTrees = new AtomicLong();
    final AtomicLong reclaimedTrees = new AtomicLong();
    final AtomicLong pendingActions = new AtomicLong();
    /** Passes of the scheduler thread so far (tests wait for some to pass). */
    final AtomicLong passes = new AtomicLong();
    /**
     * Failures of the scheduler thread's work not reported yet: its housekeeping (publishing the
     * buffers of terminated threads, queueing the idle merge) and the reclamation of retired items
     * (running a tombstone purge's removal). Reclamation deletes no file (only commits do), so
     * nothing here can lose a committed point; a terminated thread's buffer whose publication
     * failed is kept and published by a later pass.
     *
     * <p>How a user learns of them (the decision, see docs/bkd.md): (1) the thread survives any
     * failure, an {@code Error} too: before, an {@code OutOfMemoryError} while it bulk-loaded a
     * terminated thread's buffer ended it silently, and with it every later reclamation, idle merge,
     * tombstone purge and terminated thread's publication, so the heap grew without bound
     * (ReclaimerFailureTest); (2) the next {@link BkdTree#awaitMerges()} throws them once, as it
     * reports failed merges: it is the call that waits for the background work; (3) the first
     * failure since the last report is logged ({@link System.Logger}, WARNING, logger
     * {@code org.bbflow.bkd}), for applications that never call awaitMerges, and only the first so
     * that a failure repeating every pass cannot flood the log. Commits and close() do not throw
     * them: a failure here leaves the index whole (as a failed merge does), and refusing safe
     * commits would turn a memory hiccup into lost writes.
     */
    final MergeFailures failures = new MergeFailures("the Bkd-tree's scheduler thread failed", "failure(s)",
            "nothing was lost: a terminated thread's points whose publication failed stay buffered and are"
                    + " published by a later pass; what could not be reclaimed is left to a later purge or the"
                    + " garbage collector");
    private static final System.Logger LOG = System.getLogger("org.bbflow.bkd");

    Reclaimer(boolean poison, long parkNanos) {
        this.poison = poison;
        this.parkNanos = parkNanos;
    }

    /** Starts the scheduler thread, made by {@code factory} if not null (tests). */
    void start(String name, java.util.concurrent.ThreadFactory factory) {
        Thread t = factory == null ? new Thread(this, name) : factory.newThread(this);
        if (t == null) {
            throw new IllegalStateException("the thread factory returned null for " + name);
        }
        t.setName(name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Registers a reader slot; {@code thread} (null for snapshots) lets the slot be dropped when it terminates. */
    ReaderSlot register(Thread thread) {
        ReaderSlot s = new ReaderSlot(thread);
        slots.add(s);
        return s;
    }

    /** A task run on every pass of the scheduler thread (before reclaiming). */
    void housekeeping(Runnable task) {
        this.housekeeping = task;
    }

    void unregister(ReaderSlot s) {
        s.version = ReaderSlot.IDLE;
        slots.remove(s);
        wake();
    }

    void retire(KdTree tree) {
        retiredTrees.incrementAndGet();
        incoming.add(new Retired(tree.birth, tree.death, tree, null));
        wake();
    }

    /** Runs {@code action} once no reader announces a version below {@code death}. */
    void retire(long death, Runnable action) {
        pendingActions.incrementAndGet();
        incoming.add(new Retired(0, death, null, action));
        wake();
    }

    /**
     * Removes purged tombstones ({@code removal} is given the ones it may remove, maybe in several
     * parts) once no reader of a forest older than {@code death} can use them. A reader that uses
     * every tombstone (a query, a commit, a purge) holds them all back until it leaves; a snapshot
     * only those numbered up to its limit, the deletes completed before it opened: the others it
     * ignores. Before, any open snapshot held back every removal, and every purge after it
     * (SnapshotPurgeTest).
     */
    void retireTombstones(long death, List<Tombstones.Entry> drop,
            java.util.function.Consumer<List<Tombstones.Entry>> removal) {
        pendingActions.incrementAndGet();
        incoming.add(new Retired(0, death, null, null, drop, removal));
        wake();
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        while (running) {
            Runnable h = housekeeping;
            if (h != null) {
                try {
                    h.run();
                } catch (Throwable e) {     // an Error too: this thread must not end (see failures)
                    fail(e);
                }
            }
            try {
                reclaimNow();
            } catch (Throwable e) {         // reclaimNow records its items' failures; this is anything else
                fail(e);
            }
            passes.incrementAndGet();
            LockSupport.parkNanos(this, parkNanos);
        }
    }

    /** One reclamation pass; returns how many items are still waiting for readers. */
    synchronized int reclaimNow() {
        for (Retired r; (r = incoming.poll()) != null; ) {
            waiting.add(r);
        }
        if (waiting.isEmpty()) {
            return 0;
        }
        long[] active = activeVersions();
        List<Retired> keep = new ArrayList<>();
        for (Retired r : waiting) {
            if (r.entries != null) {
                Retired rest = removeTombstones(r);
                if (rest != null) {
                    keep.add(rest);
                }
                continue;
            }
            if (visibleToSomeReader(active, r.birth, r.death)) {
                keep.add(r);
            } else if (r.tree != null) {
                try {
                    r.tree.reclaim(poison);
                } catch (Throwable e) {
                    fail(e);
                }
                reclaimedTrees.incrementAndGet();
            } else {
                // Done even if it fails: it is not run again (tombstone removals, which are not actions,
                // leave what they did not remove to a later purge; see removeTombstones)
                try {
                    r.action.run();
                } catch (Throwable e) {
                    fail(e);
                } finally {
                    pendingActions.decrementAndGet();
                }
            }
        }
        waiting.clear();
        waiting.addAll(keep);
        return waiting.size();
    }

    /**
     * Removes the tombstones of {@code r} that no reader of an older forest can use; returns what
     * is left to wait (null if nothing).
     */
    private Retired removeTombstones(Retired r) {
        long maxLimit = Long.MIN_VALUE;         // the largest limit of a snapshot of an older forest
        for (ReaderSlot s : slots) {
            long v = s.version;                 // read before the limit: a snapshot sets its limit after pinning
            if (v == ReaderSlot.IDLE || v >= r.death) {
                continue;
            }
            long limit = s.limit;
            if (limit == Long.MAX_VALUE) {
                return r;                       // a reader of an older forest that uses every tombstone
            }
            maxLimit = Math.max(maxLimit, limit);
        }
        List<Tombstones.Entry> now = r.entries;
        List<Tombstones.Entry> later = List.of();
        if (maxLimit != Long.MIN_VALUE) {
            now = new ArrayList<>();
            later = new ArrayList<>();
            for (Tombstones.Entry e : r.entries) {
                (e.seq() > maxLimit ? now : later).add(e);
            }
        }
        if (!now.isEmpty()) {
            try {
                r.removal.accept(now);
            } catch (Throwable e) {             // the tombstones stay; a later purge finds them again
                fail(e);
            }
        }
        if (later.isEmpty()) {
            pendingActions.decrementAndGet();
            return null;
        }
        return now.isEmpty() ? r : new Retired(0, r.death, null, null, later, r.removal);
    }

    /** Records a failure of this thread's work; logs it if it is the first since the last report. */
    void fail(Throwable e) {
        if (failures.record(e)) {
            try {
                LOG.log(System.Logger.Level.WARNING, "the Bkd-tree's scheduler thread failed (the next"
                        + " awaitMerges() reports it; later failures are counted there, not logged)", e);
            } catch (Throwable logFailed) {
                // a logger that fails must not end this thread either
            }
        }
    }

    private long[] activeVersions() {
        long[] v = new long[slots.size() + 4];
        int n = 0;
        for (ReaderSlot s : slots) {
            if (s.thread != null && !s.thread.isAlive() && s.version == ReaderSlot.IDLE) {
                slots.remove(s);
                continue;
            }
            long x = s.version;
            if (x != ReaderSlot.IDLE) {
                if (n == v.length) {
                    v = Arrays.copyOf(v, n * 2);
                }
                v[n++] = x;
            }
        }
        v = Arrays.copyOf(v, n);
        Arrays.sort(v);
        return v;
    }

    private static boolean visibleToSomeReader(long[] active, long birth, long death) {
        int i = Arrays.binarySearch(active, birth);
        if (i >= 0) {
            return true;
        }
        int ins = -i - 1;
        return ins < active.length && active[ins] < death;
    }

    int waitingCount() {
        synchronized (this) {
            return waiting.size() + incoming.size();
        }
    }

    void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
