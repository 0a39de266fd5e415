package org.bbflow.examples.distributed;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bbflow.core.Block;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJob;

/**
 * A distributed pipeline for the launcher ({@code java -jar bbflow-examples.jar launch job.json}):
 * the same program runs in every group's process. Items 1..n go through one stage per group other
 * than the master's, in the job file's order: the first stage squares its item, every later one adds
 * 1. Stages next to each other are linked, so each group sends its results straight to the next
 * group and only the first stage's input and the last one's output cross the master. The master
 * checks that result k is {@code k*k + (stages - 1)}, in input order, and prints the sum.
 *
 * <p>Args: {@code n}. The job and this process's group come from the system properties the launcher
 * sets, or from {@code BBFLOW_JOB} and the engine's rank ({@link DistributedJob#fromEnvironment()}). A job with only the master group has nothing to place and is refused.
 */
public final class StagesJob {
    private StagesJob() {}

    /**
     * Runs this process's part of the job.
     *
     * @param args {@code n}
     */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: StagesJob <n>   (started by: bbflow-examples.jar launch job.json)");
            System.exit(2);
        }
        long n = Long.parseLong(args[0]);
        // the job from -Dbbflow.job (the launcher's), or from BBFLOW_JOB and the engine's rank (Slurm, Kubernetes)
        DistributedJob job = System.getProperty(DistributedJob.JOB_PROPERTY) != null
                ? DistributedJob.fromSystemProperties() : DistributedJob.fromEnvironment();
        List<String> groups = new ArrayList<>(job.spec().groups());
        groups.remove(job.spec().master());
        if (groups.isEmpty()) {
            System.err.println("stages: the job has no group besides the master to run a stage in");
            System.exit(2);
        }
        List<Block<?, ?>> stages = new ArrayList<>();
        stages.add(Nodes.range(1, n));
        for (int i = 0; i < groups.size(); i++) {
            stages.add(i == 0 ? job.stage("square", () -> Nodes.map((Long x) -> x * x), Codec.longs(), Codec.longs(),
                    groups.get(i)) : job.stage("plus-one-" + i, () -> Nodes.map((Long y) -> y + 1), Codec.longs(),
                    Codec.longs(), groups.get(i)));
        }
        long added = groups.size() - 1;
        long[] seen = new long[2]; // results so far, the first one out of order (the sink is one thread)
        long[] sum = new long[1];
        stages.add(Nodes.sink((Long z) -> {
            long k = ++seen[0];
            sum[0] += z;
            if (z != k * k + added && seen[1] == 0) {
                seen[1] = k;
            }
        }));
        long t0 = System.nanoTime();
        job.run(Pipeline.of(stages.toArray(new Block<?, ?>[0])));
        if (!job.isMaster()) {
            System.out.println("group " + job.group() + ": done");
            return;
        }
        boolean ok = seen[0] == n && seen[1] == 0;
        System.out.println(String.format(Locale.ROOT, "stages: %,d results through %d stages (%s) in %.3f s, sum %d, %s",
                seen[0], groups.size(), String.join(" -> ", groups), (System.nanoTime() - t0) / 1e9, sum[0],
                ok ? "every result in input order" : seen[0] != n ? "MISSING results" : "result " + seen[1] + " WRONG"));
        System.exit(ok ? 0 : 1);
    }
}
