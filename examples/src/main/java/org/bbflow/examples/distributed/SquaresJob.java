package org.bbflow.examples.distributed;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJob;
import org.bbflow.net.dist.Placement;

/**
 * A distributed job for the launcher ({@code java -jar bbflow-examples.jar launch job.json}): the
 * same program runs in every group's process. Tasks 1..n go through a farm with two workers in every
 * group of the job; each worker squares its task; the master sums the squares and checks the sum
 * against the closed form {@code n(n+1)(2n+1)/6}.
 *
 * <p>Args: {@code n [failing-group]}; with a group name, that group's workers throw on their first
 * task past n/4 (to see a failure travel through the job). The job and this process's group come
 * from the system properties the launcher sets.
 */
public final class SquaresJob {
    private SquaresJob() {}

    /**
     * Runs this process's part of the job.
     *
     * @param args {@code n [failing-group]}
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: SquaresJob <n> [failing-group]   (started by: bbflow-examples.jar launch job.json)");
            System.exit(2);
        }
        long n = Long.parseLong(args[0]);
        String failing = args.length > 1 ? args[1] : null;
        DistributedJob job = DistributedJob.fromSystemProperties();
        boolean failHere = job.group().equals(failing);
        Farm<Long, Long> farm = job.farm("squares", () -> Nodes.map((Long x) -> {
            if (failHere && x > n / 4) {
                throw new IllegalStateException("task " + x + " failed on purpose in group " + job.group());
            }
            return x * x;
        }), Codec.longs(), Codec.longs(), Placement.spread(2, job.spec().groups().toArray(new String[0])));
        LongAdder sum = new LongAdder();
        LongAdder count = new LongAdder();
        long t0 = System.nanoTime();
        job.run(Pipeline.of(Nodes.range(1, n), farm, Nodes.sink((Long y) -> {
            sum.add(y);
            count.increment();
        })));
        if (!job.isMaster()) {
            System.out.println("group " + job.group() + ": done");
            return;
        }
        long expected = n * (n + 1) * (2 * n + 1) / 6;
        boolean ok = count.sum() == n && sum.sum() == expected;
        System.out.println(String.format(Locale.ROOT, "squares: %,d results in %.3f s, sum %d %s", count.sum(),
                (System.nanoTime() - t0) / 1e9, sum.sum(), ok ? "matches n(n+1)(2n+1)/6" : "DIFFERS from " + expected));
        System.exit(ok ? 0 : 1);
    }
}
