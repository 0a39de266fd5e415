package org.bbflow.net.dist;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;
import org.bbflow.net.Codec;

/**
 * The program of the all-to-all test job: 1..n into an all-to-all of 2 left and 2 right members, then
 * to a sink in the master. One side runs in groups w1 and w2 ({@link DistributedJob#members}), the
 * other in the master. Each left member broadcasts every fifth item and sends item {@code x} to right
 * member {@code x % outputCount()} with {@code sendTo} (the all-to-all's own policy, round-robin,
 * would spread each key over both);
 * each right member passes on what it gets, tagged. The result is
 * {@code x * 1000 + 100 * left + 10 * right + inputIndex}, where a member in group wK counts as K, one
 * in the master as 3 + its index, and {@code inputIndex} is what the right member saw as the input
 * of the item; so the sink can check that every item arrived once, went to the right member its key
 * chose, and that the right member knew which left member sent it, wherever each side ran.
 */
public final class AllToAllApp {
    private AllToAllApp() {}

    /** Which side runs in the worker groups. */
    enum Remote { LEFT, RIGHT }

    /** What the master saw: how many results and the first problem found. */
    record Outcome(long count, String problem) {
        boolean exact(long n) {
            return count == n + n / 5 && problem == null;
        }
    }

    static Outcome run(DistributedJob job, long n, Remote remote) {
        return run(job, n, remote, null, () -> { }, o -> { });
    }

    /**
     * As {@link #run(DistributedJob, long, Remote)}; with a {@code cut}, the master's source ends its
     * stream with a {@link StreamFailure} of it after its last item (every item goes on; the job then
     * fails with {@code cut}). The master's sink runs {@code atEnd} at its end of stream, and
     * {@code seen} gets what this process saw, also when the run throws.
     */
    static Outcome run(DistributedJob job, long n, Remote remote, RuntimeException cut, Runnable atEnd,
                       Consumer<Outcome> seen) {
        Placement groups = Placement.of("w1", "w2");
        Placement master = Placement.of("m", "m");
        AtomicInteger leftInMaster = new AtomicInteger();
        AtomicInteger rightInMaster = new AtomicInteger();
        List<Block<Long, Long>> left = job.members("left", () -> {
            long tag = 100 * tagOf(job, leftInMaster);
            return new Node<Long, Long>() {
                @Override
                public void onItem(Long x, Outbox<Long> out) {
                    if (x % 5 == 0) {
                        out.broadcast(x * 1000 + tag);
                    } else {
                        out.sendTo((int) (x % out.outputCount()), x * 1000 + tag);
                    }
                }
            };
        }, Codec.longs(), Codec.longs(), remote == Remote.LEFT ? groups : master);
        List<Block<Long, Long>> right = job.members("right", () -> {
            long tag = 10 * tagOf(job, rightInMaster);
            return new Node<Long, Long>() {
                private NodeContext ctx;

                @Override
                public void init(NodeContext context) {
                    ctx = context;
                }

                @Override
                public void onItem(Long y, Outbox<Long> out) {
                    out.send(y + tag + ctx.inputIndex());
                }
            };
        }, Codec.longs(), Codec.longs(), remote == Remote.RIGHT ? groups : master);
        AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(left, right);
        long[] count = new long[1];
        BitSet[] seenAt = {new BitSet(), new BitSet()};
        String[] problem = new String[1];
        Source<Long> source = cut == null ? Nodes.range(1, n) : Nodes.source((Outbox<Long> o) -> {
            for (long x = 1; x <= n; x++) {
                o.send(x);
            }
            throw new StreamFailure(cut);
        });
        try {
            run(job, source, a2a, z -> {
                count[0]++;
                long x = z / 1000;
                int l = (int) (z / 100 % 10);
                int r = (int) (z / 10 % 10);
                int from = (int) (z % 10);
                String wrong = null;
                if (x < 1 || x > n || !realMember(r, remote == Remote.RIGHT) || seenAt[indexOf(r)].get((int) x)) {
                    wrong = "item " + x + " is out of range or doubled, or right member " + r + " is not one";
                } else if (!realMember(l, remote == Remote.LEFT) || !realMember(r, remote == Remote.RIGHT)) {
                    wrong = "item " + x + " names left member " + l + " and right member " + r;
                } else if (x % 5 != 0 && (indexOf(r) != x % 2 || seenAt[1 - indexOf(r)].get((int) x))) {
                    wrong = "item " + x + " went to right member " + indexOf(r) + ", its left member chose " + x % 2;
                } else if (from != indexOf(l)) {
                    wrong = "item " + x + " came from left member " + indexOf(l) + ", the right member saw input " + from;
                }
                if (wrong == null) {
                    seenAt[indexOf(r)].set((int) x);
                }
                if (wrong != null && problem[0] == null) {
                    problem[0] = wrong;
                }
            }, atEnd);
        } finally {
            for (long x = 5; x <= n && job.isMaster() && problem[0] == null; x += 5) {
                if (!seenAt[0].get((int) x) || !seenAt[1].get((int) x)) {
                    problem[0] = "broadcast item " + x + " did not reach both right members";
                }
            }
            seen.accept(new Outcome(count[0], problem[0]));
        }
        return new Outcome(count[0], problem[0]);
    }

    /** Runs source, the all-to-all and a sink that hands each result to {@code sink} and runs {@code atEnd} at its end. */
    private static void run(DistributedJob job, Source<Long> source, AllToAll<Long, Long> a2a,
                            java.util.function.LongConsumer sink, Runnable atEnd) {
        job.run(Pipeline.of(source, a2a, new Node<Long, Void>() {
            @Override
            public void onItem(Long z, Outbox<Void> out) {
                sink.accept(z);
            }

            @Override
            public void onEos(Outbox<Void> out) {
                atEnd.run();
            }
        }));
    }

    /** A member's index from its tag: wK runs member K - 1, the master's are 3 and 4. */
    private static int indexOf(int tag) {
        return (tag - 1) % 2;
    }

    /** A member's tag: K in group wK, 3 + its index in the master. */
    private static long tagOf(DistributedJob job, AtomicInteger inMaster) {
        return job.isMaster() ? 3 + inMaster.getAndIncrement() : Long.parseLong(job.group().substring(1));
    }

    private static boolean realMember(int tag, boolean inGroups) {
        return inGroups ? tag == 1 || tag == 2 : tag == 3 || tag == 4;
    }

    /**
     * Args: {@code n LEFT|RIGHT}; the job and group come from the system properties.
     *
     * @param args item count and the side that runs in the worker groups
     */
    public static void main(String[] args) {
        DistApp.runAsChild(job -> run(job, Long.parseLong(args[0]), Remote.valueOf(args[1])));
    }
}
