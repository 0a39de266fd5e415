package org.bbflow.bench.bkd;

import org.bbflow.bkd.BkdTree;

/**
 * Builds the {@link BkdTree} of a benchmark in one of its shapes: {@code "1"} or {@code "16"}
 * trees (merging off, buffer = size / trees); {@code "natural"}: streaming ingest with the default
 * configuration, background merges waited for, never force-merged, left alone until the idle
 * merge ran (the index an application has once loading stopped); {@code "tiers"}: the same
 * ingest with the idle merge off (the size-tiered forest an index has while ingest goes on).
 */
final class BkdShapes {
    private BkdShapes() {}

    static BkdTree load(double[] xs, double[] ys, String shape) {
        int size = xs.length;
        BkdTree tree;
        if ("natural".equals(shape)) {
            tree = BkdTree.builder(2).build();
        } else if ("tiers".equals(shape)) {
            tree = BkdTree.builder(2).mergeWhenIdle(java.time.Duration.ZERO).build();
        } else {
            int trees = Integer.parseInt(shape);
            tree = BkdTree.builder(2).merging(false).bufferSize(Math.max(1, size / trees)).build();
        }
        double[] p = new double[2];
        for (int i = 0; i < size; i++) {
            p[0] = xs[i];
            p[1] = ys[i];
            tree.insert(p, i);
        }
        tree.refresh();
        try {
            tree.awaitMerges();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if ("natural".equals(shape)) {
            awaitIdle(tree);
        }
        if (!"natural".equals(shape) && !"tiers".equals(shape) && tree.stats().trees() != Integer.parseInt(shape)) {
            throw new IllegalStateException("expected " + shape + " trees, got " + tree.stats());
        }
        System.out.printf("%nBBFlow %s: %s, %.2f bytes/point%n", shape, tree.stats(), tree.stats().bytesPerPoint());
        return tree;
    }

    /**
     * Waits (at most a minute) until the index left alone settled: one tree (the idle merge ran).
     * Returns the seconds it took.
     */
    static double awaitIdle(BkdTree tree) {
        long t0 = System.nanoTime();
        long deadline = t0 + 60_000_000_000L;
        while (tree.stats().trees() > 1 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
