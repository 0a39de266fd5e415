package org.bbflow.net.dist;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;

/**
 * The program of the all-to-all test job: 1..n into an all-to-all of 2 left and 2 right members whose
 * left members route by key ({@code x % 2}), then to a sink in the master. One side runs in groups w1
 * and w2 ({@link DistributedJob#members}), the other in the master. Every member tags what it passes
 * on with where it ran, {@code x * 100 + 10 * left + right}, where a member in group wK counts as K
 * and a member in the master as 3 + its index, so the sink can check that every item arrived once,
 * that each item's left and right member is a real one, and that all items of one key met the same
 * right member.
 */
public final class AllToAllApp {
    private AllToAllApp() {}

    /** Which side runs in the worker groups. */
    enum Remote { LEFT, RIGHT }

    /** What the master saw: how many results and the first problem found. */
    record Outcome(long count, String problem) {
        boolean exact(long n) {
            return count == n && problem == null;
        }
    }

    static Outcome run(DistributedJob job, long n, Remote remote) {
        Placement groups = Placement.of("w1", "w2");
        Placement master = Placement.of("m", "m");
        AtomicInteger leftInMaster = new AtomicInteger();
        AtomicInteger rightInMaster = new AtomicInteger();
        List<Block<Long, Long>> left = job.members("left", () -> {
            long tag = 10 * tagOf(job, leftInMaster);
            return Nodes.map((Long x) -> x * 100 + tag);
        }, Codec.longs(), Codec.longs(), remote == Remote.LEFT ? groups : master);
        List<Block<Long, Long>> right = job.members("right", () -> {
            long tag = tagOf(job, rightInMaster);
            return Nodes.map((Long y) -> y + tag);
        }, Codec.longs(), Codec.longs(), remote == Remote.RIGHT ? groups : master);
        AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(left, right).dispatch(Dispatch.byKey((Long y) -> y / 100 % 2));
        long[] count = new long[1];
        BitSet seen = new BitSet();
        int[] rightOfKey = {-1, -1};
        String[] problem = new String[1];
        job.run(Pipeline.of(Nodes.range(1, n), a2a, Nodes.sink((Long z) -> {
            count[0]++;
            long x = z / 100;
            int l = (int) (z / 10 % 10);
            int r = (int) (z % 10);
            int key = (int) (x % 2);
            String wrong = null;
            if (x < 1 || x > n || seen.get((int) x)) {
                wrong = "item " + x + " is out of range or doubled";
            } else if (!realMember(l, remote == Remote.LEFT) || !realMember(r, remote == Remote.RIGHT)) {
                wrong = "item " + x + " names left member " + l + " and right member " + r;
            } else if (rightOfKey[key] >= 0 && rightOfKey[key] != r) {
                wrong = "key " + key + " met right members " + rightOfKey[key] + " and " + r;
            }
            seen.set((int) Math.max(0, Math.min(x, n)));
            rightOfKey[key] = r;
            if (wrong != null && problem[0] == null) {
                problem[0] = wrong;
            }
        })));
        if (job.isMaster() && problem[0] == null && rightOfKey[0] == rightOfKey[1]) {
            problem[0] = "both keys went to right member " + rightOfKey[0];
        }
        return new Outcome(count[0], problem[0]);
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
