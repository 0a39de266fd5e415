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

    Forest(long version, KdTree[] trees) {
        this.version = version;
        this.trees = trees;
    }

    Forest plus(KdTree tree) {
        KdTree[] next = Arrays.copyOf(trees, trees.length + 1);
        next[trees.length] = tree;
        return new Forest(version + 1, next);
    }

    /** This forest without {@code removed} and, if not null, with {@code added}. */
    Forest replace(KdTree[] removed, KdTree added) {
        KdTree[] next = new KdTree[trees.length - removed.length + (added == null ? 0 : 1)];
        int n = 0;
        for (KdTree t : trees) {
            boolean gone = false;
            for (KdTree r : removed) {
                if (r == t) {
                    gone = true;
                    break;
                }
            }
            if (!gone) {
                next[n++] = t;
            }
        }
        if (added != null) {
            next[n++] = added;
        }
        if (n != next.length) {
            throw new IllegalStateException("merged trees were not all in the forest");
        }
        return new Forest(version + 1, next);
    }

    long points() {
        long n = 0;
        for (KdTree t : trees) {
            n += t.size;
        }
        return n;
    }
}
