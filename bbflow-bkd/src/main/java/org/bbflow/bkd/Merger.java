package org.bbflow.bkd;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The merge logic run by the background bulk-loaders: claim trees of one level, bulk-load their
 * live points into one tree (dropping points hidden by tombstones), swap the forest, retire the
 * inputs, and purge tombstones that can no longer match anything. The policy is size-tiered, as
 * Lucene's {@code TieredMergePolicy}: at most {@code mergeFactor - 1} trees per tier, so the number
 * of trees grows like the logarithm of the points; once inserts pause (the index's idle-merge
 * time), every tree is merged into one, so an index left by a streaming ingest answers as one tree.
 */
final class Merger {
    private final BkdTree owner;
    /** Test hook run before every merge (null in production). */
    volatile Runnable beforeMerge;
    /** Test hook run by the purge after it read the buffers and the forest (null in production). */
    volatile Runnable afterPurgeReads;

    Merger(BkdTree owner) {
        this.owner = owner;
    }

    /**
     * Claims {@code mergeFactor} unclaimed trees of the lowest size tier that has that many, or
     * returns null (a size-tiered policy: only trees of similar size are merged).
     */
    KdTree[] claim() {
        int factor = owner.mergeFactor;
        for (;;) {
            KdTree[] trees = owner.forest().trees;
            int maxLevel = 0;
            for (KdTree t : trees) {
                maxLevel = Math.max(maxLevel, t.level);
            }
            KdTree[] job = null;
            for (int level = 0; level <= maxLevel && job == null; level++) {
                List<KdTree> candidates = new ArrayList<>();
                for (KdTree t : trees) {
                    if (t.level == level && !t.claimed.get()) {
                        candidates.add(t);
                        if (candidates.size() == factor) {
                            job = candidates.toArray(new KdTree[0]);
                            break;
                        }
                    }
                }
            }
            long publishedAt = owner.lastPublish;
            boolean idle = false;
            if (job == null && idleMergeDue()) {
                idle = true;
                List<KdTree> all = new ArrayList<>();
                for (KdTree t : trees) {
                    if (!t.claimed.get()) {
                        all.add(t);
                    }
                }
                job = all.size() >= 2 ? all.toArray(new KdTree[0]) : null;
            }
            if (job == null) {
                return null;
            }
            if (claimAll(job)) {
                if (idle) {
                    idleJob = job;
                    idleJobPublishedAt = publishedAt;
                }
                return job;
            }
        }
    }

    /** The last idle merge claimed, and {@link BkdTree#lastPublish} when it was claimed. */
    private volatile KdTree[] idleJob;
    private volatile long idleJobPublishedAt;
    /**
     * {@link BkdTree#lastPublish} of the trees an idle merge failed on, or 0 (none): the idle merge
     * is not tried again until a tree is published.
     */
    private volatile long idleFailedAt;

    /**
     * Told by the merge stages that merging {@code job} failed (its trees are unclaimed again). A
     * failed idle merge waits for the next published tree: the scheduler thread would otherwise
     * offer it again on its next pass, 2 ms later, and an idle merge that fails for good (an
     * OutOfMemoryError: it gathers every point of the index, the largest merge there is) ran and
     * failed in a loop, for ever, each time allocating the whole index again (IdleMergeFailureTest).
     * A size-tier merge is retried on the next ticket as before (a publish or awaitMerges()).
     */
    void failed(KdTree[] job) {
        if (job == idleJob) {
            idleFailedAt = idleJobPublishedAt;
        }
    }

    /**
     * Whether inserts paused for the index's idle-merge time while two or more unclaimed trees
     * are left: then {@link #claim} takes them all (a background force-merge).
     */
    boolean idleMergeDue() {
        long idle = owner.idleMergeNanos;
        long published = owner.lastPublish;
        if (idle <= 0 || System.nanoTime() - published < idle || published == idleFailedAt) {
            return false;
        }
        int unclaimed = 0;
        for (KdTree t : owner.forest().trees) {
            if (!t.claimed.get() && ++unclaimed >= 2) {
                return true;
            }
        }
        return false;
    }

    static boolean claimAll(KdTree[] job) {
        for (int i = 0; i < job.length; i++) {
            if (!job[i].claimed.compareAndSet(false, true)) {
                for (int j = 0; j < i; j++) {
                    job[j].claimed.set(false);
                }
                return false;
            }
        }
        return true;
    }

    /** Whether some level has enough unclaimed trees for a merge. */
    boolean hasWork() {
        KdTree[] trees = owner.forest().trees;
        int[] perLevel = new int[64];
        for (KdTree t : trees) {
            if (!t.claimed.get() && ++perLevel[Math.min(63, t.level)] >= owner.mergeFactor) {
                return true;
            }
        }
        return false;
    }

    /** Bulk-loads the live points of {@code inputs} into one tree (null if none survive). */
    KdTree merge(KdTree[] inputs) {
        Runnable hook = beforeMerge;
        if (hook != null) {
            hook.run();
        }
        int dims = owner.dims;
        long total = 0;
        for (KdTree t : inputs) {
            total += t.size;
        }
        if (total > Integer.MAX_VALUE / Math.max(1, dims)) {
            throw new IllegalStateException("merged tree would exceed the array limit: " + total + " points");
        }
        int n = (int) total;
        // gathered flat, bulk-loaded in place, then copied into the new tree's pages; these
        // scratch arrays die with the merge (nothing pools them)
        long[] c = new long[n * dims];
        long[] ids = new long[n];
        long[] seqs = new long[n];
        int k = 0;
        for (KdTree t : inputs) {
            Pages.copyTo(t.coords, c, k * dims);
            t.ids.copyTo(ids, k);
            t.seqs.copyTo(seqs, k);
            k += t.size;
        }
        long bound = owner.filterBound();
        int live = owner.dropDead(c, ids, seqs, n);
        if (live == 0) {
            return null;
        }
        KdTree out = new BulkLoader(dims, owner.leafSize, owner.pageShift).build(c, ids, seqs, live, owner.levelOf(live));
        out.filteredUpTo = bound;
        return out;
    }

    /** Merges a claimed job and installs the result; {@code purge}: purge tombstones in any case. */
    void run(KdTree[] job, boolean purge) {
        KdTree out;
        try {
            out = merge(job);
        } catch (RuntimeException | Error e) {
            for (KdTree t : job) {
                t.claimed.set(false);
            }
            failed(job);
            throw e;
        }
        install(job, out, purge);
    }

    /** Merges a claimed job and installs the result. */
    void run(KdTree[] job) {
        run(job, false);
    }

    /** Swaps a merged tree into the forest, retires its inputs and purges dead tombstones. */
    void install(KdTree[] job, KdTree out) {
        install(job, out, false);
    }

    private void install(KdTree[] job, KdTree out, boolean purge) {
        owner.install(job, out);
        // counted once installed: a merge that failed or was dropped by close() wrote nothing
        if (out != null) {
            owner.mergedPoints.addAndGet(out.size);
        }
        owner.merges.incrementAndGet();
        if (purge || purgeDue(job)) {
            purgeTombstones();
        }
    }

    /** Tombstones that matched an older point of a tree at the last purge, by tree (under the lock). */
    private Map<Tombstones.Entry, KdTree> blockers = new HashMap<>();
    /** The trees in {@link #blockers}' values (identity). */
    private volatile Set<KdTree> blockerTrees = Collections.emptySet();
    /** Tombstones left by the last purge. */
    private volatile long keptByLastPurge;
    /**
     * Tombstones a purge dropped whose removal still waits for readers ({@link
     * Reclaimer#retireTombstones}): later purges skip them. Before, a purge did nothing at all while
     * a removal was pending, so a snapshot left open stalled every purge.
     */
    private final Set<Tombstones.Entry> pendingRemoval = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Tree searches done by purges (tests: the purge must not cost tombstones x trees each time). */
    final AtomicLong treeChecks = new AtomicLong();

    /**
     * Whether a purge is worth it after installing {@code job}: enough new tombstones since the
     * last purge, or a tree that held a point some tombstone still hides was just merged away.
     */
    private boolean purgeDue(KdTree[] job) {
        long live = owner.tombstones.size();
        if (live == 0) {
            return false;
        }
        long kept = keptByLastPurge;
        if (live - kept >= Math.max(64, kept / 4)) {
            return true;
        }
        Set<KdTree> b = blockerTrees;
        for (KdTree t : job) {
            if (b.contains(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Schedules removal of tombstones that can no longer hide anything: no buffer and no tree of the
     * current forest holds a matching older point. The removal itself waits (in the reclaimer) until
     * readers of older forests, which may still see the dead points, have left.
     *
     * <p>Order matters: the tombstones are read first, then every buffer, then the forest. A point
     * inserted before a tombstone read here is then either announced in a buffer read afterwards,
     * or was published before that buffer read and so is in the forest read last (a flush that
     * overlaps the buffer read is detected by the buffer's generation). Cost: one Bloom probe per
     * buffered point of buffers older than some tombstone, and per tombstone a search only in the
     * trees that were built before it (a tree built by a pass that already applied it holds no
     * match); a tombstone found to match a tree is not searched again while that tree lives.
     */
    synchronized void purgeTombstones() {
        try {
            purge();
        } finally {
            purgeSlot.version = ReaderSlot.IDLE;
        }
    }

    /**
     * Reader slot of the purge: the forest it reads is pinned like a reader's, so a concurrent merge
     * cannot have the reclaimer poison the arrays of a tree the purge still
     * searches; an unpinned purge would find no match there and drop a tombstone that still hides
     * a point of the merged tree.
     */
    private ReaderSlot purgeSlot;

    private void purge() {
        if (purgeSlot == null) {
            purgeSlot = owner.reclaimer.register(null);
        }
        Tombstones tombs = owner.tombstones;
        if (tombs.isEmpty()) {
            blockers = new HashMap<>();
            blockerTrees = Collections.emptySet();
            keptByLastPurge = 0;
            return;
        }
        // Only tombstones of completed deletes: one still being recorded may not be in the Bloom
        // filter yet, and the buffer scan below looks tombstones up through it.
        long complete = owner.filterBound();
        List<Tombstones.Entry> entries = tombs.entries();
        long newest = Long.MIN_VALUE;
        for (Tombstones.Entry e : entries) {
            if (e.seq() <= complete) {
                newest = Math.max(newest, e.seq());
            }
        }
        // buffers: key -> smallest sequence of a buffered point with that key that some tombstone hides
        Map<Tombstones.Key, Long> buffered = new HashMap<>();
        long blockAbove = Long.MAX_VALUE;       // tombstones above this are kept (unreadable buffer)
        Tombstones.Probe probe = tombs.newProbe();
        int dims = owner.dims;
        for (InsertBuffer b : owner.buffers()) {
            long minSeq = b.minSeq;
            if (minSeq >= newest) {
                continue;                       // only points newer than every tombstone read here
            }
            int g1 = b.generation;
            int n = b.visible;
            long[] c = b.coords;
            long[] ids = b.ids;
            long[] seqs = b.seqs;
            boolean consistent = (g1 & 1) == 0;
            if (consistent && n > 0 && c != null && ids != null && seqs != null
                    && n <= ids.length && n <= seqs.length && n * dims <= c.length) {
                for (int i = 0; i < n; i++) {
                    long seq = seqs[i];
                    if (tombs.hides(c, i * dims, ids[i], seq, Long.MAX_VALUE, probe)) {
                        long[] key = java.util.Arrays.copyOfRange(c, i * dims, i * dims + dims);
                        buffered.merge(new Tombstones.Key(key, ids[i], Coordinates.hash(key, 0, dims, ids[i])),
                                seq, Math::min);
                    }
                }
            } else if (n > 0) {
                consistent = false;
            }
            VarHandle.acquireFence();
            if (!consistent || b.generation != g1) {
                blockAbove = Math.min(blockAbove, minSeq);
            }
        }
        Forest f = owner.pin(purgeSlot);
        Runnable hook = afterPurgeReads;
        if (hook != null) {
            hook.run();
        }
        Set<KdTree> inForest = Collections.newSetFromMap(new IdentityHashMap<>());
        Collections.addAll(inForest, f.trees);
        Map<Tombstones.Entry, KdTree> nextBlockers = new HashMap<>();
        List<Tombstones.Entry> drop = new ArrayList<>();
        long checks = 0;
        for (Tombstones.Entry e : entries) {
            long seq = e.seq();
            if (seq > blockAbove || seq > complete || pendingRemoval.contains(e)) {
                continue;                       // pending: an earlier purge dropped it, its removal waits for readers
            }
            Long older = buffered.get(e.key());
            if (older != null && older < seq) {
                continue;
            }
            KdTree blocker = blockers.get(e);
            if (blocker != null && inForest.contains(blocker)) {
                nextBlockers.put(e, blocker);
                continue;
            }
            blocker = null;
            for (KdTree t : f.trees) {
                if (t.minSeq >= seq || t.filteredUpTo >= seq) {
                    continue;
                }
                checks++;
                if (t.holdsOlder(e.key().coords, e.key().id, seq)) {
                    blocker = t;
                    break;
                }
            }
            if (blocker != null) {
                nextBlockers.put(e, blocker);
            } else {
                drop.add(e);
            }
        }
        treeChecks.addAndGet(checks);
        blockers = nextBlockers;
        Set<KdTree> bt = Collections.newSetFromMap(new IdentityHashMap<>());
        bt.addAll(nextBlockers.values());
        blockerTrees = bt;
        keptByLastPurge = entries.size() - drop.size();
        if (!drop.isEmpty()) {
            pendingRemoval.addAll(drop);
            owner.reclaimer.retireTombstones(f.version, drop, part -> {
                try {
                    tombs.removeAll(part);
                } finally {
                    pendingRemoval.removeAll(part);
                }
            });
        }
    }
}
