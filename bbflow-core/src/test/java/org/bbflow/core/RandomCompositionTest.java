package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The generator (issue 28): random compositions of every block and option, each run against a
 * sequential model of the same composition.
 *
 * <p>Blocks: pipelines (with a channel specification per edge: one slot to unbounded, MPSC, an edge's
 * own wait strategy); farms with every dispatch (round-robin, on demand, broadcast, by key, scatter)
 * and every collect (first-come, round-robin, gather, ordered, ordered with a window, none), without
 * emitter, with a user's emitter or collector, with feedback from the workers or the collector;
 * all-to-alls with and without feedback (N x M and pairwise); combs; pipeline loops, nested loops
 * sharing their head, loops headed by a generator; unboxed stages ({@code LongNodes} and
 * {@code DoubleNodes}, {@code batch()} included, and farms of them); workers that drop or multiply
 * items; nodes that fail on a value; cancellation at a random point; every wait strategy. Depth up to
 * 5.
 *
 * <p>The oracle is a sequential model of the composition: the items a flow delivers, as a multiset,
 * and in sequence wherever every block on the way promises order; whether a planted failure is
 * reached, or a strict collector's worker breaks "one result per item" (then the flow must fail, and
 * what it delivered must be part of the model's result); and which rules the composition breaks (then
 * {@link Flow#start} must refuse it with an {@link IllegalStateException} naming one of them). A
 * cancelled flow either ends normally with the model's result or fails with the cancellation, having
 * delivered part of it. A hang is a failure: every flow has a deadline, and a flow past it is reported
 * with the stack of each of its threads.
 *
 * <p>2,000 shapes in the default tier (about 10 s on 2 cores), 20,000 in the long one;
 * {@code -Dbbflow.cases=N} runs N. The shapes' seeds follow from the test's seed ({@link TestSeed}: the
 * root seed {@code -Dbbflow.seed} replays the whole sequence), a failure prints the seed of its
 * shape, and {@code -Dbbflow.shape=S} runs that one shape again.
 */
@Timeout(3600)
class RandomCompositionTest {
    static final int CASES = Integer.getInteger("bbflow.cases", TestTier.pick(2_000, 20_000));
    static final int MAX_NODES = 26;
    /** Items the model may handle for one shape (loops): a shape that needs more is not run. */
    static final int MAX_MODEL_WORK = 40_000;
    static final Duration DEADLINE = Duration.ofSeconds(Long.getLong("bbflow.shapeDeadline", 60));

    // ---- the sequential model ---------------------------------------------------------------

    /** What the model saw while it computed a shape's result. */
    static final class Model {
        boolean plantedFailure;
        boolean strictBroken;
        long work;

        void work(int items) {
            work += items;
            if (work > MAX_MODEL_WORK) {
                throw new TooBig();
            }
        }
    }

    /** The model needed more than {@link #MAX_MODEL_WORK} items: the shape is not run. */
    static final class TooBig extends RuntimeException {
        TooBig() {
            super(null, null, false, false);
        }
    }

    /** The failure a planted node throws. */
    static final class Planted extends RuntimeException {
        Planted(long x) {
            super("planted failure on " + x);
        }
    }

    /** A random block of Longs to Longs: builds fresh blocks, and knows what they compute. */
    abstract static class Spec {
        abstract Block<Long, Long> build();

        /** The sequential model: the results of {@code in}, in order where {@link #ordered()}. */
        abstract List<Long> apply(List<Long> in, Model m);

        /** The block delivers its results in the model's order. */
        abstract boolean ordered();

        abstract int nodes();

        abstract String describe();

        /** A node (or a comb): it can be fused, be an emitter, a collector, an all-to-all member with feedback. */
        boolean isNode() {
            return false;
        }

        Node<Long, Long> node() {
            throw new UnsupportedOperationException(describe());
        }

        /** A node, a comb, or a pipeline of them without feedback: what an ordered or strict farm's worker may be. */
        boolean chain() {
            return isNode();
        }

        int entries() {
            return 1;
        }

        int exits() {
            return 1;
        }

        /** Items come back into the block's input port: it heads a feedback loop there. */
        boolean headsLoop() {
            return false;
        }

        /** Some feedback loop is inside the block. */
        boolean hasLoop() {
            return false;
        }

        /**
         * The block's output ports close a loop: they send forward with {@code sendTo}, to one output,
         * whatever the dispatch policy of the block around (a broadcast there copies nothing).
         */
        boolean exitsRoute() {
            return false;
        }

        /** |result| <= gain * |x| + additive, for every result of an item x (loops use it to end). */
        long gain() {
            return 1;
        }

        long additive() {
            return 0;
        }

        /** The rules the block breaks (words the start's error must contain one of). */
        void refusals(List<String> out, boolean inLoop) {
        }

        void tags(Set<String> out) {
        }

        int depth() {
            return 1;
        }
    }

    static void spin(long x, int k) {
        if (Math.floorMod(x * 31 + k, 211) == 0) {
            long end = System.nanoTime() + 10_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    /** A node spec: one function per item, as a node. */
    abstract static class NodeSpec extends Spec {
        /** The node's results for one item, in order. */
        abstract void each(long x, List<Long> out, Model m);

        @Override
        final boolean isNode() {
            return true;
        }

        @Override
        Block<Long, Long> build() {
            return node();
        }

        @Override
        Node<Long, Long> node() {
            return Nodes.flatMap((Long x, Outbox<Long> o) -> {
                List<Long> r = new ArrayList<>(3);
                each(x, r, null);
                for (Long y : r) {
                    o.send(y);
                }
            });
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            m.work(in.size());
            List<Long> out = new ArrayList<>();
            for (long x : in) {
                each(x, out, m);
            }
            return out;
        }

        @Override
        boolean ordered() {
            return true;
        }

        @Override
        int nodes() {
            return 1;
        }
    }

    static final class MapSpec extends NodeSpec {
        final int k;

        MapSpec(int k) {
            this.k = k;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            if (m == null) {
                spin(x, k);
            }
            out.add(3 * x + k);
        }

        @Override
        long gain() {
            return 3;
        }

        @Override
        long additive() {
            return k;
        }

        @Override
        String describe() {
            return "map(3x+" + k + ")";
        }
    }

    static final class FilterSpec extends NodeSpec {
        final int k;

        FilterSpec(int k) {
            this.k = k;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            if (Math.floorMod(x + k, 3) != 0) {
                out.add(x);
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add("drop");
        }

        @Override
        String describe() {
            return "filter(" + k + ")";
        }
    }

    static final class ExpandSpec extends NodeSpec {
        final int k;

        ExpandSpec(int k) {
            this.k = k;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            out.add(x);
            if (Math.floorMod(x, 4) == k % 4) {
                out.add(x + 7);
                out.add(-x);
            }
        }

        @Override
        long additive() {
            return 7;
        }

        @Override
        void tags(Set<String> out) {
            out.add("multiply");
        }

        @Override
        String describe() {
            return "expand(" + k + ")";
        }
    }

    /** x + k, and a planted failure on values with x mod 499 == r. */
    static final class FailSpec extends NodeSpec {
        final int k;
        final int r;

        FailSpec(int k, int r) {
            this.k = k;
            this.r = r;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            if (Math.floorMod(x, 499) == r) {
                if (m == null) {
                    throw new Planted(x);
                }
                m.plantedFailure = true;
            }
            out.add(x + k);
        }

        @Override
        long additive() {
            return k;
        }

        @Override
        void tags(Set<String> out) {
            out.add("fail");
        }

        @Override
        String describe() {
            return "fail(+" + k + ",%499==" + r + ")";
        }
    }

    /** The last stage of a loop: back as z / divisor while |z| > threshold, else forward on output {@code forward}. */
    static final class RouterSpec extends NodeSpec {
        final long threshold;
        final long divisor;
        final int forward;

        RouterSpec(long threshold, long divisor, int forward) {
            this.threshold = threshold;
            this.divisor = divisor;
            this.forward = forward;
        }

        boolean back(long z) {
            return Math.abs(z) > threshold;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            throw new UnsupportedOperationException("a router is modelled by its loop");
        }

        @Override
        Node<Long, Long> node() {
            return Nodes.flatMap((Long z, Outbox<Long> o) -> {
                if (back(z)) {
                    o.send(z / divisor);
                } else {
                    o.sendTo(forward, z);
                }
            });
        }

        @Override
        String describe() {
            return "router(|z|>" + threshold + ":/" + divisor + ",fwd " + forward + ")";
        }
    }

    static final class CombSpec extends NodeSpec {
        final NodeSpec a;
        final NodeSpec b;

        CombSpec(NodeSpec a, NodeSpec b) {
            this.a = a;
            this.b = b;
        }

        @Override
        void each(long x, List<Long> out, Model m) {
            List<Long> mid = new ArrayList<>(3);
            a.each(x, mid, m);
            for (long y : mid) {
                b.each(y, out, m);
            }
        }

        @Override
        Node<Long, Long> node() {
            return a.node().andThen(b.node());
        }

        @Override
        long gain() {
            return a.gain() * b.gain();
        }

        @Override
        long additive() {
            return b.gain() * a.additive() + b.additive();
        }

        @Override
        void tags(Set<String> out) {
            out.add("comb");
            a.tags(out);
            b.tags(out);
        }

        @Override
        String describe() {
            return "comb(" + a.describe() + "," + b.describe() + ")";
        }
    }

    /** A pipeline of unboxed stages: Longs to batches (batch()), LongNodes or DoubleNodes stages, back to Longs. */
    static final class UnboxedSpec extends Spec {
        /** Per stage: 0 map 3x+k, 1 filter, 2 expand (flatMap); k in the low bits. */
        final int[] ops;
        final int[] ks;
        /** 0: longs; 1: doubles by DoubleNodes.batch(); 2: longs into doubles and back (fromLongs/toLongs). */
        final int kind;
        /** A farm of the middle stage (3 workers), ordered or first-come, or none. */
        final Collect farm;

        UnboxedSpec(Random rnd) {
            int n = 1 + rnd.nextInt(3);
            ops = new int[n];
            ks = new int[n];
            for (int i = 0; i < n; i++) {
                ops[i] = rnd.nextInt(3);
                ks[i] = rnd.nextInt(100);
            }
            kind = rnd.nextInt(3);
            int f = rnd.nextInt(6);
            farm = f == 0 ? Collect.ORDERED : f == 1 ? Collect.FIRST_COME : null;
        }

        private Block<?, ?> longStage(int i) {
            int k = ks[i];
            switch (ops[i]) {
                case 0: return LongNodes.map(x -> 3 * x + k);
                case 1: return LongNodes.filter(x -> Math.floorMod(x + k, 3) != 0);
                default: return LongNodes.flatMap((o, x) -> {
                    o.sendLong(x);
                    if (Math.floorMod(x, 4) == k % 4) {
                        o.sendLong(x + 7);
                        o.sendLong(-x);
                    }
                });
            }
        }

        private Block<?, ?> doubleStage(int i) {
            int k = ks[i];
            switch (ops[i]) {
                case 0: return DoubleNodes.map(x -> 3 * x + k);
                case 1: return DoubleNodes.filter(x -> Math.floorMod((long) x + k, 3) != 0);
                default: return DoubleNodes.flatMap((o, x) -> {
                    o.sendDouble(x);
                    if (Math.floorMod((long) x, 4) == k % 4) {
                        o.sendDouble(x + 7);
                        o.sendDouble(-x);
                    }
                });
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private Block<?, ?> stage(int i) {
            boolean doubles = kind != 0;
            if (farm != null && i == ops.length / 2) {
                Supplier<Block> worker = () -> doubles ? doubleStage(i) : longStage(i);
                Farm f = Farm.of(3, (Supplier) worker);
                return farm == Collect.ORDERED ? f.ordered() : f;
            }
            return doubles ? doubleStage(i) : longStage(i);
        }

        @Override
        @SuppressWarnings("unchecked")
        Block<Long, Long> build() {
            List<Block<?, ?>> stages = new ArrayList<>();
            if (kind == 1) {
                stages.add(Nodes.map((Long x) -> (double) x));
                stages.add(DoubleNodes.batch());
            } else {
                stages.add(LongNodes.batch());
                if (kind == 2) {
                    stages.add(DoubleNodes.fromLongs(x -> (double) x));
                }
            }
            for (int i = 0; i < ops.length; i++) {
                stages.add(stage(i));
            }
            if (kind == 1) {
                stages.add(DoubleNodes.unbatch());
                stages.add(Nodes.map((Double x) -> (long) (double) x));
            } else {
                if (kind == 2) {
                    stages.add(DoubleNodes.toLongs(x -> (long) x));
                }
                stages.add(LongNodes.unbatch());
            }
            return (Block<Long, Long>) (Block<?, ?>) Pipeline.of(stages.toArray(new Block<?, ?>[0]));
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            List<Long> x = in;
            for (int i = 0; i < ops.length; i++) {
                m.work(x.size());
                List<Long> out = new ArrayList<>();
                int k = ks[i];
                for (long v : x) {
                    switch (ops[i]) {
                        case 0: out.add(3 * v + k); break;
                        case 1:
                            if (Math.floorMod(v + k, 3) != 0) {
                                out.add(v);
                            }
                            break;
                        default:
                            out.add(v);
                            if (Math.floorMod(v, 4) == k % 4) {
                                out.add(v + 7);
                                out.add(-v);
                            }
                    }
                }
                x = out;
            }
            return x;
        }

        @Override
        boolean ordered() {
            return farm != Collect.FIRST_COME;
        }

        @Override
        boolean chain() {
            return farm == null;
        }

        @Override
        int nodes() {
            return ops.length + 2 + (kind != 0 ? 1 : 0) + (farm != null ? 4 : 0);
        }

        @Override
        long gain() {
            long g = 1;
            for (int op : ops) {
                g *= op == 0 ? 3 : 1;
            }
            return g;
        }

        @Override
        long additive() {
            long a = 0;
            for (int i = 0; i < ops.length; i++) {
                a = ops[i] == 0 ? 3 * a + ks[i] : a + 7;
            }
            return a;
        }

        @Override
        void tags(Set<String> out) {
            out.add(kind == 0 ? "longs" : "doubles");
            out.add(kind == 1 ? "doubles.batch" : "longs.batch");
            if (farm != null) {
                out.add("farm-of-batches");
            }
            for (int op : ops) {
                out.add(op == 1 ? "drop" : op == 2 ? "multiply" : "map");
            }
        }

        @Override
        String describe() {
            StringBuilder b = new StringBuilder(kind == 0 ? "longs[" : kind == 1 ? "doubles[" : "longs>doubles[");
            for (int i = 0; i < ops.length; i++) {
                b.append(i == 0 ? "" : ",").append(new String[] {"map", "filter", "flatMap"}[ops[i]]).append(ks[i]);
                if (farm != null && i == ops.length / 2) {
                    b.append("@farm3").append(farm == Collect.ORDERED ? "ordered" : "");
                }
            }
            return b.append("]").toString();
        }
    }

    static final class PipeSpec extends Spec {
        final List<Spec> stages;
        /** The channels into stage i (null: the flow's default); index 0 unused. */
        final List<ChannelSpec> specs = new ArrayList<>();

        PipeSpec(List<Spec> stages, Random rnd, boolean small) {
            this.stages = stages;
            specs.add(null);
            for (int i = 1; i < stages.size(); i++) {
                specs.add(randomSpec(rnd, small, true));
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        Block<Long, Long> build() {
            Pipeline<Long, Long> p = Pipeline.of(stages.get(0).build());
            for (int i = 1; i < stages.size(); i++) {
                p = p.then(stages.get(i).build(), Topology.AUTO, specs.get(i));
            }
            return p;
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            List<Long> x = in;
            for (Spec s : stages) {
                x = s.apply(x, m);
            }
            return x;
        }

        @Override
        boolean ordered() {
            for (int i = 0; i < stages.size(); i++) {
                if (!stages.get(i).ordered() || (i > 0 && (stages.get(i - 1).exits() != 1 || stages.get(i).entries() != 1))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        boolean chain() {
            return stages.stream().allMatch(Spec::chain);
        }

        @Override
        int nodes() {
            return stages.stream().mapToInt(Spec::nodes).sum();
        }

        @Override
        int entries() {
            return stages.get(0).entries();
        }

        @Override
        int exits() {
            return stages.get(stages.size() - 1).exits();
        }

        @Override
        boolean headsLoop() {
            return stages.get(0).headsLoop();
        }

        @Override
        boolean exitsRoute() {
            return stages.get(stages.size() - 1).exitsRoute();
        }

        @Override
        boolean hasLoop() {
            return stages.stream().anyMatch(Spec::hasLoop);
        }

        @Override
        long gain() {
            long g = 1;
            for (Spec s : stages) {
                g *= s.gain();
            }
            return g;
        }

        @Override
        long additive() {
            long a = 0;
            for (Spec s : stages) {
                a = s.gain() * a + s.additive();
            }
            return a;
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            for (int i = 0; i < stages.size(); i++) {
                stages.get(i).refusals(out, inLoop);
                if (i > 0 && isMpsc(specs.get(i)) && stages.get(i).headsLoop()) {
                    out.add("MPSC channels");
                }
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add("pipeline");
            for (int i = 0; i < stages.size(); i++) {
                stages.get(i).tags(out);
                specTags(specs.get(i), out);
            }
        }

        @Override
        int depth() {
            return 1 + stages.stream().mapToInt(Spec::depth).max().orElse(0);
        }

        @Override
        String describe() {
            StringBuilder b = new StringBuilder("pipe[");
            for (int i = 0; i < stages.size(); i++) {
                b.append(i == 0 ? "" : " -" + specs.get(i) + "-> ").append(stages.get(i).describe());
            }
            return b.append("]").toString();
        }
    }

    enum Dispatching { ROUND_ROBIN, ON_DEMAND, BROADCAST, BY_KEY }

    static Dispatch dispatch(Dispatching d) {
        switch (d) {
            case ON_DEMAND: return Dispatch.onDemand();
            case BROADCAST: return Dispatch.broadcast();
            case BY_KEY: return Dispatch.<Long>byKey(x -> Math.floorMod(x, 13));
            default: return Dispatch.roundRobin();
        }
    }

    /** Turns each round of a gathering collector into its items, in worker order. */
    static Node<Object, Long> flatten() {
        return Nodes.flatMap((Object round, Outbox<Long> o) -> {
            for (Object x : (List<?>) round) {
                o.send((Long) x);
            }
        });
    }

    static final class FarmSpec extends Spec {
        final Spec worker;
        final int n;
        final Dispatching dispatching;
        final Collect collect;
        /** ordered(window) when above 0. */
        final int window;
        final boolean emitter;
        final NodeSpec userEmitter;
        final NodeSpec userCollector;
        final ChannelSpec channels;

        FarmSpec(Spec worker, int n, Dispatching dispatching, Collect collect, int window, boolean emitter,
                 NodeSpec userEmitter, NodeSpec userCollector, ChannelSpec channels) {
            this.worker = worker;
            this.n = n;
            this.dispatching = dispatching;
            this.collect = collect;
            this.window = window;
            this.emitter = emitter;
            this.userEmitter = emitter ? userEmitter : null;
            this.userCollector = collect == Collect.NONE || collect == Collect.GATHER ? null : userCollector;
            this.channels = channels;
        }

        boolean strict() {
            return collect == Collect.ROUND_ROBIN || collect == Collect.GATHER;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Block<Long, Long> build() {
            Farm f = Farm.of(n, worker::build).dispatch(dispatch(dispatching)).collect(collect);
            if (window > 0) {
                f.ordered(window);
            }
            if (!emitter) {
                f.withoutEmitter();
            } else if (userEmitter != null) {
                f.emitter(userEmitter.node());
            }
            if (collect == Collect.GATHER) {
                f.collector(flatten());
            } else if (userCollector != null) {
                f.collector(userCollector.node());
            }
            if (channels != null) {
                f.channels(channels);
            }
            return f;
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            List<Long> dispatched = userEmitter != null ? userEmitter.apply(in, m) : in;
            List<Long> results = new ArrayList<>();
            if (strict() || collect == Collect.ORDERED) {
                int copies = dispatching == Dispatching.BROADCAST ? n : 1;
                for (long x : dispatched) {
                    for (int c = 0; c < copies; c++) {
                        List<Long> r = worker.apply(List.of(x), m);
                        if (strict() && r.size() != 1) {
                            m.strictBroken = true;
                        }
                        results.addAll(r);
                    }
                }
            } else {
                int copies = emitter && dispatching == Dispatching.BROADCAST ? n * worker.entries() : 1;
                for (int c = 0; c < copies; c++) {
                    results.addAll(worker.apply(dispatched, m));
                }
            }
            return userCollector != null ? userCollector.apply(results, m) : results;
        }

        @Override
        boolean ordered() {
            if (strict() || collect == Collect.ORDERED) {
                return true;
            }
            return n == 1 && worker.ordered() && (dispatching != Dispatching.BROADCAST || worker.entries() == 1);
        }

        @Override
        int nodes() {
            return n * worker.nodes() + (emitter ? 1 : 0) + (collect == Collect.NONE ? 0 : 1);
        }

        @Override
        int entries() {
            return emitter ? 1 : n * worker.entries();
        }

        @Override
        int exits() {
            return collect == Collect.NONE ? n * worker.exits() : 1;
        }

        @Override
        boolean headsLoop() {
            return !emitter && worker.headsLoop();
        }

        @Override
        boolean exitsRoute() {
            return collect == Collect.NONE && worker.exitsRoute();
        }

        @Override
        boolean hasLoop() {
            return worker.hasLoop();
        }

        @Override
        long gain() {
            return worker.gain() * (userEmitter == null ? 1 : userEmitter.gain()) * (userCollector == null ? 1 : userCollector.gain());
        }

        @Override
        long additive() {
            long a = userEmitter == null ? 0 : userEmitter.additive();
            a = worker.gain() * a + worker.additive();
            return userCollector == null ? a : userCollector.gain() * a + userCollector.additive();
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            worker.refusals(out, inLoop);
            if (userEmitter != null) {
                userEmitter.refusals(out, inLoop);
            }
            if (collect == Collect.ORDERED) {
                if ((dispatching != Dispatching.ROUND_ROBIN && dispatching != Dispatching.ON_DEMAND) || !emitter
                        || !worker.chain()) {
                    out.add("ordered units");
                }
            } else if (strict()) {
                boolean fits = collect == Collect.ROUND_ROBIN ? dispatching == Dispatching.ROUND_ROBIN
                        : dispatching == Dispatching.ROUND_ROBIN || dispatching == Dispatching.BROADCAST;
                if (!fits || !emitter || !worker.chain()) {
                    out.add("strict collector");
                }
                if (collect == Collect.GATHER && dispatching == Dispatching.ROUND_ROBIN && inLoop) {
                    out.add("strict collector");
                }
            }
            if (isMpsc(channels) && (collect == Collect.ORDERED || strict() || (emitter && worker.headsLoop()))) {
                out.add("MPSC channels");
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add("farm");
            out.add("dispatch:" + dispatching);
            out.add("collect:" + collect + (window > 0 ? "+window" : ""));
            if (!emitter) {
                out.add("no-emitter");
            }
            if (userEmitter != null) {
                out.add("user-emitter");
                userEmitter.tags(out);
            }
            if (userCollector != null) {
                out.add("user-collector");
                userCollector.tags(out);
            }
            specTags(channels, out);
            worker.tags(out);
        }

        @Override
        int depth() {
            return 1 + worker.depth();
        }

        @Override
        String describe() {
            return "farm" + n + "{" + dispatching + "," + collect + (window > 0 ? "(" + window + ")" : "")
                    + (emitter ? userEmitter != null ? ",emitter " + userEmitter.describe() : "" : ",no emitter")
                    + (userCollector != null ? ",collector " + userCollector.describe() : "")
                    + (channels == null ? "" : "," + channels) + "}(" + worker.describe() + ")";
        }
    }

    /** Each item x becomes the list x, x+1, ..., scattered to the workers (sum + k each) and gathered (or not). */
    static final class ScatterSpec extends Spec {
        final int n;
        final int len;
        final int k;
        final boolean gather;

        ScatterSpec(int n, int len, int k, boolean gather) {
            this.n = n;
            this.len = len;
            this.k = k;
            this.gather = gather;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Block<Long, Long> build() {
            Node<Long, List<Long>> toList = Nodes.map((Long x) -> {
                List<Long> l = new ArrayList<>();
                for (int i = 0; i < len; i++) {
                    l.add(x + i);
                }
                return l;
            });
            Farm f = Farm.of(n, () -> Nodes.map((List<Long> chunk) -> {
                long s = k;
                for (long v : chunk) {
                    s += v;
                }
                return s;
            })).dispatch(Dispatch.scatter());
            if (gather) {
                f.collect(Collect.GATHER).collector(flatten());
            }
            return (Block<Long, Long>) (Block) Pipeline.of(toList, f);
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            m.work(in.size() * n);
            List<Long> out = new ArrayList<>();
            for (long x : in) {
                int base = len / n;
                int extra = len % n;
                long v = x;
                for (int w = 0; w < n; w++) {
                    int size = base + (w < extra ? 1 : 0);
                    long s = k;
                    for (int i = 0; i < size; i++) {
                        s += v++;
                    }
                    out.add(s);
                }
            }
            return out;
        }

        @Override
        boolean ordered() {
            return gather || n == 1;
        }

        @Override
        int nodes() {
            return 3 + n;
        }

        @Override
        long gain() {
            return len;
        }

        @Override
        long additive() {
            return (long) len * len + k;
        }

        @Override
        void tags(Set<String> out) {
            out.add("dispatch:SCATTER");
            out.add(gather ? "collect:GATHER" : "collect:FIRST_COME");
        }

        @Override
        int depth() {
            return 2;
        }

        @Override
        String describe() {
            return "scatter" + n + "{" + len + " values, sum+" + k + (gather ? ",gather" : "") + "}";
        }
    }

    static final class A2ASpec extends Spec {
        final Spec left;
        final Spec right;
        final int nl;
        final int nr;
        final Dispatching dispatching;
        final ChannelSpec channels;

        A2ASpec(Spec left, Spec right, int nl, int nr, Dispatching dispatching, ChannelSpec channels) {
            this.left = left;
            this.right = right;
            this.nl = nl;
            this.nr = nr;
            this.dispatching = dispatching == Dispatching.ON_DEMAND ? Dispatching.ROUND_ROBIN : dispatching;
            this.channels = channels;
        }

        @Override
        Block<Long, Long> build() {
            AllToAll<Long, Long> a = AllToAll.of(nl, left::build, nr, right::build);
            a.dispatch(dispatch(dispatching));
            if (channels != null) {
                a.channels(channels);
            }
            return a;
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            List<Long> l = left.apply(in, m);
            int copies = dispatching == Dispatching.BROADCAST && !left.exitsRoute() ? nr * right.entries() : 1;
            List<Long> out = new ArrayList<>();
            for (int c = 0; c < copies; c++) {
                out.addAll(right.apply(l, m));
            }
            return out;
        }

        @Override
        boolean ordered() {
            return nl == 1 && nr == 1 && left.ordered() && right.ordered() && left.exits() == 1 && right.entries() == 1;
        }

        @Override
        int nodes() {
            return nl * left.nodes() + nr * right.nodes();
        }

        @Override
        int entries() {
            return nl * left.entries();
        }

        @Override
        int exits() {
            return nr * right.exits();
        }

        @Override
        boolean headsLoop() {
            return left.headsLoop();
        }

        @Override
        boolean exitsRoute() {
            return right.exitsRoute();
        }

        @Override
        boolean hasLoop() {
            return left.hasLoop() || right.hasLoop();
        }

        @Override
        long gain() {
            return left.gain() * right.gain();
        }

        @Override
        long additive() {
            return right.gain() * left.additive() + right.additive();
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            left.refusals(out, inLoop);
            right.refusals(out, inLoop);
            if (isMpsc(channels) && right.headsLoop()) {
                out.add("MPSC channels");
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add("a2a");
            out.add("a2a:" + dispatching);
            specTags(channels, out);
            left.tags(out);
            right.tags(out);
        }

        @Override
        int depth() {
            return 1 + Math.max(left.depth(), right.depth());
        }

        @Override
        String describe() {
            return "a2a" + nl + "x" + nr + "{" + dispatching + (channels == null ? "" : "," + channels) + "}(" + left.describe()
                    + " | " + right.describe() + ")";
        }
    }

    /** What a loop does to the items that enter it: the head, the way round, and the router deciding back or out. */
    abstract static class LoopingSpec extends Spec {
        /** The items that leave the loop (each item goes round until its router lets it out). */
        List<Long> loop(List<Long> in, Model m, Spec head, Spec body, RouterSpec router) {
            List<Long> out = new ArrayList<>();
            List<Long> pending = in;
            while (!pending.isEmpty()) {
                m.work(pending.size());
                List<Long> round = body.apply(head == null ? pending : head.apply(pending, m), m);
                List<Long> back = new ArrayList<>();
                for (long z : round) {
                    if (router.back(z)) {
                        back.add(z / router.divisor);
                    } else {
                        out.add(z);
                    }
                }
                pending = back;
            }
            return out;
        }

        @Override
        boolean ordered() {
            return false;
        }

        @Override
        boolean headsLoop() {
            return true;
        }

        @Override
        boolean hasLoop() {
            return true;
        }

        /** What leaves a loop is at most its router's threshold. */
        @Override
        long gain() {
            return 0;
        }

        static RouterSpec router(long gain, long additive, int forward) {
            long g = Math.max(1, gain);
            return new RouterSpec(Math.max(4000, 2 * additive), 4 * g, forward);
        }
    }

    /** Identity, as a node spec. */
    static final class IdentitySpec extends NodeSpec {
        @Override
        void each(long x, List<Long> out, Model m) {
            out.add(x);
        }

        @Override
        Node<Long, Long> node() {
            return Nodes.identity();
        }

        @Override
        String describe() {
            return "identity";
        }
    }

    /**
     * {@code Pipeline.of(head, body, router).feedback()}: the head is a node, or a loop (or farm loop,
     * or all-to-all loop of one left member) whose own head is then shared: nested loops, one loop.
     */
    static final class LoopSpec extends LoopingSpec {
        final Spec head;
        final Spec body;
        final RouterSpec router;

        LoopSpec(Spec head, Spec body) {
            this.head = head;
            this.body = body;
            this.router = router(head.gain() * body.gain(), body.gain() * head.additive() + body.additive(), 1);
        }

        @Override
        @SuppressWarnings("unchecked")
        Block<Long, Long> build() {
            return (Block<Long, Long>) (Block<?, ?>) Pipeline.of(head.build(), body.build(), router.node()).feedback();
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            return loop(in, m, head, body, router);
        }

        @Override
        boolean exitsRoute() {
            return true;
        }

        @Override
        int nodes() {
            return head.nodes() + body.nodes() + 1;
        }

        @Override
        long additive() {
            return router.threshold;
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            head.refusals(out, true);
            body.refusals(out, true);
            if (body.hasLoop() || (!head.headsLoop() && head.hasLoop())) {
                out.add("feedback loops");
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add(head.headsLoop() ? "nested-loop" : "loop");
            head.tags(out);
            body.tags(out);
        }

        @Override
        int depth() {
            return 1 + Math.max(head.depth(), body.depth());
        }

        @Override
        String describe() {
            return "loop[" + head.describe() + " -> " + body.describe() + " -> " + router.describe() + "]";
        }
    }

    /** A farm with feedback: its workers (body + router) or its collector (the router) send back to the emitter. */
    static final class FarmLoopSpec extends LoopingSpec {
        final NodeSpec emitterNode;
        final Spec body;
        final int n;
        final boolean fromCollector;
        final Collect collect;
        final ChannelSpec channels;
        final RouterSpec router;

        FarmLoopSpec(NodeSpec emitterNode, Spec body, int n, boolean fromCollector, Collect collect, ChannelSpec channels) {
            this.emitterNode = emitterNode;
            this.body = body;
            this.n = n;
            this.fromCollector = fromCollector;
            // a collector that feeds back reads first come, or in order (an ordered farm's collector may feed back)
            this.collect = fromCollector && collect != Collect.ORDERED ? Collect.FIRST_COME : collect;
            this.channels = channels;
            long g = (emitterNode == null ? 1 : emitterNode.gain()) * body.gain();
            long a = body.gain() * (emitterNode == null ? 0 : emitterNode.additive()) + body.additive();
            this.router = router(g, a, 1);
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        Block<Long, Long> build() {
            Farm f;
            if (fromCollector) {
                f = Farm.of(n, body::build).collector(router.node());
                if (collect == Collect.ORDERED) {
                    f.ordered();
                }
                f.feedbackFromCollector();
            } else {
                f = Farm.of(n, () -> Pipeline.of(body.build(), router.node())).collect(collect).feedback();
            }
            if (emitterNode != null) {
                f.emitter(emitterNode.node());
            }
            if (channels != null) {
                f.channels(channels);
            }
            return f;
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            return loop(in, m, emitterNode, body, router);
        }

        @Override
        boolean exitsRoute() {
            return fromCollector || collect == Collect.NONE;
        }

        @Override
        int nodes() {
            return 1 + n * (body.nodes() + (fromCollector ? 0 : 1)) + (collect == Collect.NONE ? 0 : 1);
        }

        @Override
        int exits() {
            return collect == Collect.NONE ? n : 1;
        }

        @Override
        long additive() {
            return router.threshold;
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            body.refusals(out, true);
            if (body.hasLoop()) {
                out.add("feedback loops");
            }
            if (collect == Collect.ORDERED && (!fromCollector || !body.chain())) {
                out.add("ordered units");
            }
            if (collect == Collect.ROUND_ROBIN || collect == Collect.GATHER) {
                out.add("strict collector");
            }
            if (isMpsc(channels)) {
                out.add("MPSC channels");
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add(fromCollector ? "farm-feedback-from-collector" : "farm-feedback");
            if (fromCollector && collect == Collect.ORDERED) {
                out.add("ordered-feedback-from-collector");
            }
            if (emitterNode != null) {
                out.add("user-emitter");
                emitterNode.tags(out);
            }
            specTags(channels, out);
            body.tags(out);
        }

        @Override
        int depth() {
            return 2 + body.depth();
        }

        @Override
        String describe() {
            return "farmloop" + n + "{" + (fromCollector ? "from collector" : "from workers," + collect)
                    + (emitterNode == null ? "" : ",emitter " + emitterNode.describe())
                    + (channels == null ? "" : "," + channels) + "}(" + body.describe() + " -> " + router.describe() + ")";
        }
    }

    /** An all-to-all with feedback (N x M, or pairwise): right members (a node + the router) send back to the left. */
    static final class A2ALoopSpec extends LoopingSpec {
        final NodeSpec left;
        final NodeSpec right;
        final int nl;
        final int nr;
        final boolean pairwise;
        final Dispatching dispatching;
        final ChannelSpec channels;
        final RouterSpec router;

        A2ALoopSpec(NodeSpec left, NodeSpec right, int nl, int nr, boolean pairwise, Dispatching dispatching,
                    ChannelSpec channels) {
            this.left = left;
            this.right = right;
            this.nl = nl;
            this.nr = pairwise ? nl : nr;
            this.pairwise = pairwise;
            this.dispatching = dispatching == Dispatching.BY_KEY ? Dispatching.BY_KEY : Dispatching.ROUND_ROBIN;
            this.channels = channels;
            this.router = router(left.gain() * right.gain(), right.gain() * left.additive() + right.additive(),
                    pairwise ? 1 : nl);
        }

        @Override
        Block<Long, Long> build() {
            AllToAll<Long, Long> a = AllToAll.of(nl, left::node, nr, () -> right.node().andThen(router.node()))
                    .dispatch(dispatch(dispatching));
            if (channels != null) {
                a.channels(channels);
            }
            return pairwise ? a.feedbackPairwise() : a.feedback();
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            return loop(in, m, left, right, router);
        }

        @Override
        boolean exitsRoute() {
            return true;
        }

        @Override
        int nodes() {
            return nl + nr;
        }

        @Override
        int entries() {
            return nl;
        }

        @Override
        int exits() {
            return nr;
        }

        @Override
        long additive() {
            return router.threshold;
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            if (isMpsc(channels)) {
                out.add("MPSC channel");
            }
        }

        @Override
        void tags(Set<String> out) {
            out.add(pairwise ? "a2a-feedback-pairwise" : "a2a-feedback");
            out.add("multi-head-loop");
            left.tags(out);
            right.tags(out);
        }

        @Override
        int depth() {
            return 2;
        }

        @Override
        String describe() {
            return "a2aloop" + nl + "x" + nr + "{" + (pairwise ? "pairwise" : "NxM") + "," + dispatching
                    + (channels == null ? "" : "," + channels) + "}(" + left.describe() + " | " + right.describe() + " -> "
                    + router.describe() + ")";
        }
    }

    /** One node instance in two places (as a stage, and inside a comb): refused. */
    static final class ReuseSpec extends Spec {
        final NodeSpec inner;

        ReuseSpec(NodeSpec inner) {
            this.inner = inner;
        }

        @Override
        @SuppressWarnings("unchecked")
        Block<Long, Long> build() {
            Node<Long, Long> twice = inner.node();
            return (Block<Long, Long>) (Block<?, ?>) Pipeline.of(twice, Nodes.<Long>identity().andThen(twice));
        }

        @Override
        List<Long> apply(List<Long> in, Model m) {
            return inner.apply(inner.apply(in, m), m);
        }

        @Override
        boolean ordered() {
            return true;
        }

        @Override
        int nodes() {
            return 2;
        }

        @Override
        void refusals(List<String> out, boolean inLoop) {
            out.add("appears twice");
        }

        @Override
        void tags(Set<String> out) {
            out.add("reuse");
        }

        @Override
        String describe() {
            return "reuse(" + inner.describe() + ")";
        }
    }

    // ---- the generator -------------------------------------------------------------------------

    static boolean isMpsc(ChannelSpec s) {
        return s != null && s.kind() == Channel.Kind.MPSC;
    }

    static void specTags(ChannelSpec s, Set<String> out) {
        if (s == null) {
            return;
        }
        out.add(s.kind() == Channel.Kind.SPSC_UNBOUNDED ? "unbounded" : s.kind() == Channel.Kind.MPSC ? "mpsc"
                : s.capacity() == 1 ? "capacity-1" : "bounded");
        if (s.waitStrategyOrNull() != null) {
            out.add("edge-wait-strategy");
        }
    }

    /** A channel specification, or null (the default); MPSC only where {@code mpscOk}; busy-spin only in small flows. */
    static ChannelSpec randomSpec(Random rnd, boolean small, boolean mpscOk) {
        ChannelSpec s;
        switch (rnd.nextInt(9)) {
            case 0: case 1: case 2: return null;
            case 3: s = ChannelSpec.bounded(1); break;
            case 4: s = ChannelSpec.unbounded(); break;
            case 5: s = mpscOk && rnd.nextInt(3) == 0 ? ChannelSpec.mpsc(1 + rnd.nextInt(8)) : ChannelSpec.bounded(2); break;
            default: s = ChannelSpec.bounded(2 + rnd.nextInt(63));
        }
        if (rnd.nextInt(4) == 0) {
            s = s.withWaitStrategy(randomStrategy(rnd, small));
        }
        return s;
    }

    static WaitStrategy randomStrategy(Random rnd, boolean small) {
        switch (rnd.nextInt(small ? 7 : 6)) {
            case 0: return WaitStrategy.blocking();
            case 1: return WaitStrategy.backoff(1 + rnd.nextInt(64), rnd.nextInt(16), Duration.ofNanos(1000),
                    Duration.ofMillis(1));
            case 2: return WaitStrategy.of(() -> new BackoffIdleStrategy(1, 1, 1_000, 200_000));
            case 3: return WaitStrategy.of(() -> new SleepingIdleStrategy(20_000));
            case 4: return small ? WaitStrategy.of(YieldingIdleStrategy::new) : WaitStrategy.backoff();
            case 6: return WaitStrategy.busySpin();
            default: return WaitStrategy.backoff();
        }
    }

    static String strategyTag(WaitStrategy s) {
        String d = s.toString();
        return "wait:" + (d.startsWith("backoff(") && !d.equals(WaitStrategy.backoff().toString()) ? "backoff-params"
                : d.startsWith("agrona") || d.contains("IdleStrategy") ? "agrona" : d.replaceAll("\\(.*", ""));
    }

    static NodeSpec leaf(Random rnd) {
        int k = rnd.nextInt(1000);
        switch (rnd.nextInt(9)) {
            case 0: case 1: return new FilterSpec(k);
            case 2: case 3: return new ExpandSpec(k);
            case 4: return rnd.nextInt(4) == 0 ? new FailSpec(k, rnd.nextInt(499)) : new MapSpec(k);
            case 5: return new CombSpec(leaf(rnd), leaf(rnd));
            case 6: return new IdentitySpec();
            default: return new MapSpec(k);
        }
    }

    static Spec random(Random rnd, int depth) {
        if (depth <= 1) {
            return rnd.nextInt(8) == 0 ? new UnboxedSpec(rnd) : leaf(rnd);
        }
        int kind = rnd.nextInt(100);
        if (kind < 10) {
            return leaf(rnd);
        }
        if (kind < 16) {
            return new UnboxedSpec(rnd);
        }
        if (kind < 34) {
            List<Spec> stages = new ArrayList<>();
            int n = 1 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                stages.add(random(rnd, depth - 1));
            }
            return new PipeSpec(stages, rnd, false);
        }
        if (kind < 62) {
            return randomFarm(rnd, depth);
        }
        if (kind < 66) {
            return new ScatterSpec(1 + rnd.nextInt(3), rnd.nextInt(6), rnd.nextInt(100), rnd.nextBoolean());
        }
        if (kind < 76) {
            Dispatching d = Dispatching.values()[rnd.nextInt(4)];
            return new A2ASpec(random(rnd, depth - 2), random(rnd, depth - 2), 1 + rnd.nextInt(3), 1 + rnd.nextInt(3), d,
                    rnd.nextInt(5) == 0 ? randomSpec(rnd, false, true) : null);
        }
        if (kind < 99) {
            return randomLoop(rnd, depth);
        }
        return new ReuseSpec(leaf(rnd));
    }

    static Spec randomFarm(Random rnd, int depth) {
        // mostly the combinations that run, sometimes one a rule refuses
        boolean valid = rnd.nextInt(8) != 0;
        Collect[] collects = {Collect.FIRST_COME, Collect.FIRST_COME, Collect.ROUND_ROBIN, Collect.GATHER, Collect.ORDERED,
            Collect.ORDERED, Collect.NONE};
        Collect c = collects[rnd.nextInt(collects.length)];
        Dispatching d = Dispatching.values()[rnd.nextInt(4)];
        boolean emitter = rnd.nextInt(6) != 0;
        Spec worker;
        if (valid && (c == Collect.ORDERED || c == Collect.ROUND_ROBIN || c == Collect.GATHER)) {
            worker = randomChain(rnd, depth - 1);
            emitter = true;
            if (c == Collect.ORDERED) {
                d = rnd.nextBoolean() ? Dispatching.ROUND_ROBIN : Dispatching.ON_DEMAND;
            } else if (c == Collect.ROUND_ROBIN) {
                d = Dispatching.ROUND_ROBIN;
            } else if (d != Dispatching.BROADCAST) {
                d = Dispatching.ROUND_ROBIN;
            }
        } else {
            worker = random(rnd, depth - 1);
        }
        if (!emitter && d == Dispatching.BROADCAST) {
            d = Dispatching.ROUND_ROBIN;
        }
        int window = c == Collect.ORDERED && rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(8) : 0;
        NodeSpec userEmitter = rnd.nextInt(6) == 0 ? leaf(rnd) : null;
        NodeSpec userCollector = rnd.nextInt(6) == 0 ? leaf(rnd) : null;
        ChannelSpec channels = rnd.nextInt(3) == 0 ? randomSpec(rnd, false, !valid || c == Collect.FIRST_COME
                || c == Collect.NONE) : null;
        return new FarmSpec(worker, 1 + rnd.nextInt(3), d, c, window, emitter, userEmitter, userCollector, channels);
    }

    /** A node, a comb, unboxed stages, or a pipeline of them: an ordered or strict farm's worker. */
    static Spec randomChain(Random rnd, int depth) {
        if (depth <= 1 || rnd.nextInt(3) == 0) {
            return rnd.nextInt(5) == 0 ? chainUnboxed(rnd) : leaf(rnd);
        }
        List<Spec> stages = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            stages.add(randomChain(rnd, depth - 1));
        }
        return new PipeSpec(stages, rnd, false);
    }

    static Spec chainUnboxed(Random rnd) {
        UnboxedSpec u;
        do {
            u = new UnboxedSpec(rnd);
        } while (!u.chain());
        return u;
    }

    static Spec randomLoop(Random rnd, int depth) {
        boolean valid = rnd.nextInt(10) != 0;
        int shape = rnd.nextInt(10);
        if (shape < 4) {
            Spec head;
            int h = rnd.nextInt(6);
            if (h == 0 && depth >= 3) {
                head = randomLoop(rnd, depth - 1); // nested loops: the outer loop shares the inner one's head
            } else {
                head = leaf(rnd);
            }
            if (!head.isNode() && !head.headsLoop()) {
                head = leaf(rnd);
            }
            if (head.entries() != 1) {
                head = leaf(rnd);
            }
            Spec body = valid ? loopFree(rnd, depth - 1) : random(rnd, depth - 1);
            return new LoopSpec(head, body);
        }
        if (shape < 7) {
            NodeSpec e = rnd.nextInt(3) == 0 ? leaf(rnd) : null;
            Spec body = valid ? loopFree(rnd, depth - 2) : random(rnd, depth - 2);
            Collect c = rnd.nextInt(3) == 0 ? Collect.NONE : Collect.FIRST_COME;
            if (!valid && rnd.nextBoolean()) {
                c = new Collect[] {Collect.ORDERED, Collect.ROUND_ROBIN, Collect.GATHER}[rnd.nextInt(3)];
            }
            ChannelSpec ch = rnd.nextInt(4) == 0 ? randomSpec(rnd, false, !valid) : null;
            boolean fromCollector = rnd.nextInt(4) == 0;
            if (valid && fromCollector && rnd.nextInt(3) == 0) {
                c = Collect.ORDERED; // an ordered farm whose collector closes the loop
                body = randomChain(rnd, depth - 2);
            }
            return new FarmLoopSpec(e, body, 1 + rnd.nextInt(3), fromCollector, c, ch);
        }
        int nl = 1 + rnd.nextInt(3);
        boolean pairwise = rnd.nextInt(3) == 0;
        ChannelSpec ch = rnd.nextInt(4) == 0 ? randomSpec(rnd, false, !valid) : null;
        return new A2ALoopSpec(leaf(rnd), leaf(rnd), nl, 1 + rnd.nextInt(3), pairwise, Dispatching.values()[rnd.nextInt(4)],
                ch);
    }

    /** Any block without a loop inside (a loop's way round). */
    static Spec loopFree(Random rnd, int depth) {
        for (int i = 0; i < 20; i++) {
            Spec s = random(rnd, Math.max(1, depth));
            if (!s.hasLoop()) {
                return s;
            }
        }
        return leaf(rnd);
    }

    // ---- one shape ---------------------------------------------------------------------------

    /** A composition at the top: a source, the spec (or a loop its generator heads), a sink. */
    static final class Shape {
        final long seed;
        final Spec spec;
        /** A loop headed by the flow's generator: Pipeline.of(generator, body, router).feedback() before the spec. */
        final Spec generatorBody;
        final RouterSpec generatorRouter;
        final List<Long> input;
        final ChannelSpec intoSpec;
        final ChannelSpec intoSink;
        final FlowOptions options;
        final WaitStrategy strategy;
        final ChannelSpec defaults;
        /** Cancel once the sink received this many items (-1: never); cancel after this many microseconds (-1: never). */
        final int cancelAt;
        final int cancelAfterMicros;

        Shape(long seed) {
            this.seed = seed;
            Random rnd = new Random(seed);
            int depth = 1 + rnd.nextInt(5);
            Spec s;
            do {
                s = random(rnd, depth);
            } while (s.nodes() > MAX_NODES);
            this.spec = s;
            if (rnd.nextInt(12) == 0) {
                Spec body = loopFree(rnd, 2);
                generatorBody = body.nodes() + s.nodes() + 3 <= MAX_NODES ? body : null;
            } else {
                generatorBody = null;
            }
            generatorRouter = generatorBody == null ? null
                    : LoopingSpec.router(generatorBody.gain(), generatorBody.additive(), 1);
            int len = rnd.nextInt(6) == 0 ? rnd.nextInt(3) : rnd.nextInt(160);
            List<Long> in = new ArrayList<>(len);
            for (int i = 0; i < len; i++) {
                in.add((long) rnd.nextInt(10_000) - 5_000);
            }
            this.input = in;
            int nodes = nodes();
            boolean small = nodes <= 4;
            this.intoSpec = randomSpec(rnd, small, !spec.headsLoop() && generatorBody == null);
            this.intoSink = randomSpec(rnd, small, true);
            this.strategy = randomStrategy(rnd, small);
            ChannelSpec d = randomSpec(rnd, small, false);
            this.defaults = d == null ? ChannelSpec.defaults() : d;
            this.options = FlowOptions.defaults().withWaitStrategy(strategy).withChannels(defaults);
            int c = rnd.nextInt(20);
            this.cancelAt = c == 0 ? rnd.nextInt(Math.max(1, len)) : -1;
            this.cancelAfterMicros = c == 1 ? rnd.nextInt(3000) : -1;
        }

        int nodes() {
            return spec.nodes() + 2 + (generatorBody == null ? 0 : generatorBody.nodes() + 1);
        }

        String name() {
            return "shape" + Long.toHexString(seed);
        }

        List<String> refusals() {
            List<String> r = new ArrayList<>();
            spec.refusals(r, false);
            if (generatorBody != null) {
                generatorBody.refusals(r, true);
            }
            if (isMpsc(intoSpec) && spec.headsLoop() && generatorBody == null) {
                r.add("MPSC channels");
            }
            return r;
        }

        List<Long> model(Model m) {
            List<Long> in = input;
            if (generatorBody != null) {
                in = new LoopSpec(new IdentitySpec(), generatorBody).loop(in, m, null, generatorBody, generatorRouter);
            }
            return spec.apply(in, m);
        }

        boolean ordered() {
            return generatorBody == null && spec.ordered() && spec.entries() == 1 && spec.exits() == 1;
        }

        Set<String> tags() {
            Set<String> t = new TreeSet<>();
            spec.tags(t);
            if (generatorBody != null) {
                t.add("generator-loop");
                generatorBody.tags(t);
            }
            specTags(intoSpec, t);
            specTags(intoSink, t);
            specTags(defaults, t);
            t.add(strategyTag(strategy));
            if (cancelAt >= 0 || cancelAfterMicros >= 0) {
                t.add("cancel");
            }
            t.add("depth-" + Math.min(5, spec.depth()));
            return t;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        Block<?, ?> build(Node<Long, Void> sink) {
            Block<?, ?> head;
            if (generatorBody != null) {
                List<Long> items = input;
                Source<Long> generator = new Source<>() {
                    @Override
                    public void generate(Outbox<Long> out) {
                        for (Long x : items) {
                            out.send(x);
                        }
                    }

                    @Override
                    public void onFeedback(Long x, Outbox<Long> out) {
                        out.send(x);
                    }
                };
                head = Pipeline.of(generator, generatorBody.build(), generatorRouter.node()).feedback();
            } else {
                head = Nodes.fromIterable(input);
            }
            Pipeline p = Pipeline.of(head).then(spec.build(), Topology.AUTO, intoSpec).then(sink, Topology.AUTO, intoSink);
            return p.named(name());
        }

        String describe() {
            return (generatorBody == null ? "source" : "generator-loop[" + generatorBody.describe() + " -> "
                    + generatorRouter.describe() + "]") + " -" + intoSpec + "-> " + spec.describe() + " -" + intoSink
                    + "-> sink; " + input.size() + " items, wait " + strategy + ", channels " + defaults
                    + (cancelAt >= 0 ? ", cancel at item " + cancelAt : "")
                    + (cancelAfterMicros >= 0 ? ", cancel after " + cancelAfterMicros + " us" : "");
        }
    }

    /** How one shape ended. */
    enum Outcome { COMPLETED, REFUSED, FAILED_AS_MODELLED, CANCELLED }

    static String reproduce(long seed) {
        return "reproduce this shape: ./mvnw -B verify -pl bbflow-core -am -Dtest=RandomCompositionTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dbbflow.shape=" + seed;
    }

    /** Runs one shape against its model; throws an AssertionError naming the seed on any difference. */
    static Outcome check(Shape shape) {
        Model m = new Model();
        List<Long> expected = shape.model(m);
        List<String> refusals = shape.refusals();
        Supplier<String> what = () -> "seed " + shape.seed + ": " + shape.describe() + "\n" + reproduce(shape.seed);
        Runs.Collector<Long> out = new Runs.Collector<>();
        AtomicReference<Flow> self = new AtomicReference<>();
        int cancelAt = shape.cancelAt;
        Node<Long, Void> sink = cancelAt < 0 ? out.sink() : Nodes.sink((Long x) -> {
            out.items.add(x);
            if (out.items.size() == cancelAt + 1) {
                Flow f = self.get();
                if (f != null) {
                    f.cancel();
                }
            }
        });
        Flow flow;
        try {
            flow = Flow.start(shape.build(sink), shape.options);
        } catch (IllegalStateException e) {
            if (refusals.isEmpty()) {
                throw new AssertionError("refused at start, but the model breaks no rule: " + e.getMessage() + "\n"
                        + what.get(), e);
            }
            for (String rule : refusals) {
                if (e.getMessage() != null && e.getMessage().contains(rule)) {
                    return Outcome.REFUSED;
                }
            }
            throw new AssertionError("refused for another rule than " + refusals + ": " + e.getMessage() + "\n" + what.get(), e);
        }
        if (!refusals.isEmpty()) {
            flow.cancel();
            joinQuietly(flow);
            throw new AssertionError("started, but the model breaks " + refusals + "\n" + what.get());
        }
        self.set(flow);
        if (shape.cancelAfterMicros >= 0) {
            long until = System.nanoTime() + shape.cancelAfterMicros * 1000L;
            while (System.nanoTime() < until && !flow.isDone()) {
                Thread.onSpinWait();
            }
            flow.cancel();
        }
        if (cancelAt >= 0 && out.get().size() > cancelAt) {
            flow.cancel(); // the sink got there before the flow was known to it
        }
        FlowException failure = null;
        try {
            flow.join(DEADLINE);
        } catch (TimeoutException e) {
            String dump = threadDump(shape.name());
            flow.cancel();
            joinQuietly(flow);
            throw new AssertionError("hang: the flow did not end within " + DEADLINE + "\n" + flow.stats().table() + "\n"
                    + dump + what.get());
        } catch (FlowException e) {
            failure = e;
        }
        List<String> left = Runs.liveThreads(shape.name());
        if (!left.isEmpty()) {
            throw new AssertionError("threads left after join: " + left + "\n" + what.get());
        }
        List<Long> got = out.get();
        boolean failureModelled = m.plantedFailure || m.strictBroken;
        boolean cancelled = cancelAt >= 0 || shape.cancelAfterMicros >= 0;
        if (failure == null) {
            if (failureModelled) {
                throw new AssertionError("ended normally, but the model " + (m.plantedFailure ? "reached a planted failure"
                        : "has a worker break a strict collector's one result per item") + "\n" + what.get());
            }
            compare(expected, got, shape.ordered(), true, what);
            return Outcome.COMPLETED;
        }
        Throwable cause = failure.getCause();
        boolean asCancelled = cancelled && cause instanceof CancellationException;
        boolean asPlanted = m.plantedFailure && cause instanceof Planted;
        boolean asStrict = m.strictBroken && cause instanceof IllegalStateException && cause.getMessage() != null
                && cause.getMessage().contains("exactly one result per item");
        if (!asCancelled && !asPlanted && !asStrict) {
            throw new AssertionError("failed, and the model does not explain it: " + failure + "\n" + what.get(), failure);
        }
        compare(expected, got, shape.ordered() && !m.strictBroken, false, what);
        return asCancelled ? Outcome.CANCELLED : Outcome.FAILED_AS_MODELLED;
    }

    /**
     * The items delivered against the model: all of them (complete) or part of them (a flow that
     * failed or was cancelled: a prefix where order is promised, a sub-multiset otherwise).
     */
    static void compare(List<Long> expected, List<Long> got, boolean ordered, boolean complete, Supplier<String> what) {
        if (ordered) {
            boolean ok = complete ? expected.equals(got)
                    : got.size() <= expected.size() && expected.subList(0, got.size()).equals(got);
            if (!ok) {
                int i = 0;
                while (i < Math.min(expected.size(), got.size()) && expected.get(i).equals(got.get(i))) {
                    i++;
                }
                throw new AssertionError("sequence differs" + (complete ? "" : " (a prefix was due)") + ": expected "
                        + expected.size() + " items, got " + got.size() + ", first difference at index " + i + "\n" + what.get());
            }
            return;
        }
        Map<Long, Integer> counts = new TreeMap<>();
        for (long x : expected) {
            counts.merge(x, 1, Integer::sum);
        }
        for (long x : got) {
            Integer c = counts.get(x);
            if (c == null || c == 0) {
                throw new AssertionError("multiset differs: " + x + " delivered " + (c == null ? "but never due" : "too often")
                        + " (expected " + expected.size() + " items, got " + got.size() + ")\n" + what.get());
            }
            counts.put(x, c - 1);
        }
        if (complete && got.size() != expected.size()) {
            throw new AssertionError("multiset differs: expected " + expected.size() + " items, got " + got.size() + "\n"
                    + what.get());
        }
    }

    static void joinQuietly(Flow flow) {
        try {
            flow.join(DEADLINE);
        } catch (TimeoutException | FlowException e) {
            // reported by the caller
        }
    }

    /** The stack of every live thread of the flow named {@code root}. */
    static String threadDump(String root) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            if (t.getName().equals(root) || t.getName().startsWith(root + "/")) {
                b.append('"').append(t.getName()).append("\" ").append(t.getState()).append('\n');
                for (StackTraceElement s : e.getValue()) {
                    b.append("    at ").append(s).append('\n');
                }
            }
        }
        return b.toString();
    }

    @Test
    void randomCompositionsMatchTheSequentialOracle() {
        Long one = Long.getLong("bbflow.shape");
        long base = one != null ? one : TestSeed.current();
        int cases = one != null ? 1 : CASES;
        System.out.println("RandomCompositionTest: " + cases + " shapes from seed " + base
                + " (one shape again: -Dbbflow.shape=<its seed>)");
        long t0 = System.nanoTime();
        Map<Outcome, Integer> outcomes = new TreeMap<>();
        Map<String, Integer> coverage = new TreeMap<>();
        int skipped = 0;
        int deep = 0;
        for (int c = 0; c < cases; c++) {
            long seed = base + c;
            Shape shape = new Shape(seed);
            try {
                shape.model(new Model());
            } catch (TooBig e) {
                skipped++;
                continue;
            }
            Outcome o = check(shape);
            outcomes.merge(o, 1, Integer::sum);
            if (o != Outcome.REFUSED) {
                for (String t : shape.tags()) {
                    coverage.merge(t, 1, Integer::sum);
                }
                deep += shape.spec.depth() >= 4 ? 1 : 0;
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("RandomCompositionTest: " + cases + " shapes in " + ms + " ms: " + outcomes + ", " + skipped
                + " not run (the model needed over " + MAX_MODEL_WORK + " items), " + deep + " run at depth 4 or more");
        System.out.println("RandomCompositionTest coverage (shapes run per feature): " + coverage);
        if (cases >= 1000) {
            // the generator must keep reaching every block and option, and mostly shapes that run
            Set<String> missing = new TreeSet<>(List.of("pipeline", "farm", "dispatch:ROUND_ROBIN", "dispatch:ON_DEMAND",
                    "dispatch:BROADCAST", "dispatch:BY_KEY", "dispatch:SCATTER", "collect:FIRST_COME", "collect:ROUND_ROBIN",
                    "collect:GATHER", "collect:ORDERED", "collect:ORDERED+window", "collect:NONE", "no-emitter",
                    "user-emitter", "user-collector", "farm-feedback", "farm-feedback-from-collector",
                    "ordered-feedback-from-collector", "a2a",
                    "a2a-feedback", "a2a-feedback-pairwise", "multi-head-loop", "comb", "loop", "nested-loop",
                    "generator-loop", "longs", "doubles", "longs.batch", "doubles.batch", "farm-of-batches", "drop",
                    "multiply", "fail", "cancel", "capacity-1", "bounded", "unbounded", "mpsc", "edge-wait-strategy",
                    "wait:backoff", "wait:blocking", "wait:busy-spin", "wait:backoff-params", "wait:agrona", "depth-4",
                    "depth-5"));
            missing.removeAll(coverage.keySet());
            assertTrue(missing.isEmpty(), "features no shape ran: " + missing);
            assertTrue(outcomes.getOrDefault(Outcome.COMPLETED, 0) > cases / 2, "too few shapes ran to the end: " + outcomes);
            assertTrue(outcomes.getOrDefault(Outcome.REFUSED, 0) > 0, "no shape was refused: " + outcomes);
        }
    }

    /** The generator's own model, checked against two small shapes by hand. */
    @Test
    void theModelOfALoopEndsAndAgreesWithAHandComputation() {
        Model m = new Model();
        LoopSpec loop = new LoopSpec(new IdentitySpec(), new MapSpec(0));
        // 3x goes back as 3x / 12 while |3x| > 4000: 2000 -> 6000 -> 500 -> 1500 (out)
        List<Long> out = loop.apply(List.of(2000L, 10L), m);
        Collections.sort(out);
        assertTrue(out.equals(List.of(30L, 1500L)), String.valueOf(out));
        FarmSpec strict = new FarmSpec(new FilterSpec(0), 2, Dispatching.ROUND_ROBIN, Collect.ROUND_ROBIN, 0, true, null,
                null, null);
        strict.apply(List.of(1L, 3L), m);
        assertTrue(m.strictBroken, "a dropping worker behind a strict collector");
    }
}
