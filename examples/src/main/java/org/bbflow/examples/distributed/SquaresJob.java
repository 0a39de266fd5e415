package org.bbflow.examples.distributed;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJob;
import org.bbflow.net.dist.Placement;
import org.bbflow.net.dist.WorkerLoss;

/**
 * A distributed job for the launcher ({@code java -jar bbflow-examples.jar launch job.json}): the
 * same program runs in every group's process. Tasks 1..n go through a farm with two workers in every
 * group of the job; each worker squares its task; the master sums the squares exactly (in 128 bits:
 * the sum leaves a {@code long} above n = 3,037,000) and checks the sum against the closed form
 * {@code n(n+1)(2n+1)/6}, computed without overflow ({@link #expectedSum}).
 *
 * <p>Args: {@code n [failing-group] [--resend]}; with a group name, that group's workers throw on
 * their first task past n/4 (to see a failure travel through the job). With {@code --resend} the farm
 * survives the loss of a worker group ({@link WorkerLoss#RESEND_TASKS}: kill one with {@code kill -9}
 * and the job still completes with the right sum), and each task costs about 20 µs of work, so that
 * a run lasts long enough to kill a group in its middle. The master prints a line at each quarter of
 * the results. The job and this process's group come from the system properties the launcher sets.
 */
public final class SquaresJob {
    private SquaresJob() {}

    /** The work of one task with {@code --resend}. */
    private static final long RESEND_TASK_NANOS = 20_000;

    /**
     * Runs this process's part of the job.
     *
     * @param args {@code n [failing-group] [--resend]}
     */
    public static void main(String[] args) {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean resend = rest.remove("--resend");
        if (rest.size() < 1 || rest.size() > 2) {
            System.err.println("usage: SquaresJob <n> [failing-group] [--resend]   (started by: bbflow-examples.jar launch job.json)");
            System.exit(2);
        }
        long n = Long.parseLong(rest.get(0));
        String failing = rest.size() > 1 ? rest.get(1) : null;
        // the job from -Dbbflow.job (the launcher's), or from BBFLOW_JOB and the engine's rank (Slurm, Kubernetes)
        DistributedJob job = System.getProperty(DistributedJob.JOB_PROPERTY) != null
                ? DistributedJob.fromSystemProperties() : DistributedJob.fromEnvironment();
        boolean failHere = job.group().equals(failing);
        Farm<Long, Long> farm = job.farm("squares", () -> Nodes.map((Long x) -> {
            if (failHere && x > n / 4) {
                throw new IllegalStateException("task " + x + " failed on purpose in group " + job.group());
            }
            if (resend) {
                work(RESEND_TASK_NANOS);
            }
            return x * x;
        }), Codec.longs(), Codec.longs(), Placement.spread(2, job.spec().groups().toArray(new String[0])),
                resend ? WorkerLoss.RESEND_TASKS : WorkerLoss.FAIL_JOB);
        long[] count = new long[1]; // the sink is one thread
        long[] sum = new long[2];   // the exact sum: high and low 64 bits
        long t0 = System.nanoTime();
        job.run(Pipeline.of(Nodes.range(1, n), farm, Nodes.sink((Long y) -> {
            add(sum, y);
            long c = ++count[0];
            if (c % Math.max(1, n / 4) == 0 && c < n) {
                System.out.println(String.format(Locale.ROOT, "squares: %,d of %,d results", c, n));
            }
        })));
        if (!job.isMaster()) {
            System.out.println("group " + job.group() + ": done");
            return;
        }
        BigInteger total = exact(sum);
        boolean ok = matches(n, count[0], total);
        if (!job.lostGroups().isEmpty()) {
            System.out.println(String.format(Locale.ROOT, "squares: lost groups %s, %,d tasks re-sent to the others",
                    job.lostGroups(), job.resentTasks()));
        }
        System.out.println(String.format(Locale.ROOT, "squares: %,d results in %.3f s, sum %d %s", count[0],
                (System.nanoTime() - t0) / 1e9, total, ok ? "matches n(n+1)(2n+1)/6" : "DIFFERS from " + expectedSum(n)));
        System.exit(ok ? 0 : 1);
    }

    /**
     * {@code 1^2 + 2^2 + ... + n^2 = n(n+1)(2n+1)/6}, exactly: the product leaves a {@code long} above
     * n = 1,664,510 (at n = 2,000,000 it is 1.6e19), so it is computed in {@link BigInteger}.
     *
     * @param n the number of tasks
     * @return the sum of their squares
     */
    public static BigInteger expectedSum(long n) {
        BigInteger b = BigInteger.valueOf(n);
        return b.multiply(b.add(BigInteger.ONE)).multiply(b.shiftLeft(1).add(BigInteger.ONE)).divide(BigInteger.valueOf(6));
    }

    /**
     * Whether a run over tasks 1..n is right: every result came, and their sum is the closed form's.
     *
     * @param n the number of tasks
     * @param results how many results the master saw
     * @param sum their exact sum
     * @return true if the run is right
     */
    public static boolean matches(long n, long results, BigInteger sum) {
        return results == n && sum.equals(expectedSum(n));
    }

    /** Adds a non-negative {@code y} to the 128-bit sum {@code {high, low}}. */
    static void add(long[] sum, long y) {
        long low = sum[1] + y;
        if (Long.compareUnsigned(low, sum[1]) < 0) {
            sum[0]++;
        }
        sum[1] = low;
    }

    /** The 128-bit sum {@code {high, low}} as a number. */
    static BigInteger exact(long[] sum) {
        return BigInteger.valueOf(sum[0]).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(sum[1])));
    }

    private static void work(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
