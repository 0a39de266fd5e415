package org.bbflow.core;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.DoublePredicate;
import java.util.function.DoubleToLongFunction;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongToDoubleFunction;
import java.util.function.ObjDoubleConsumer;

/**
 * Unboxed stages for streams of doubles, as {@link LongNodes} are for longs: the user's code sees one
 * {@code double} at a time, the flow moves {@link DoubleBatch}es of up to
 * {@link LongBatch#DEFAULT_CAPACITY} values, with no {@code Double} per value and one channel
 * operation and one allocation per batch. A stream starts from a {@link #source} or from longs
 * ({@link #fromLongs}, e.g. after {@link LongNodes#range}) and can turn back into longs
 * ({@link #toLongs}) or boxed items ({@link #unbatch()}).
 *
 * <pre>{@code
 * double[] sum = new double[1];
 * Pipeline.of(LongNodes.range(1, 1_000_000), DoubleNodes.fromLongs(i -> 1.0 / i),
 *         DoubleNodes.map(Math::sqrt), DoubleNodes.sink(x -> sum[0] += x)).run();
 * }</pre>
 *
 * <p>Batching works as for longs: values leave a stage when its batch is full, when it has handled
 * its input batch, or for a source when its generator returns or calls {@link DoubleOutbox#flush()};
 * per-channel order holds value by value; stages never change a batch they received; and batches
 * come back between two stages joined one to one (see {@link LongNodes}), including between a
 * {@link LongNodes} stage and {@link #fromLongs}.
 *
 * <p>Ints have no stages of their own: an {@code int} widens exactly to a {@code long}, so a stream
 * of ints runs on {@link LongNodes} (narrow back with {@code (int)} where needed), at 8 bytes a
 * value instead of 4 in a batch.
 */
public final class DoubleNodes {
    private DoubleNodes() {}

    /**
     * A source whose generator sends doubles with {@link DoubleOutbox#sendDouble}; they leave in
     * batches of {@link LongBatch#DEFAULT_CAPACITY}, the last one when the generator returns.
     *
     * <p>The generator may end the stream with an error, as {@link Nodes#source} may, by throwing a
     * {@link StreamFailure} (a checked exception: from Kotlin directly, from Java through a wrapper
     * that rethrows it unchecked): the values it sent before, those of an unfilled batch included,
     * still reach the sinks, and the flow fails then.
     *
     * @param generator sends the values, then returns
     * @return the source
     */
    public static Source<DoubleBatch> source(Consumer<? super DoubleOutbox> generator) {
        Objects.requireNonNull(generator, "generator");
        return new BatchSource<>("doubles.source", DoubleBatch.class) {
            private final DoubleBatcher batcher = new DoubleBatcher(this, LongBatch.DEFAULT_CAPACITY);

            @Override
            void discardKept() {
                batcher.discard();
            }

            @Override
            public void generate(Outbox<DoubleBatch> out) {
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
     * A stage turning each long into a double with {@code f}, batch for batch.
     *
     * @param f the function
     * @return the node
     */
    public static Node<LongBatch, DoubleBatch> fromLongs(LongToDoubleFunction f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<LongBatch, DoubleBatch>("doubles.fromLongs", LongBatch.class, DoubleBatch.class) {
            @Override
            public void onItem(LongBatch in, Outbox<DoubleBatch> out) {
                int n = in.size;
                DoubleBatch b = newDoubleBatch(n);
                long[] src = in.values;
                double[] dst = b.values;
                for (int i = 0; i < n; i++) {
                    dst[i] = f.applyAsDouble(src[i]);
                }
                b.size = n;
                out.send(b);
                done(in);
            }
        };
    }

    /**
     * A stage turning each double into a long with {@code f}, batch for batch.
     *
     * @param f the function
     * @return the node
     */
    public static Node<DoubleBatch, LongBatch> toLongs(DoubleToLongFunction f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<DoubleBatch, LongBatch>("doubles.toLongs", DoubleBatch.class, LongBatch.class) {
            @Override
            public void onItem(DoubleBatch in, Outbox<LongBatch> out) {
                int n = in.size;
                LongBatch b = newLongBatch(n);
                double[] src = in.values;
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
     * A stage applying {@code f} to every value.
     *
     * @param f the function
     * @return the node
     */
    public static Node<DoubleBatch, DoubleBatch> map(DoubleUnaryOperator f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<DoubleBatch, DoubleBatch>("doubles.map", DoubleBatch.class, DoubleBatch.class) {
            @Override
            public void onItem(DoubleBatch in, Outbox<DoubleBatch> out) {
                int n = in.size;
                DoubleBatch b = newDoubleBatch(n);
                double[] src = in.values;
                double[] dst = b.values;
                for (int i = 0; i < n; i++) {
                    dst[i] = f.applyAsDouble(src[i]);
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
    public static Node<DoubleBatch, DoubleBatch> filter(DoublePredicate p) {
        Objects.requireNonNull(p, "p");
        return new BatchStage<DoubleBatch, DoubleBatch>("doubles.filter", DoubleBatch.class, DoubleBatch.class) {
            @Override
            public void onItem(DoubleBatch in, Outbox<DoubleBatch> out) {
                DoubleBatch b = null;
                double[] src = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    double x = src[i];
                    if (p.test(x)) {
                        if (b == null) {
                            b = newDoubleBatch(n - i);
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
     * with {@link DoubleOutbox#sendDouble}. What it sent for one input batch leaves at the end of that
     * batch at the latest.
     *
     * @param f what to do with each value
     * @return the node
     */
    public static Node<DoubleBatch, DoubleBatch> flatMap(ObjDoubleConsumer<? super DoubleOutbox> f) {
        Objects.requireNonNull(f, "f");
        return new BatchStage<DoubleBatch, DoubleBatch>("doubles.flatMap", DoubleBatch.class, DoubleBatch.class) {
            private final DoubleBatcher batcher = new DoubleBatcher(this, LongBatch.DEFAULT_CAPACITY);

            @Override
            void discardKept() {
                batcher.discard();
            }

            @Override
            public void onItem(DoubleBatch in, Outbox<DoubleBatch> out) {
                DoubleBatcher o = batcher.to(out);
                double[] src = in.values;
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
    public static Node<DoubleBatch, Void> sink(DoubleConsumer c) {
        Objects.requireNonNull(c, "c");
        return new BatchStage<DoubleBatch, Void>("doubles.sink", DoubleBatch.class, null) {
            @Override
            public void onItem(DoubleBatch in, Outbox<Void> out) {
                double[] v = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    c.accept(v[i]);
                }
                done(in);
            }
        };
    }

    /**
     * From unboxed stages to boxed ones: sends every value of each batch as a {@code Double}.
     *
     * @return the node
     */
    public static Node<DoubleBatch, Double> unbatch() {
        return new BatchStage<DoubleBatch, Double>("doubles.unbatch", DoubleBatch.class, null) {
            @Override
            public void onItem(DoubleBatch in, Outbox<Double> out) {
                double[] v = in.values;
                for (int i = 0, n = in.size; i < n; i++) {
                    out.send(v[i]);
                }
                done(in);
            }
        };
    }

    /**
     * From boxed stages to unboxed ones: gathers {@code Double}s into batches of up to
     * {@link LongBatch#DEFAULT_CAPACITY}, and sends what it has whenever no item waits on its input
     * ({@link NodeContext#hasPendingInput()}), as {@link LongNodes#batch()} does.
     *
     * @return the node
     */
    public static Node<Double, DoubleBatch> batch() {
        return new BatchStage<Double, DoubleBatch>("doubles.batch", null, DoubleBatch.class) {
            private final DoubleBatcher batcher = new DoubleBatcher(this, LongBatch.DEFAULT_CAPACITY);

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
            public void onItem(Double x, Outbox<DoubleBatch> out) {
                DoubleBatcher o = batcher.to(out);
                o.sendDouble(x);
                if (!context.hasPendingInput()) {
                    o.flush();
                }
            }

            @Override
            public void onEos(Outbox<DoubleBatch> out) {
                batcher.to(out).flush();
            }
        };
    }
}
