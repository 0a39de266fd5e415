package org.bbflow.net.dist;

import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;

/**
 * The program of the pipeline-stage test job: 1..n through stage "a" in group w1 ({@code 3x + 1})
 * and stage "b" in group w2 ({@code 2y}), both as distributed stages, to a sink in the master that
 * checks every result and its order. Stage "a" fails on its first item {@code >= failFrom} (a
 * negative value: never).
 */
public final class StageApp {
    private StageApp() {}

    /** What the master saw: how many results, and the first wrong or out-of-order one. */
    record Outcome(long count, String problem) {
        boolean exact(long n) {
            return count == n && problem == null;
        }
    }

    static Outcome run(DistributedJob job, long n, long failFrom) {
        var a = job.stage("a", () -> Nodes.map((Long x) -> {
            if (failFrom >= 0 && x >= failFrom) {
                throw new IllegalStateException("stage a failed at item " + x + " in group " + job.group());
            }
            return 3 * x + 1;
        }), Codec.longs(), Codec.longs(), "w1");
        var b = job.stage("b", () -> Nodes.map((Long y) -> 2 * y), Codec.longs(), Codec.longs(), "w2");
        AtomicLong count = new AtomicLong();
        String[] problem = new String[1];
        job.run(Pipeline.of(Nodes.range(1, n), a, b, Nodes.sink((Long z) -> {
            long k = count.incrementAndGet();
            if (z != 2 * (3 * k + 1) && problem[0] == null) {
                problem[0] = "result " + k + " is " + z + ", expected " + 2 * (3 * k + 1) + " (lost, doubled or reordered)";
            }
        })));
        return new Outcome(count.get(), problem[0]);
    }

    /**
     * Args: {@code n failFrom}; the job and group come from the system properties.
     *
     * @param args item count and the first failing item (negative: none)
     */
    public static void main(String[] args) {
        DistApp.runAsChild(job -> run(job, Long.parseLong(args[0]), Long.parseLong(args[1])));
    }
}
