package org.bbflow.bench.bkd;

import org.bbflow.bkd.BkdTree;

/**
 * Builds the {@link BkdTree} of a benchmark in one of its shapes: {@code "1"} or {@code "16"}
 * trees (merging off, buffer = size / trees), or {@code "natural"}: streaming ingest with the
 * default buffer and background merges on, waited for but never force-merged (the forest an
 * application has after loading).
 */
final class BkdShapes {
    private BkdShapes() {}

    static BkdTree load(double[] xs, double[] ys, String shape) {
        int size = xs.length;
        BkdTree tree;
        if ("natural".equals(shape)) {
            tree = BkdTree.builder(2).build();
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
        if (!"natural".equals(shape) && tree.stats().trees() != Integer.parseInt(shape)) {
            throw new IllegalStateException("expected " + shape + " trees, got " + tree.stats());
        }
        System.out.printf("%nBBFlow %s: %s, %.2f bytes/point%n", shape, tree.stats(), tree.stats().bytesPerPoint());
        return tree;
    }
}
