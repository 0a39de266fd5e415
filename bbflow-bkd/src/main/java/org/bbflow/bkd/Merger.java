package org.bbflow.bkd;

import java.util.ArrayList;
import java.util.List;

/**
 * The merge logic run by the background bulk-loaders: claim trees of one level, bulk-load their
 * live points into one tree (dropping points hidden by tombstones), swap the forest, retire the
 * inputs, and purge tombstones that can no longer match anything.
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
            if (job == null) {
                return null;
            }
            if (claimAll(job)) {
                return job;
            }
        }
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
        ArrayPool pool = owner.pool;
        long[] c = pool.take(n * dims);
        long[] ids = pool.take(n);
        long[] seqs = pool.take(n);
        int k = 0;
        for (KdTree t : inputs) {
            System.arraycopy(t.coords, 0, c, k * dims, t.size * dims);
            System.arraycopy(t.ids, 0, ids, k, t.size);
            System.arraycopy(t.seqs, 0, seqs, k, t.size);
            k += t.size;
        }
        int live = owner.dropDead(c, ids, seqs, n);
        if (live == 0) {
            pool.give(c);
            pool.give(ids);
            pool.give(seqs);
            return null;
        }
        if (live < n) {                     // trees keep exact-size arrays
            long[] c2 = java.util.Arrays.copyOf(c, live * dims);
            long[] ids2 = java.util.Arrays.copyOf(ids, live);
            long[] seqs2 = java.util.Arrays.copyOf(seqs, live);
            pool.give(c);
            pool.give(ids);
            pool.give(seqs);
            c = c2;
            ids = ids2;
            seqs = seqs2;
        }
        owner.mergedPoints.addAndGet(live);
        return new BulkLoader(dims, owner.leafSize).build(c, ids, seqs, live, owner.levelOf(live));
    }

    /** Merges a claimed job and installs the result. */
    void run(KdTree[] job) {
        KdTree out;
        try {
            out = merge(job);
        } catch (RuntimeException | Error e) {
            for (KdTree t : job) {
                t.claimed.set(false);
            }
            throw e;
        }
        install(job, out);
    }

    /** Swaps a merged tree into the forest, retires its inputs and purges dead tombstones. */
    void install(KdTree[] job, KdTree out) {
        owner.install(job, out);
        owner.merges.incrementAndGet();
        purgeTombstones();
    }

    /**
     * Schedules removal of tombstones that can no longer hide anything: no buffer holds an older
     * point and no tree of the current forest holds a matching older point. The removal itself
     * waits (in the reclaimer) until readers of older forests, which may still see the dead
     * points, have left.
     */
    void purgeTombstones() {
        Tombstones tombs = owner.tombstones;
        if (tombs.isEmpty() || owner.reclaimer.pendingActions.get() > 0) {
            return;
        }
        // The tombstones first: a delete recorded after this read is not purged by this pass, so a
        // point inserted before it that moves from a buffer into a tree meanwhile keeps its tombstone.
        List<Tombstones.Entry> entries = tombs.entries();
        long minBuffered = owner.minBufferedSeq();
        Forest f = owner.forest();
        Runnable hook = afterPurgeReads;
        if (hook != null) {
            hook.run();
        }
        List<Tombstones.Entry> drop = new ArrayList<>();
        for (Tombstones.Entry e : entries) {
            if (e.seq() >= minBuffered) {
                continue;
            }
            boolean matches = false;
            for (KdTree t : f.trees) {
                if (t.holdsOlder(e.key().coords, e.key().id, e.seq())) {
                    matches = true;
                    break;
                }
            }
            if (!matches) {
                drop.add(e);
            }
        }
        if (!drop.isEmpty()) {
            owner.reclaimer.retire(f.version, () -> {
                for (Tombstones.Entry e : drop) {
                    tombs.remove(e.key(), e.seq());
                }
                tombs.rebuildBloom();
            });
        }
    }
}
