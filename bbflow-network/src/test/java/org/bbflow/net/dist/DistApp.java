package org.bbflow.net.dist;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;

/**
 * The program every process of the test job runs (the test JVM runs the master part through
 * {@link #run}, child JVMs run {@link #main} with another {@code bbflow.group}): tasks 1..n through
 * a farm of 6 workers, 2 per group, each computing {@code 3x + 1}. A worker fails on the first task
 * {@code >= failFrom} it sees (a negative value: never).
 */
public final class DistApp {
    private DistApp() {}

    /** What the master saw: how many results, and whether each task came back exactly once. */
    record Outcome(long count, boolean exact, String problem) {
    }

    static Outcome run(DistributedJob job, long n, long failFrom) {
        var farm = job.farm("tasks", () -> Nodes.map((Long x) -> {
            if (failFrom >= 0 && x >= failFrom) {
                throw new IllegalStateException("boom at task " + x + " in group " + job.group());
            }
            return 3 * x + 1;
        }), Codec.longs(), Codec.longs(), Placement.spread(2, job.spec().groups().toArray(new String[0])));
        BitSet seen = new BitSet();
        AtomicLong count = new AtomicLong();
        StringBuilder problem = new StringBuilder();
        job.run(Pipeline.of(Nodes.range(1, n), farm, Nodes.sink((Long y) -> {
            count.incrementAndGet();
            long x = (y - 1) / 3;
            if (y != 3 * x + 1 || x < 1 || x > n) {
                problem.append("unexpected result ").append(y).append('\n');
            } else if (seen.get((int) x)) {
                problem.append("task ").append(x).append(" came back twice\n");
            } else {
                seen.set((int) x);
            }
        })));
        boolean exact = count.get() == n && seen.cardinality() == n && problem.length() == 0;
        return new Outcome(count.get(), exact, problem.toString());
    }

    /**
     * Args: {@code n failFrom}; the job and group come from the system properties.
     *
     * @param args task count and the first failing task (negative: none)
     */
    public static void main(String[] args) {
        int status = 0;
        try {
            DistributedJob job = DistributedJob.fromSystemProperties();
            System.out.println("GROUP " + job.group());
            Outcome o = run(job, Long.parseLong(args[0]), Long.parseLong(args[1]));
            System.out.println("OUTCOME " + o);
        } catch (RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.println("DONE " + status);
        System.out.flush();
        System.exit(status);
    }
}
