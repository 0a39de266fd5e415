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

        Retired(long birth, long death, KdTree tree, Runnable action) {
            this.birth = birth;
            this.death = death;
            this.tree = tree;
            this.action = action;
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
    /** First exception of a reclamation (e.g. a tree file that could not be deleted), or null. */
    final java.util.concurrent.atomic.AtomicReference<RuntimeException> failure =
            new java.util.concurrent.atomic.AtomicReference<>();

    Reclaimer(boolean poison, long parkNanos) {
        this.poison = poison;
        this.parkNanos = parkNanos;
    }

    void start(String name) {
        Thread t = new Thread(this, name);
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
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }
            reclaimNow();
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
            if (visibleToSomeReader(active, r.birth, r.death)) {
                keep.add(r);
            } else if (r.tree != null) {
                try {
                    r.tree.reclaim(poison);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
                reclaimedTrees.incrementAndGet();
            } else {
                try {
                    r.action.run();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                } finally {
                    pendingActions.decrementAndGet();
                }
            }
        }
        waiting.clear();
        waiting.addAll(keep);
        return waiting.size();
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
