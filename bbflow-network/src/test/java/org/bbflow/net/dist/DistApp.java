package org.bbflow.net.dist;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;

/**
 * The program every process of the test job runs (the test JVM runs the master part through
 * {@link #run}, child JVMs run {@link #main} with another {@code bbflow.group}): tasks 1..n through
 * a farm of 2 workers per group, each computing {@code 3x + 1}. A worker fails on the first task
 * {@code >= failFrom} it sees (a negative value: never). The farm's {@link WorkerLoss} policy is the
 * third argument ({@code FAIL_JOB} if absent).
 */
public final class DistApp {
    private DistApp() {}

    /**
     * What a task of a re-sending farm costs its worker: enough that the workers, not the master's
     * sends, set the pace, so that the master's result count tells how far the workers got.
     */
    static final long TASK_NANOS = 10_000;

    /** Tasks the workers of this process ran (a group's share of the work). */
    static final AtomicLong WORKED = new AtomicLong();

    /** System property of a child: milliseconds its group waits, once its part has failed, before it reports. */
    static final String REPORT_DELAY_PROPERTY = "distapp.reportDelayMs";

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /**
     * Two workers per group; a farm that re-sends a lost worker's tasks has none in the master unless
     * {@code masterWorkers}, so that a result count the master's sink sees proves the worker groups
     * are running.
     */
    private static Placement placement(DistributedJob job, WorkerLoss onLoss, boolean masterWorkers) {
        List<String> groups = new ArrayList<>(job.spec().groups());
        if (onLoss == WorkerLoss.RESEND_TASKS && !masterWorkers) {
            groups.remove(job.spec().master());
        }
        return Placement.spread(2, groups.toArray(new String[0]));
    }

    /** What the master saw: how many results, and whether each task came back exactly once. */
    record Outcome(long count, boolean exact, String problem) {
    }

    static Outcome run(DistributedJob job, long n, long failFrom) {
        return run(job, n, failFrom, WorkerLoss.FAIL_JOB, c -> { });
    }

    /**
     * Runs the job; {@code onResult} hears the master's result count after each result (in the
     * sink's thread: what it does there holds the sink up).
     */
    static Outcome run(DistributedJob job, long n, long failFrom, WorkerLoss onLoss, LongConsumer onResult) {
        return run(job, n, failFrom, onLoss, false, onResult);
    }

    /** As above; with {@code masterWorkers} a re-sending farm has two workers in the master too. */
    static Outcome run(DistributedJob job, long n, long failFrom, WorkerLoss onLoss, boolean masterWorkers,
                       LongConsumer onResult) {
        return run(job, n, failFrom, onLoss, masterWorkers, onResult, () -> { });
    }

    /** As above; {@code atEnd} runs in the master's sink at its end of stream (the master's flow waits for it). */
    static Outcome run(DistributedJob job, long n, long failFrom, WorkerLoss onLoss, boolean masterWorkers,
                       LongConsumer onResult, Runnable atEnd) {
        var farm = job.farm("tasks", () -> Nodes.map((Long x) -> {
            if (onLoss == WorkerLoss.RESEND_TASKS) {
                spin(TASK_NANOS);
            }
            if (failFrom >= 0 && x >= failFrom) {
                throw new IllegalStateException("boom at task " + x + " in group " + job.group());
            }
            WORKED.incrementAndGet();
            return 3 * x + 1;
        }), Codec.longs(), Codec.longs(), placement(job, onLoss, masterWorkers), onLoss);
        BitSet seen = new BitSet();
        AtomicLong count = new AtomicLong();
        StringBuilder problem = new StringBuilder();
        job.run(Pipeline.of(Nodes.range(1, n), farm, new org.bbflow.core.Node<Long, Void>() {
            @Override
            public void onItem(Long y, org.bbflow.core.Outbox<Void> out) {
                onResult.accept(count.incrementAndGet());
                long x = (y - 1) / 3;
                if (y != 3 * x + 1 || x < 1 || x > n) {
                    problem.append("unexpected result ").append(y).append('\n');
                } else if (seen.get((int) x)) {
                    problem.append("task ").append(x).append(" came back twice\n");
                } else {
                    seen.set((int) x);
                }
            }

            @Override
            public void onEos(org.bbflow.core.Outbox<Void> out) {
                atEnd.run();
            }
        }));
        boolean exact = count.get() == n && seen.cardinality() == n && problem.length() == 0;
        return new Outcome(count.get(), exact, problem.toString());
    }

    /**
     * Args: {@code n failFrom [FAIL_JOB|RESEND_TASKS [MASTER_WORKERS]]}; the job and group come from
     * the system properties.
     *
     * @param args task count, the first failing task (negative: none), the loss policy, and whether a
     *     re-sending farm has workers in the master
     */
    public static void main(String[] args) {
        long reportDelay = Long.getLong(REPORT_DELAY_PROPERTY, 0);
        if (reportDelay > 0) {
            DistributedJob.beforeFailureReportHook = () -> {
                try {
                    Thread.sleep(reportDelay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
        }
        runAsChild(job -> run(job, Long.parseLong(args[0]), Long.parseLong(args[1]),
                args.length > 2 ? WorkerLoss.valueOf(args[2]) : WorkerLoss.FAIL_JOB,
                args.length > 3 && args[3].equals("MASTER_WORKERS"), c -> { }));
    }

    /**
     * A child process's life in these tests: runs {@code part} with the job and group of the system
     * properties, prints its outcome (or its exception) and {@code DONE status}, and exits with
     * status 0, or 1 if it threw.
     */
    static void runAsChild(Function<DistributedJob, Object> part) {
        int status = 0;
        try {
            DistributedJob job = DistributedJob.fromSystemProperties();
            System.out.println("GROUP " + job.group());
            System.out.println("OUTCOME " + part.apply(job));
            System.out.println("WORKED " + WORKED.get());
        } catch (RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.println("DONE " + status);
        System.out.flush();
        System.exit(status);
    }
}
