package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;

/**
 * Property test: random compositions (depth up to 4) of pipelines, farms with random policies,
 * all-to-alls and combined nodes, with random channel capacities, wait strategies and per-item
 * delays, fed random inputs and compared with a sequential oracle: the exact sequence where every
 * block on the way promises order, the multiset otherwise.
 *
 * <p>Reproduce a failure with the line printed with it ({@code -Dbbflow.seed=<root seed>}, which
 * replays the same sequence of cases).
 */
@Timeout(600)
class RandomCompositionTest {
    static final int CASES = Integer.getInteger("bbflow.cases", TestTier.pick(500, 5_000));
    static final int MAX_NODES = 40;

    /** A random block description that can build fresh blocks and compute its result sequentially. */
    interface Spec {
        Block<Long, Long> build(Random rnd);

        List<Long> apply(List<Long> in);

        /** Output order equals the sequential order. */
        boolean ordered();

        /** A node or a pipeline of nodes (allowed as an ordered farm's worker). */
        boolean chain();

        int nodes();

        /** Exactly one output per input item. */
        boolean oneToOne();

        /** Input ports: what a broadcast upstream sends a copy to. */
        default int entries() {
            return 1;
        }

        String describe();
    }

    static void delay(long x, int k) {
        if (Math.floorMod(x * 31 + k, 97) == 0) {
            long end = System.nanoTime() + 20_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    static final class MapSpec implements Spec {
        final int k;

        MapSpec(int k) {
            this.k = k;
        }

        long f(long x) {
            return x * 3 + k;
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            return Nodes.map((Long x) -> {
                delay(x, k);
                return f(x);
            });
        }

        @Override
        public List<Long> apply(List<Long> in) {
            List<Long> out = new ArrayList<>();
            in.forEach(x -> out.add(f(x)));
            return out;
        }

        @Override
        public boolean ordered() {
            return true;
        }

        @Override
        public boolean chain() {
            return true;
        }

        @Override
        public boolean oneToOne() {
            return true;
        }

        @Override
        public int nodes() {
            return 1;
        }

        @Override
        public String describe() {
            return "map(3x+" + k + ")";
        }
    }

    static final class FilterSpec implements Spec {
        final int k;

        FilterSpec(int k) {
            this.k = k;
        }

        boolean keep(long x) {
            return Math.floorMod(x + k, 3) != 0;
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            return Nodes.filter((Long x) -> keep(x));
        }

        @Override
        public List<Long> apply(List<Long> in) {
            List<Long> out = new ArrayList<>();
            in.forEach(x -> {
                if (keep(x)) {
                    out.add(x);
                }
            });
            return out;
        }

        @Override
        public boolean ordered() {
            return true;
        }

        @Override
        public boolean chain() {
            return true;
        }

        @Override
        public boolean oneToOne() {
            return false;
        }

        @Override
        public int nodes() {
            return 1;
        }

        @Override
        public String describe() {
            return "filter(+" + k + ")";
        }
    }

    static final class ExpandSpec implements Spec {
        final int k;

        ExpandSpec(int k) {
            this.k = k;
        }

        void expand(long x, List<Long> out) {
            out.add(x);
            if (Math.floorMod(x, 4) == k % 4) {
                out.add(x + 7);
                out.add(-x);
            }
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            return Nodes.flatMap((Long x, Outbox<Long> o) -> {
                List<Long> l = new ArrayList<>(3);
                expand(x, l);
                l.forEach(o::send);
            });
        }

        @Override
        public List<Long> apply(List<Long> in) {
            List<Long> out = new ArrayList<>();
            in.forEach(x -> expand(x, out));
            return out;
        }

        @Override
        public boolean ordered() {
            return true;
        }

        @Override
        public boolean chain() {
            return true;
        }

        @Override
        public boolean oneToOne() {
            return false;
        }

        @Override
        public int nodes() {
            return 1;
        }

        @Override
        public String describe() {
            return "expand(" + k + ")";
        }
    }

    /** Two node specs fused with Comb. */
    static final class CombSpec implements Spec {
        final Spec a;
        final Spec b;

        CombSpec(Spec a, Spec b) {
            this.a = a;
            this.b = b;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Block<Long, Long> build(Random rnd) {
            return Comb.of((Node<Long, Long>) a.build(rnd), (Node<Long, Long>) b.build(rnd));
        }

        @Override
        public List<Long> apply(List<Long> in) {
            return b.apply(a.apply(in));
        }

        @Override
        public boolean ordered() {
            return true;
        }

        @Override
        public boolean chain() {
            return true;
        }

        @Override
        public boolean oneToOne() {
            return a.oneToOne() && b.oneToOne();
        }

        @Override
        public int nodes() {
            return 1;
        }

        @Override
        public String describe() {
            return "comb(" + a.describe() + "," + b.describe() + ")";
        }
    }

    static final class PipeSpec implements Spec {
        final List<Spec> stages;
        final List<ChannelSpec> specs = new ArrayList<>();

        PipeSpec(List<Spec> stages, Random rnd) {
            this.stages = stages;
            for (int i = 0; i < stages.size(); i++) {
                specs.add(randomSpec(rnd));
            }
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            Pipeline<Long, Long> p = Pipeline.of(stages.get(0).build(rnd));
            for (int i = 1; i < stages.size(); i++) {
                p = p.then(stages.get(i).build(rnd), Topology.AUTO, specs.get(i));
            }
            return p;
        }

        @Override
        public List<Long> apply(List<Long> in) {
            List<Long> x = in;
            for (Spec s : stages) {
                x = s.apply(x);
            }
            return x;
        }

        @Override
        public boolean ordered() {
            return stages.stream().allMatch(Spec::ordered);
        }

        @Override
        public boolean chain() {
            return stages.stream().allMatch(Spec::chain);
        }

        @Override
        public boolean oneToOne() {
            return stages.stream().allMatch(Spec::oneToOne);
        }

        @Override
        public int nodes() {
            return stages.stream().mapToInt(Spec::nodes).sum();
        }

        @Override
        public int entries() {
            return stages.get(0).entries();
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder("pipe[");
            for (int i = 0; i < stages.size(); i++) {
                b.append(i == 0 ? "" : " -" + specs.get(i) + "-> ").append(stages.get(i).describe());
            }
            return b.append("]").toString();
        }
    }

    static final class FarmSpec implements Spec {
        final Spec worker;
        final int n;
        final int dispatch; // 0 rr, 1 on-demand, 2 by-key, 3 broadcast
        final Collect collect;
        final boolean emitter;
        final ChannelSpec channels;

        FarmSpec(Spec worker, int n, int dispatch, Collect collect, boolean emitter, ChannelSpec channels) {
            this.worker = worker;
            this.n = n;
            this.dispatch = dispatch;
            this.collect = collect;
            this.emitter = emitter;
            this.channels = channels;
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            Farm<Long, Long> f = Farm.of(n, () -> worker.build(rnd));
            switch (dispatch) {
                case 1: f.dispatch(Dispatch.onDemand()); break;
                case 2: f.dispatch(Dispatch.<Long>byKey(x -> x % 13)); break;
                case 3: f.dispatch(Dispatch.broadcast()); break;
                default: break;
            }
            f.collect(collect);
            if (!emitter) {
                f.withoutEmitter();
            }
            if (channels != null) {
                f.channels(channels);
            }
            return f;
        }

        @Override
        public List<Long> apply(List<Long> in) {
            List<Long> out = new ArrayList<>();
            // broadcast sends one copy to every input port of every worker
            int copies = dispatch == 3 && emitter ? n * worker.entries() : 1;
            for (int c = 0; c < copies; c++) {
                out.addAll(worker.apply(in));
            }
            return out;
        }

        @Override
        public boolean ordered() {
            return (collect == Collect.ORDERED && worker.ordered()) || (n == 1 && worker.ordered() && dispatch != 3);
        }

        @Override
        public boolean chain() {
            return false;
        }

        @Override
        public boolean oneToOne() {
            return worker.oneToOne() && dispatch != 3;
        }

        @Override
        public int nodes() {
            return n * worker.nodes() + (emitter ? 1 : 0) + (collect == Collect.NONE ? 0 : 1);
        }

        @Override
        public int entries() {
            return emitter ? 1 : n * worker.entries();
        }

        @Override
        public String describe() {
            return "farm" + n + "{" + new String[] {"rr", "ondemand", "bykey", "bcast"}[dispatch] + "," + collect
                    + (emitter ? "" : ",noemitter") + (channels == null ? "" : "," + channels) + "}(" + worker.describe() + ")";
        }
    }

    static final class A2ASpec implements Spec {
        final Spec left;
        final Spec right;
        final int nl;
        final int nr;
        final boolean byKey;

        A2ASpec(Spec left, Spec right, int nl, int nr, boolean byKey) {
            this.left = left;
            this.right = right;
            this.nl = nl;
            this.nr = nr;
            this.byKey = byKey;
        }

        @Override
        public Block<Long, Long> build(Random rnd) {
            AllToAll<Long, Long> a = AllToAll.of(nl, () -> left.build(rnd), nr, () -> right.build(rnd));
            if (byKey) {
                a.dispatch(Dispatch.<Long>byKey(x -> x % 7));
            }
            return a;
        }

        @Override
        public List<Long> apply(List<Long> in) {
            return right.apply(left.apply(in));
        }

        @Override
        public boolean ordered() {
            return nl == 1 && nr == 1 && left.ordered() && right.ordered();
        }

        @Override
        public boolean chain() {
            return false;
        }

        @Override
        public boolean oneToOne() {
            return left.oneToOne() && right.oneToOne();
        }

        @Override
        public int nodes() {
            return nl * left.nodes() + nr * right.nodes();
        }

        @Override
        public int entries() {
            return nl * left.entries();
        }

        @Override
        public String describe() {
            return "a2a" + nl + "x" + nr + (byKey ? "{bykey}" : "") + "(" + left.describe() + " | " + right.describe() + ")";
        }
    }

    static ChannelSpec randomSpec(Random rnd) {
        switch (rnd.nextInt(6)) {
            case 0: return null;
            case 1: return ChannelSpec.unbounded();
            case 2: return ChannelSpec.bounded(2 + rnd.nextInt(6)).withWaitStrategy(WaitStrategy.blocking());
            default: return ChannelSpec.bounded(2 + rnd.nextInt(64));
        }
    }

    static Spec leaf(Random rnd) {
        int k = rnd.nextInt(1000);
        switch (rnd.nextInt(4)) {
            case 0: return new FilterSpec(k);
            case 1: return new ExpandSpec(k);
            default: return new MapSpec(k);
        }
    }

    static Spec random(Random rnd, int depth) {
        int kind = depth <= 1 ? rnd.nextInt(2) : rnd.nextInt(6);
        switch (kind) {
            case 0: return leaf(rnd);
            case 1: return rnd.nextBoolean() ? leaf(rnd) : new CombSpec(leaf(rnd), leaf(rnd));
            case 2: case 3: {
                List<Spec> stages = new ArrayList<>();
                int n = 1 + rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    stages.add(random(rnd, depth - 1));
                }
                return new PipeSpec(stages, rnd);
            }
            case 4: {
                Spec w = random(rnd, depth - 1);
                int dispatch = rnd.nextInt(4);
                Collect[] all = {Collect.FIRST_COME, Collect.ROUND_ROBIN, Collect.ORDERED, Collect.NONE};
                Collect c = all[rnd.nextInt(all.length)];
                boolean emitter = rnd.nextInt(5) != 0;
                if (c == Collect.ORDERED && (!w.chain() || dispatch != 0 || !emitter)) {
                    c = Collect.FIRST_COME;
                }
                if (c == Collect.ROUND_ROBIN && (!emitter || dispatch != 0 || !w.oneToOne())) {
                    c = Collect.FIRST_COME;
                }
                if (!emitter && dispatch == 3) {
                    dispatch = 0;
                }
                ChannelSpec cs = rnd.nextBoolean() ? null : ChannelSpec.bounded(2 + rnd.nextInt(32));
                return new FarmSpec(w, 1 + rnd.nextInt(3), dispatch, c, emitter, cs);
            }
            default:
                return new A2ASpec(random(rnd, depth - 2), random(rnd, depth - 2), 1 + rnd.nextInt(3), 1 + rnd.nextInt(3),
                        rnd.nextBoolean());
        }
    }

    /**
     * A round-robin collector strictly alternates: it stalls if a worker produces no result while
     * others do, waiting for that worker's next result or EOS. That is correct (no item is lost and
     * the flow ends), so it needs no special case here.
     */
    @Test
    void randomCompositionsMatchTheSequentialOracle() {
        long base = TestSeed.current();
        int cases = CASES;
        WaitStrategy[] strategies = {WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin()};
        int ran = 0;
        for (int c = 0; c < cases; c++) {
            long seed = base + c;
            Random rnd = new Random(seed);
            Spec spec = random(rnd, 1 + rnd.nextInt(4));
            if (spec.nodes() > MAX_NODES) {
                c--;
                base++;
                continue;
            }
            WaitStrategy ws = strategies[rnd.nextInt(spec.nodes() <= 6 ? 3 : 2)];
            List<Long> input = new ArrayList<>();
            int len = rnd.nextInt(5) == 0 ? rnd.nextInt(3) : rnd.nextInt(400);
            for (int i = 0; i < len; i++) {
                input.add((long) rnd.nextInt(10_000) - 5_000);
            }
            List<Long> expected = spec.apply(input);
            Runs.Collector<Long> out = new Runs.Collector<>();
            Supplier<String> what = () -> "seed " + seed + ", strategy " + ws
                    + ", input " + input.size() + " items, graph " + spec.describe();
            try {
                Runs.run(Pipeline.of(Nodes.fromIterable(input), spec.build(rnd), out.sink()),
                        FlowOptions.defaults().withWaitStrategy(ws).withChannels(randomSpecOrDefault(rnd)));
            } catch (Throwable t) {
                throw new AssertionError("flow failed: " + what.get(), t);
            }
            List<Long> got = out.get();
            if (!spec.ordered()) {
                Collections.sort(expected);
                Collections.sort(got);
            }
            if (!expected.equals(got)) {
                int i = 0;
                while (i < Math.min(expected.size(), got.size()) && expected.get(i).equals(got.get(i))) {
                    i++;
                }
                throw new AssertionError((spec.ordered() ? "sequence" : "multiset") + " differs: expected " + expected.size()
                        + " items, got " + got.size() + ", first difference at index " + i + ": " + what.get());
            }
            ran++;
        }
        assertEquals(cases, ran);
    }

    private static ChannelSpec randomSpecOrDefault(Random rnd) {
        ChannelSpec s = randomSpec(rnd);
        return s == null ? ChannelSpec.defaults() : s;
    }
}
