package org.bbflow.core;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import java.util.function.ObjLongConsumer;

/**
 * Unboxed stages for streams of longs: sources, maps, filters and sinks whose code sees one
 * {@code long} at a time, while the flow moves {@link LongBatch}es of up to
 * {@link LongBatch#DEFAULT_CAPACITY} values. A stream of longs then costs no box per value and one
 * channel operation and one allocation per batch, where {@code Nodes.range(1, n)} into
 * {@code Nodes.sink(...)} pays a {@code Long} and a queue hand-off per value. They are ordinary
 * blocks: put them in pipelines, farms (a worker gets whole batches) and all-to-alls, fuse them with
 * {@link Chain}.
 *
 * <pre>{@code
 * long[] sum = new long[1];
 * Pipeline.of(LongNodes.range(1, 10_000_000), LongNodes.map(x -> 2 * x),
 *         LongNodes.sink(x -> sum[0] += x)).run();
 * }</pre>
 *
 * <p>What batching changes: values leave a stage when its batch is full, when it has handled its
 * input batch (so a stage adds no wait of its own), or for a source when its generator returns or
 * calls {@link LongOutbox#flush()}. A source that produces slowly should flush when its values must
 * not wait; {@link #batch()}, between boxed and unboxed stages, sends what it has whenever no item
 * waits on its input. Per-channel order holds value by value. The flow's statistics count batches.
 * Stages never change a batch they received: each fills its own, so a batch broadcast to several
 * nodes is safe.
 *
 * <p>Batches come back: where one of these stages is the only input of another (and that the only
 * output of the first, outside a feedback loop), the second gives each batch back once it has read
 * it, and the first fills it again instead of allocating one. A stream of longs then allocates about
 * a channel's worth of batches instead of 2 KiB per 256 values, and pays neither the garbage
 * collections nor, on a fresh heap, the page faults of that allocation. A batch that may have a
 * second reader or a keeper is never taken back: a broadcast one, one a node of the user's receives
 * or sends, one passed inside a node fused with {@link Node#andThen}.
 *
 * <p>Batches may outlive their flow: with the system property {@code bbflow.batchPool} set to a
 * number of batches (1,024 is about one flow's worth), the batches waiting to be filled again when
 * both stages of such a pair have closed go to a bounded pool kept for the life of the JVM, and the
 * next flow's stages take from it before they allocate. Off by default: it helps a process that
 * starts flows on a fresh heap and costs a little once the heap is warm (see docs/core.md, "Unboxed
 * longs and doubles").
 */
public final class LongNodes {
    private LongNodes() {}

    /**
     * A source of {@code from, from + 1, ..., toInclusive} in batches of
     * {@link LongBatch#DEFAULT_CAPACITY}.
     *
     * @param from the first value
     * @param toInclusive the last value (nothing if below {@code from})
     * @return the source
     */
    public static Source<LongBatch> range(long from, long toInclusive) {
        return range(from, toInclusive, LongBatch.DEFAULT_CAPACITY);
    }

    /**
     * A source of {@code from, from + 1, ..., toInclusive} in batches of {@code batchSize}.
     *
     * @param from the first value
     * @param toInclusive the last value (nothing if below {@code from})
     * @param batchSize the most values per batch, at least 1
     * @return the source
     * @throws IllegalArgumentException if batchSize is below 1
     */
    public static Source<LongBatch> range(long from, long toInclusive, int batchSize) {
        LongBatcher.requireCapacity(batchSize);
        return new BatchSource<>("longs.range", LongBatch.class) {
            @Override
            public void generate(Outbox<LongBatch> out) {
                for (long next = from; next <= toInclusive; ) {
                    long after = toInclusive - next; // values after next: unsigned, it cannot overflow
                    int n = Long.compareUnsigned(after, batchSize) < 0 ? (int) after + 1 : batchSize;
                    // room for a full batch only up to what the pool keeps: a range shorter than a
                    // large batch size must not allocate it (Integer.MAX_VALUE is a valid one)
                    LongBatch b = newLongBatch(n, Math.min(batchSize, BatchPool.MAX_VALUES));
                    long[] v = b.values;
                    for (int i = 0; i < n; i++) {
                        v[i] = next + i;
                    }
                    b.size = n;
                    out.send(b);
                    if (Long.compareUnsigned(after, n) < 0) {
                        break; // this batch ended at toInclusive (which may be Long.MAX_VALUE)
                    }
                    next += n;
                }
            }
        };
    }

    /**
     * A source whose generator sends longs with {@link LongOutbox#sendLong}; they leave in batches of
     * {@link LongBatch#DEFAULT_CAPACITY}, the last one when the generator returns.
     *
     * <p>The generator may end the stream with an error, as {@link Nodes#source} may, by throwing a
     * {@link StreamFailure} (a checked exception: from Kotlin directly, from Java through a wrapper
     * that rethrows it unchecked): the values it sent before, those of an unfilled batch included,
     * still reach the sinks, and the flow fails then.
     *
     * @param generator sends the values, then returns
     * @return the source
     */
    public static Source<LongBatch> source(Consumer<? super LongOutbox> generator) {
        Objects.requireNonNull(generator, "generator");
        return new BatchSource<>("longs.source", LongBatch.class) {
            private final LongBatcher batcher = new LongBatcher(this, LongBatch.DEFAULT_CAPACITY);

            @Override
            void discardKept() {
                batcher.discard();
            }

            @Override
            public void generate(Outbox<LongBatch> out) {
                try {
                    generator.accept(batcher.to(out));
                } catch (Throwable t) {
                    if (t instanceof StreamFailure) {
                        // the stream ends with an error after its values: the kept ones leave first
                        batcher.flush();
                    }
                    throw t;
                }
                batcher.flush();
            }
        };
    }

    /**
     * A stage applying {@code f} to every value.
     *
     * @param f the function
     * @return the node
     */
    public static Node<LongBatch, LongBatch> map(LongUnaryOperator f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<LongBatch, LongBatch>("longs.map", LongBatch.class, LongBatch.class) {
            @Override
            public void onItem(LongBatch in, Outbox<LongBatch> out) {
                int n = in.size;
                LongBatch b = newLongBatch(n);
                long[] src = in.values;
                long[] dst = b.values;
                for (int i = 0; i < n; i++) {
                    dst[i] = f.applyAsLong(src[i]);
                }
                b.size = n;
                out.send(b);
                done(in);
            }
        };
    }

    /**
     * A stage passing on the values {@code p} accepts.
     *
     * @param p the test
     * @return the node
     */
    public static Node<LongBatch, LongBatch> filter(LongPredicate p) {
        Objects.requireNonNull(p, "p");
        return new BatchStage<LongBatch, LongBatch>("longs.filter", LongBatch.class, LongBatch.class) {
            @Override
            public void onItem(LongBatch in, Outbox<LongBatch> out) {
                LongBatch b = null;
                long[] src = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    long x = src[i];
                    if (p.test(x)) {
                        if (b == null) {
                            b = newLongBatch(n - i);
                        }
                        b.values[b.size++] = x;
                    }
                }
                if (b != null) {
                    out.send(b);
                }
                done(in);
            }
        };
    }

    /**
     * A stage calling {@code f} with its outbox and each value; {@code f} sends any number of values
     * with {@link LongOutbox#sendLong}. What it sent for one input batch leaves at the end of that
     * batch at the latest.
     *
     * @param f what to do with each value
     * @return the node
     */
    public static Node<LongBatch, LongBatch> flatMap(ObjLongConsumer<? super LongOutbox> f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<LongBatch, LongBatch>("longs.flatMap", LongBatch.class, LongBatch.class) {
            private final LongBatcher batcher = new LongBatcher(this, LongBatch.DEFAULT_CAPACITY);

            @Override
            void discardKept() {
                batcher.discard();
            }

            @Override
            public void onItem(LongBatch in, Outbox<LongBatch> out) {
                LongBatcher o = batcher.to(out);
                long[] src = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    f.accept(o, src[i]);
                }
                o.flush();
                done(in);
            }
        };
    }

    /**
     * A sink calling {@code c} with every value, in order.
     *
     * @param c what to do with each value
     * @return the node
     */
    public static Node<LongBatch, Void> sink(LongConsumer c) {
        Objects.requireNonNull(c, "c");
        return new BatchStage<LongBatch, Void>("longs.sink", LongBatch.class, null) {
            @Override
            public void onItem(LongBatch in, Outbox<Void> out) {
                long[] v = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    c.accept(v[i]);
                }
                done(in);
            }
        };
    }

    /**
     * From unboxed stages to boxed ones: sends every value of each batch as a {@code Long}.
     *
     * @return the node
     */
    public static Node<LongBatch, Long> unbatch() {
        return new BatchStage<LongBatch, Long>("longs.unbatch", LongBatch.class, null) {
            @Override
            public void onItem(LongBatch in, Outbox<Long> out) {
                long[] v = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    out.send(v[i]);
                }
                done(in);
            }
        };
    }

    /**
     * From boxed stages to unboxed ones: gathers {@code Long}s into batches of up to
     * {@link LongBatch#DEFAULT_CAPACITY}, and sends what it has whenever no item waits on its input
     * ({@link NodeContext#hasPendingInput()}), so that it batches only while its producer is ahead
     * and adds no wait when it is not.
     *
     * @return the node
     */
    public static Node<Long, LongBatch> batch() {
        return new BatchStage<Long, LongBatch>("longs.batch", null, LongBatch.class) {
            private final LongBatcher batcher = new LongBatcher(this, LongBatch.DEFAULT_CAPACITY);

            @Override
            void discardKept() {
                batcher.discard();
            }
            private NodeContext context;

            @Override
            public void init(NodeContext ctx) {
                context = ctx;
            }

            @Override
            public void onItem(Long x, Outbox<LongBatch> out) {
                LongBatcher o = batcher.to(out);
                o.sendLong(x);
                if (!context.hasPendingInput()) {
                    o.flush();
                }
            }

            @Override
            public void onEos(Outbox<LongBatch> out) {
                batcher.to(out).flush();
            }
        };
    }
}
