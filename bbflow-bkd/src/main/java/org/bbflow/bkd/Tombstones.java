package org.bbflow.bkd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Delete records. A tombstone {@code (point, id, seq)} hides exactly the points with equal
 * coordinates and id whose insert sequence is below {@code seq}. Sequence numbers form a clock that
 * only deletes advance ({@code incrementAndGet}); an insert stamps its point with the clock's current
 * value (a plain read, so inserters never contend on it). An insert that happened before a delete
 * therefore has a smaller stamp, and an insert after it an equal or larger one. Lookups go through a Bloom filter
 * first, then a concurrent map keyed by (point, id) holding the sorted tombstone sequences of that
 * key. Readers take no lock and allocate nothing per point (they reuse a {@link Probe}).
 */
final class Tombstones {
    private final int dims;
    private final ConcurrentHashMap<Key, long[]> map = new ConcurrentHashMap<>();
    private final AtomicLong live = new AtomicLong();
    private final CopyOnWriteArrayList<DeleteSlot> deleteSlots = new CopyOnWriteArrayList<>();
    private final ThreadLocal<DeleteSlot> deleteSlot = ThreadLocal.withInitial(() -> {
        DeleteSlot s = new DeleteSlot(Thread.currentThread());
        deleteSlots.add(s);
        return s;
    });
    /** Test hook run by a delete between recording its tombstone in the map and in the Bloom filter. */
    volatile Runnable afterMapPut;
    /** Bumped after every recorded tombstone and every purge (the point index's version). */
    private final AtomicLong changes = new AtomicLong();
    private volatile PointIndex pointIndex;
    private final java.util.concurrent.locks.ReentrantLock indexLock = new java.util.concurrent.locks.ReentrantLock();
    private long lastBuildAt;
    private long lastBuildNanos;
    /** Filter used by readers; only ever a superset of the live keys. */
    private volatile Bloom bloom;
    /** Filter being rebuilt; deleters add to it too while it is set. */
    private volatile Bloom rebuilding;

    Tombstones(int dims, int expected) {
        this.dims = dims;
        this.bloom = new Bloom(expected);
        this.pointIndex = new PointIndex(-1, dims, new ArrayList<>());
    }

    boolean isEmpty() {
        return live.get() == 0;
    }

    /** Estimated heap of the tombstones: map entries, keys, sequence arrays and the Bloom filter. */
    long bytes() {
        Bloom b = bloom;
        return 16L + 8L * b.words.length() + live.get() * (112L + 8L * dims);
    }

    long size() {
        return live.get();
    }

    /** Size of the readers' Bloom filter in bits (tests). */
    int bloomBits() {
        return bloom.bits();
    }

    /** Records a tombstone; returns its sequence number. */
    long add(long[] coords, long id, AtomicLong sequence) {
        DeleteSlot slot = deleteSlot.get();
        slot.pending = sequence.get() + 1;
        try {
            long seq = sequence.incrementAndGet();
            long h = Coordinates.hash(coords, 0, dims, id);
            Key key = new Key(coords.clone(), id, h);
            map.merge(key, new long[] {seq}, Tombstones::union);
            live.incrementAndGet();
            Runnable hook = afterMapPut;
            if (hook != null) {
                hook.run();
            }
            Bloom r = rebuilding;
            bloom.add(h);
            if (r != null) {
                r.add(h);
            }
            changes.incrementAndGet();
            return seq;
        } finally {
            slot.pending = Long.MAX_VALUE;
        }
    }

    /** Drops purged tombstones (run by the reclaimer once no reader can need them). */
    void removeAll(List<Entry> drop) {
        for (Entry e : drop) {
            remove(e.key(), e.seq());
        }
        rebuildBloom();
        changes.incrementAndGet();
    }

    /**
     * The locations of all tombstones recorded before this call (and maybe of some purged or newer
     * ones), or null if that index is stale and rebuilding it now would cost too much: rebuilds are
     * limited to a small share of the time (a query without the index checks every point instead).
     */
    PointIndex pointIndex() {
        long v = changes.get();
        PointIndex ix = pointIndex;
        if (ix.version == v) {
            return ix;
        }
        if (!indexLock.tryLock()) {
            return null;
        }
        try {
            ix = pointIndex;
            if (ix.version >= v) {
                return ix;
            }
            long start = System.nanoTime();
            if (start - lastBuildAt < 8 * lastBuildNanos) {
                return null;
            }
            long version = changes.get();
            List<long[]> points = new ArrayList<>();
            for (Key k : map.keySet()) {
                points.add(k.coords);
            }
            ix = new PointIndex(version, dims, points);
            pointIndex = ix;
            lastBuildAt = System.nanoTime();
            lastBuildNanos = lastBuildAt - start;
            return ix;
        } finally {
            indexLock.unlock();
        }
    }

    /** Tombstone locations sorted by the first coordinate, for "is any tombstone in this box". */
    static final class PointIndex {
        final long version;
        private final int dims;
        private final long[] points;
        private final int size;

        PointIndex(long version, int dims, List<long[]> pts) {
            this.version = version;
            this.dims = dims;
            pts.sort((a, b) -> Long.compare(a[0], b[0]));
            this.size = pts.size();
            this.points = new long[size * dims];
            for (int i = 0; i < size; i++) {
                System.arraycopy(pts.get(i), 0, points, i * dims, dims);
            }
        }

        /** Whether some tombstone lies in the box {@code [min, max]} stored at {@code base}. */
        boolean anyIn(long[] min, long[] max, int base) {
            long lo0 = min[base];
            long hi0 = max[base];
            int a = 0;
            int b = size;
            while (a < b) {
                int m = (a + b) >>> 1;
                if (points[m * dims] < lo0) {
                    a = m + 1;
                } else {
                    b = m;
                }
            }
            outer:
            for (int i = a, off = a * dims; i < size && points[off] <= hi0; i++, off += dims) {
                for (int d = 1; d < dims; d++) {
                    long v = points[off + d];
                    if (v < min[base + d] || v > max[base + d]) {
                        continue outer;
                    }
                }
                return true;
            }
            return false;
        }
    }

    /** Re-adds a persisted tombstone with its original sequence number (while opening, single-threaded). */
    void restore(Key key, long seq) {
        map.merge(key, new long[] {seq}, Tombstones::union);
        live.incrementAndGet();
        bloom.add(key.hash);
        changes.incrementAndGet();
    }

    /** Waits until every delete that may have taken a sequence number {@code <= seq} is fully recorded. */
    void awaitDeletesUpTo(long seq) {
        for (DeleteSlot s : deleteSlots) {
            while (s.pending <= seq) {
                Thread.onSpinWait();
            }
        }
    }

    private static long[] union(long[] a, long[] b) {
        long[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        Arrays.sort(r);
        return r;
    }

    Probe newProbe() {
        return new Probe(dims);
    }

    /** Whether a tombstone with sequence in {@code (pointSeq, limit]} hides the point. */
    boolean hides(long[] coords, int off, long id, long pointSeq, long limit, Probe probe) {
        long h = Coordinates.hash(coords, off, dims, id);
        if (!bloom.mightContain(h)) {
            return false;
        }
        probe.set(coords, off, id, h);
        long[] seqs = map.get(probe.key);
        if (seqs == null) {
            return false;
        }
        for (long s : seqs) {
            if (s > pointSeq && s <= limit) {
                return true;
            }
        }
        return false;
    }

    /** One tombstone sequence of one key, as seen by the purge pass. */
    record Entry(Key key, long seq) {}

    List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<Key, long[]> e : map.entrySet()) {
            for (long s : e.getValue()) {
                out.add(new Entry(e.getKey(), s));
            }
        }
        return out;
    }

    /** Drops one tombstone sequence (idempotent); called only when it can no longer match. */
    boolean remove(Key key, long seq) {
        boolean[] removed = new boolean[1];
        map.computeIfPresent(key, (k, v) -> {
            int i = Arrays.binarySearch(v, seq);
            if (i < 0) {
                return v;
            }
            removed[0] = true;
            if (v.length == 1) {
                return null;
            }
            long[] r = new long[v.length - 1];
            System.arraycopy(v, 0, r, 0, i);
            System.arraycopy(v, i + 1, r, i, v.length - i - 1);
            return r;
        });
        if (removed[0]) {
            live.decrementAndGet();
        }
        return removed[0];
    }

    /** Rebuilds the Bloom filter from the live keys (single caller at a time). */
    void rebuildBloom() {
        Bloom next = new Bloom((int) Math.min(1 << 24, Math.max(live.get() * 2, 1 << 12)));
        rebuilding = next;
        for (Key k : map.keySet()) {
            next.add(k.hash);
        }
        bloom = next;
        rebuilding = null;
    }

    /** The (point, id) key of a tombstone. */
    static final class Key {
        long[] coords;
        long id;
        long hash;

        Key(long[] coords, long id, long hash) {
            this.coords = coords;
            this.id = id;
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return (int) (hash ^ (hash >>> 32));
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return k.hash == hash && k.id == id && Arrays.equals(k.coords, coords);
        }
    }

    /** A mutable lookup key reused by one query. */
    static final class Probe {
        final Key key;

        Probe(int dims) {
            key = new Key(new long[dims], 0, 0);
        }

        void set(long[] coords, int off, long id, long hash) {
            System.arraycopy(coords, off, key.coords, 0, key.coords.length);
            key.id = id;
            key.hash = hash;
        }
    }

    /** Drops the delete slots of terminated threads (run by the scheduler thread). */
    void dropSlotsOfTerminatedThreads() {
        for (DeleteSlot s : deleteSlots) {
            if (!s.thread.isAlive() && s.pending == Long.MAX_VALUE) {
                deleteSlots.remove(s);
            }
        }
    }

    /** Number of registered delete slots (tests). */
    int deleteSlotCount() {
        return deleteSlots.size();
    }

    /** Per-deleting-thread announcement of a delete in flight (a lower bound of its sequence). */
    static final class DeleteSlot extends ReaderSlotPadBefore {
        volatile long pending = Long.MAX_VALUE;
        long q1, q2, q3, q4, q5, q6, q7, q8;
        final Thread thread;

        DeleteSlot(Thread thread) {
            this.thread = thread;
        }
    }

    /** A lock-free Bloom filter with three probes. */
    static final class Bloom {
        private final AtomicLongArray words;
        private final int mask;

        /** Largest filter: 2^28 bits (32 MiB), 16 bits per key up to {@link BkdTree#MAX_EXPECTED_TOMBSTONES}. */
        static final int MAX_BITS = 1 << 28;

        Bloom(int expected) {
            // 16 bits per expected key, in long: expected * 16 overflowed an int above 2^27 (a filter
            // of 2,048 bits, the smallest, for a large expectedTombstones)
            long wanted = Math.min(MAX_BITS, Math.max(1L << 11, 16L * expected));
            int bits = (int) Long.highestOneBit(wanted - 1) << 1;      // rounded up to a power of two
            words = new AtomicLongArray(bits >>> 6);
            mask = bits - 1;
        }

        /** Size of the filter in bits (tests). */
        int bits() {
            return mask + 1;
        }

        void add(long h) {
            int h1 = (int) h;
            int h2 = (int) (h >>> 32) | 1;
            for (int i = 0; i < 3; i++) {
                int bit = (h1 + i * h2) & mask;
                long m = 1L << bit;
                int w = bit >>> 6;
                long cur = words.get(w);
                while ((cur & m) == 0 && !words.compareAndSet(w, cur, cur | m)) {
                    cur = words.get(w);
                }
            }
        }

        boolean mightContain(long h) {
            int h1 = (int) h;
            int h2 = (int) (h >>> 32) | 1;
            for (int i = 0; i < 3; i++) {
                int bit = (h1 + i * h2) & mask;
                if ((words.get(bit >>> 6) & (1L << bit)) == 0) {
                    return false;
                }
            }
            return true;
        }
    }
}
