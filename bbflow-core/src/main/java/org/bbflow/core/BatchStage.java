package org.bbflow.core;

import java.util.List;

/**
 * A stage of {@link LongNodes} or {@link DoubleNodes}: a node whose batches the flow may recycle
 * ({@link BatchReturns}). Which nodes qualify is decided by what the library's own code does with
 * batches, never by a node of the user's: a batch stage sends only batches it filled itself and
 * forgets them once sent, and keeps no batch it received once its {@code onItem} returned.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
abstract class BatchStage<I, O> implements Node<I, O> {
    private final String name;
    /** The batch class this stage reads and gives back, or null if its input is no batch. */
    private final Class<?> inBatch;
    /** The batch class this stage fills and sends, or null if its output is no batch. */
    private final Class<?> outBatch;
    /** Where the batches this stage sends come back, or null: it makes new ones. Set at start. */
    BatchReturns takeFrom;
    /** Where the batches this stage received go back once read, or null: nowhere. Set at start. */
    BatchReturns giveTo;
    /**
     * This stage found the {@link BatchPool} empty in this flow, so it does not look there again
     * until its next flow: a producer that runs ahead of its consumer would otherwise poll a shared
     * queue per batch for nothing. Written and read by this stage's thread only (and reset before
     * the stage's next flow starts its thread).
     */
    private boolean poolDry;

    BatchStage(String name, Class<?> inBatch, Class<?> outBatch) {
        this.name = name;
        this.inBatch = inBatch;
        this.outBatch = outBatch;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * An empty batch for {@code n} values. Where this stage's output recycles: a returned one, else
     * one a finished flow left in the {@link BatchPool} (until this flow finds it empty), else a new
     * one with room for {@code Math.max(n, room)} (the most this stage sends in a batch, so that it
     * can be filled again); elsewhere a new one of exactly {@code n}, as small as what it carries.
     */
    final LongBatch newLongBatch(int n, int room) {
        BatchReturns r = takeFrom;
        if (r == null) {
            return new LongBatch(n);
        }
        Object back = r.poll();
        LongBatch b = back instanceof LongBatch && ((LongBatch) back).values.length >= n
                ? (LongBatch) back : pooledLongs(r, n);
        if (b != null) {
            b.size = 0;
            return b;
        }
        return new LongBatch(Math.max(n, room));
    }

    /** {@link #newLongBatch(int, int)} for a stage whose batches are as big as its input's, usually 256. */
    final LongBatch newLongBatch(int n) {
        return newLongBatch(n, LongBatch.DEFAULT_CAPACITY);
    }

    /** As {@link #newLongBatch(int, int)}, for doubles. */
    final DoubleBatch newDoubleBatch(int n, int room) {
        BatchReturns r = takeFrom;
        if (r == null) {
            return new DoubleBatch(n);
        }
        Object back = r.poll();
        DoubleBatch b = back instanceof DoubleBatch && ((DoubleBatch) back).values.length >= n
                ? (DoubleBatch) back : pooledDoubles(r, n);
        if (b != null) {
            b.size = 0;
            return b;
        }
        return new DoubleBatch(Math.max(n, room));
    }

    private LongBatch pooledLongs(BatchReturns r, int n) {
        if (poolDry) {
            return null;
        }
        LongBatch b = r.pool.takeLongs(n);
        poolDry = b == null;
        return b;
    }

    private DoubleBatch pooledDoubles(BatchReturns r, int n) {
        if (poolDry) {
            return null;
        }
        DoubleBatch b = r.pool.takeDoubles(n);
        poolDry = b == null;
        return b;
    }

    /** As {@link #newLongBatch(int)}, for doubles. */
    final DoubleBatch newDoubleBatch(int n) {
        return newDoubleBatch(n, LongBatch.DEFAULT_CAPACITY);
    }

    /** This stage has finished reading the batch {@code in}: it goes back to its producer, if that recycles. */
    final void done(Object in) {
        BatchReturns r = giveTo;
        if (r != null) {
            r.give(in);
        }
    }

    /** The batch class this stage fills and sends, or null. */
    final Class<?> outBatch() {
        return outBatch;
    }

    /** The batch class this stage reads, or null. */
    final Class<?> inBatch() {
        return inBatch;
    }

    /**
     * Sets up recycling for a flow about to start, on every edge its plan says recycles (the
     * {@link PlanCompiler} decides which). Every other batch stage of the flow, fused ones included,
     * starts clean: a node may run again, in another flow and in another place, and must send nothing
     * its last flow left behind.
     *
     * @param links the capacity of each of the flow's channels, by link index
     */
    static void recycle(FlowPlan plan, int[] links) {
        forget(plan.members());
        BatchPool pool = null;
        for (EdgePlan e : plan.edges) {
            if (e.recycles) {
                if (pool == null) {
                    // read here, in the starting thread: a bad -Dbbflow.batchPool stops Flow.start with its message
                    pool = BatchPool.shared();
                }
                BatchStage<?, ?> producer = (BatchStage<?, ?>) plan.nodes.get(e.from).node;
                BatchStage<?, ?> consumer = (BatchStage<?, ?>) plan.nodes.get(e.to).node;
                int capacity = links[e.link];
                BatchReturns r = new BatchReturns(capacity == Integer.MAX_VALUE ? Channel.DEFAULT_CAPACITY : capacity + 2,
                        pool);
                producer.takeFrom = r;
                consumer.giveTo = r;
            }
        }
    }

    /** No batch stage of these recycles any more or keeps a value (a start that was given up, or before a new one). */
    static void forget(List<Node<?, ?>> nodes) {
        for (Node<?, ?> n : nodes) {
            if (n instanceof BatchStage) {
                BatchStage<?, ?> s = (BatchStage<?, ?>) n;
                s.forgetReturns();
                s.discardKept();
            }
        }
    }

    /**
     * Drops the values this stage keeps between calls (a half-filled batch), unsent: called when its
     * flow has ended, however it ended, and before it starts in another. After a normal end there is
     * none (onEos sent them); after a failure or a cancellation they belong to a flow that is over.
     */
    void discardKept() {
    }

    /**
     * Ends this stage's part in its flow (called in the stage's thread after its last {@code onItem},
     * however the flow ended): what it kept is dropped, its ways back learn that this end is done, and
     * the second end of each to close hands its batches to the {@link BatchPool}.
     */
    @Override
    public void close() {
        discardKept();
        BatchReturns in = giveTo;
        BatchReturns out = takeFrom;
        forgetReturns();
        if (in != null) {
            in.close();
        }
        if (out != null) {
            out.close();
        }
    }

    private void forgetReturns() {
        takeFrom = null;
        giveTo = null;
        poolDry = false;
    }
}
