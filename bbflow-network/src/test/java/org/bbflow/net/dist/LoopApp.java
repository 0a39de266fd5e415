package org.bbflow.net.dist;

import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;
import org.bbflow.net.Codec;

/**
 * The program of the feedback-loop test jobs: items 1..n go round a loop whose blocks run partly in
 * groups w1 and w2, each item {@code k} for {@code k % 5 + 1} trips, then leave the loop forward to a
 * sink in the master that checks every item arrived once. An item in the loop is
 * {@code ((4k + tag) * 32 + h)}: {@code h} the trips left, {@code tag} 0 for an item from outside and
 * non-zero for one sent back. The node that receives fed-back items throws if
 * {@code fromFeedback()} disagrees with the tag, or (all-to-all) if an item came back to a left
 * member other than the one that sent it; a loop that ended early loses items or fails when the
 * late ones are sent back. Shapes:
 * <ul>
 *   <li>{@code FARM}: a farm with {@code feedback()}, workers in w1, w2 and the master; the emitter
 *       (master) sends items out, the workers take a trip off and send back, or forward with
 *       {@code sendTo(1, k)} when none is left.</li>
 *   <li>{@code PIPELINE}: a looping pipeline whose head stage runs in w1 (it is the loop's head and
 *       sees the fed-back items), middle stage in the master and last stage in w2.</li>
 *   <li>{@code A2A_RIGHT}, {@code A2A_LEFT}: an all-to-all of 2 x 2 with {@code feedback()}, one side
 *       in w1 and w2; right members send back with {@code send} (to the item's origin) and forward
 *       with {@code sendTo(2, k)}.</li>
 * </ul>
 */
public final class LoopApp {
    private LoopApp() {}

    /** Which loop the job runs, and where. */
    enum Shape { FARM, PIPELINE, A2A_RIGHT, A2A_LEFT }

    /** What the master saw: how many items left the loop, how often the emitter saw one fed back, the first problem. */
    record Outcome(long count, long fedBack, String problem) {
        boolean exact(long n, Shape shape) {
            return count == n && problem == null && (shape != Shape.FARM || fedBack == expectedFeedback(n));
        }
    }

    /** Trips of item k. */
    static long trips(long k) {
        return k % 5 + 1;
    }

    static long expectedFeedback(long n) {
        long s = 0;
        for (long k = 1; k <= n; k++) {
            s += trips(k) - 1;
        }
        return s;
    }

    static long item(long k, long tag, long h) {
        return (4 * k + tag) * 32 + h;
    }

    static long key(long v) {
        return v / 32 / 4;
    }

    static long tag(long v) {
        return v / 32 % 4;
    }

    static long tripsLeft(long v) {
        return v % 32;
    }

    static Outcome run(DistributedJob job, long n, Shape shape) {
        return run(job, n, shape, -1);
    }

    /** As {@link #run(DistributedJob, long, Shape)}; with {@code failFrom >= 0} the farm's workers in w2 throw on item failFrom and later. */
    static Outcome run(DistributedJob job, long n, Shape shape, long failFrom) {
        return run(job, n, shape, failFrom, null, () -> { }, o -> { });
    }

    /**
     * As {@link #run(DistributedJob, long, Shape, long)}; with a {@code cut}, the master's source ends
     * its stream with a {@link StreamFailure} of it after its last item (the items still in the loop go
     * on; the job then fails with {@code cut}). The master's sink runs {@code atEnd} at its end of
     * stream, and {@code seen} gets what this process saw, also when the run throws.
     */
    static Outcome run(DistributedJob job, long n, Shape shape, long failFrom, RuntimeException cut, Runnable atEnd,
                       Consumer<Outcome> seen) {
        long[] fedBack = new long[1];
        Block<Long, Long> loop = switch (shape) {
            case FARM -> farm(job, fedBack, failFrom);
            case PIPELINE -> pipeline(job);
            case A2A_RIGHT, A2A_LEFT -> allToAll(job, shape == Shape.A2A_RIGHT);
        };
        long[] count = new long[1];
        BitSet left = new BitSet();
        String[] problem = new String[1];
        Source<Long> source = cut == null ? Nodes.range(1, n) : Nodes.source((Outbox<Long> o) -> {
            for (long k = 1; k <= n; k++) {
                o.send(k);
            }
            throw new StreamFailure(cut);
        });
        try {
            job.run(Pipeline.of(source, Nodes.map((Long k) -> item(k, 0, trips(k))), loop, new Node<Long, Void>() {
                @Override
                public void onItem(Long k, Outbox<Void> out) {
                    count[0]++;
                    if ((k < 1 || k > n || left.get(k.intValue())) && problem[0] == null) {
                        problem[0] = "item " + k + " left the loop twice, or is not one";
                    }
                    left.set((int) Math.max(0, Math.min(n + 1, k)));
                }

                @Override
                public void onEos(Outbox<Void> out) {
                    atEnd.run();
                }
            }));
        } finally {
            seen.accept(new Outcome(count[0], fedBack[0], problem[0]));
        }
        return new Outcome(count[0], fedBack[0], problem[0]);
    }

    private static Block<Long, Long> farm(DistributedJob job, long[] fedBack, long failFrom) {
        Farm<Long, Long> farm = job.farm("loop", () -> Nodes.<Long, Long>flatMap((v, out) -> {
            if (failFrom >= 0 && key(v) >= failFrom && job.group().equals("w2")) {
                throw new IllegalStateException("item " + key(v) + " failed on purpose in the loop in group w2");
            }
            long h = tripsLeft(v) - 1;
            if (h == 0) {
                out.sendTo(1, key(v));
            } else {
                out.send(item(key(v), 1, h));
            }
        }), Codec.longs(), Codec.longs(), Placement.of("w1", "w2", "m"));
        return farm.emitter(node((ctx, v, out) -> {
            checkFedBack(ctx, v);
            if (ctx.fromFeedback()) {
                fedBack[0]++;
            }
            out.send(item(key(v), 0, tripsLeft(v)));
        })).feedback();
    }

    private static Block<Long, Long> pipeline(DistributedJob job) {
        Block<Long, Long> head = job.stage("head", () -> node((ctx, v, out) -> {
            checkFedBack(ctx, v);
            out.send(item(key(v), 0, tripsLeft(v)));
        }), Codec.longs(), Codec.longs(), "w1");
        Block<Long, Long> tail = job.stage("tail", () -> Nodes.<Long, Long>flatMap((v, out) -> {
            if (tripsLeft(v) == 0) {
                out.sendTo(1, key(v));
            } else {
                out.send(item(key(v), 1, tripsLeft(v)));
            }
        }), Codec.longs(), Codec.longs(), "w2");
        return Pipeline.<Long, Long>of(head, Nodes.map((Long v) -> v - 1), tail).feedback();
    }

    private static Block<Long, Long> allToAll(DistributedJob job, boolean rightInGroups) {
        Placement groups = Placement.of("w1", "w2");
        Placement master = Placement.of("m", "m");
        List<Block<Long, Long>> left = job.members("left", () -> node((ctx, v, out) -> {
            checkFedBack(ctx, v);
            // this left member's index: in the master its member index, in group wK member K - 1
            long me = job.isMaster() ? ctx.workerIndex() : Long.parseLong(job.group().substring(1)) - 1;
            if (tag(v) != 0 && tag(v) - 1 != me) {
                throw new IllegalStateException("item " + key(v) + " sent by left member " + (tag(v) - 1)
                        + " came back to left member " + me);
            }
            long k = key(v);
            // k / 2, not k: the input side of the all-to-all deals items round-robin to the left
            // members, so by k each right member would hear from one left member only
            out.sendTo((int) (k / 2 % out.outputCount()), item(k, 1 + me, tripsLeft(v)));
        }), Codec.longs(), Codec.longs(), rightInGroups ? master : groups);
        List<Block<Long, Long>> right = job.members("right", () -> node((ctx, v, out) -> {
            if (ctx.fromFeedback()) {
                throw new IllegalStateException("a right member saw item " + key(v) + " as fed back");
            }
            long h = tripsLeft(v) - 1;
            if (h == 0) {
                out.sendTo(out.outputCount() - 1, key(v));
            } else {
                out.send(item(key(v), tag(v), h)); // back to the left member it came from
            }
        }), Codec.longs(), Codec.longs(), rightInGroups ? groups : master);
        return AllToAll.<Long, Long>of(left, right).feedback();
    }

    /** What a node of these loops does with an item, seeing its context. */
    @FunctionalInterface
    private interface Step {
        void onItem(NodeContext ctx, Long v, Outbox<Long> out);
    }

    /** A node running {@code step} with its context. */
    private static Node<Long, Long> node(Step step) {
        return new Node<>() {
            private NodeContext ctx;

            @Override
            public void init(NodeContext context) {
                ctx = context;
            }

            @Override
            public void onItem(Long v, Outbox<Long> out) {
                step.onItem(ctx, v, out);
            }
        };
    }

    /** Throws if the item's tag and {@code fromFeedback()} disagree. */
    private static void checkFedBack(NodeContext ctx, long v) {
        if (ctx.fromFeedback() != (tag(v) != 0)) {
            throw new IllegalStateException("item " + key(v) + " with tag " + tag(v) + " arrived with fromFeedback() "
                    + ctx.fromFeedback());
        }
    }

    /**
     * Args: {@code n shape [failFrom]}; the job and group come from the system properties.
     *
     * @param args item count, the loop's shape, and the first item the farm's workers in w2 fail on
     */
    public static void main(String[] args) {
        DistApp.runAsChild(job -> run(job, Long.parseLong(args[0]), Shape.valueOf(args[1]),
                args.length > 2 ? Long.parseLong(args[2]) : -1));
    }
}
