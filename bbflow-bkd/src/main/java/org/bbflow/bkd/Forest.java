package org.bbflow.bkd;

import java.util.Arrays;

/**
 * The immutable set of readable trees, published by read-copy-update: writers build a new forest
 * and swap one atomic reference; readers use whichever forest they pinned. Versions grow by one
 * per swap, so a tree is visible exactly in versions {@code [birth, death)}.
 */
final class Forest {
    static final Forest EMPTY = new Forest(0, new KdTree[0]);

    final long version;
    final KdTree[] trees;
    /**
     * Set by {@code close()} before its commit pins the forest: no tree is added or replaced any
     * more ({@link BkdTree#publish} and {@link BkdTree#install} fail), so what close() commits is
     * everything a publish that returned had added.
     */
    final boolean sealed;

    Forest(long version, KdTree[] trees) {
        this(version, trees, false);
    }

    Forest(long version, KdTree[] trees, boolean sealed) {
        this.version = version;
        this.trees = trees;
        this.sealed = sealed;
    }

    /** This forest, sealed (same version: it holds the same trees). */
    Forest seal() {
        return new Forest(version, trees, true);
    }

    Forest plus(KdTree tree) {
        KdTree[] next = Arrays.copyOf(trees, trees.length + 1);
        next[trees.length] = tree;
        return new Forest(version + 1, next);
    }

    /**
     * This forest without {@code removed} and, if not null, with {@code added}.
     *
     * @throws IllegalStateException if some of {@code removed} is not in this forest
     */
    Forest replace(KdTree[] removed, KdTree added) {
        int kept = 0;
        for (KdTree t : trees) {
            if (!contains(removed, t)) {
                kept++;
            }
        }
        if (kept != trees.length - removed.length) {
            throw new IllegalStateException("merged trees were not all in the forest");
        }
        KdTree[] next = new KdTree[kept + (added == null ? 0 : 1)];
        int n = 0;
        for (KdTree t : trees) {
            if (!contains(removed, t)) {
                next[n++] = t;
            }
        }
        if (added != null) {
            next[n] = added;
        }
        return new Forest(version + 1, next);
    }

    private static boolean contains(KdTree[] set, KdTree t) {
        for (KdTree x : set) {
            if (x == t) {
                return true;
            }
        }
        return false;
    }

    long points() {
        long n = 0;
        for (KdTree t : trees) {
            n += t.size;
        }
        return n;
    }
}
