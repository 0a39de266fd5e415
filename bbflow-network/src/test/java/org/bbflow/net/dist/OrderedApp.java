package org.bbflow.net.dist;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Collect;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;

/**
 * The program of the strict-collector test job: tasks 1..n through a farm of two workers in each of
 * the master, w1 and w2, whose collector is strict; the master checks the results against the
 * sequential order exactly. Each task takes a different time (0 to 48 µs), so workers finish out of
 * order. For {@link Shape#ORDERED} and {@link Shape#ORDERED_ON_DEMAND} a task x yields nothing if
 * x % 5 == 0, two results (x and -x) if x % 7 == 0, else x * x; for {@link Shape#ROUND_ROBIN} always
 * x * x (a strict round-robin collector needs one result per task).
 */
public final class OrderedApp {
    private OrderedApp() {}

    /** The farm's dispatch and collect policies. */
    enum Shape {
        /** Round-robin dispatch, {@code ordered()}. */
        ORDERED,
        /** On-demand dispatch, {@code ordered(16)}: the windowed reorder. */
        ORDERED_ON_DEMAND,
        /** Round-robin dispatch, {@code Collect.ROUND_ROBIN}. */
        ROUND_ROBIN
    }

    /** What the master saw: how many results, and the first one that differs from the sequential order. */
    record Outcome(long count, String problem) {
    }

    /** The results of task x, in order, for {@code shape}. */
    static void expected(long x, Shape shape, ArrayDeque<Long> into) {
        if (shape == Shape.ROUND_ROBIN) {
            into.add(x * x);
        } else if (x % 5 == 0) {
            return;
        } else if (x % 7 == 0) {
            into.add(x);
            into.add(-x);
        } else {
            into.add(x * x);
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    static Outcome run(DistributedJob job, long n, Shape shape) {
        Farm<Long, Long> farm = job.farm("ordered", () -> new Node<Long, Long>() {
            private final ArrayDeque<Long> out = new ArrayDeque<>();

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                spin((x * 31 % 17) * 3_000);
                expected(x, shape, out);
                for (Long y; (y = out.poll()) != null; ) {
                    o.send(y);
                }
            }
        }, Codec.longs(), Codec.longs(), Placement.spread(2, "m", "w1", "w2"));
        switch (shape) {
            case ORDERED -> farm.ordered();
            case ORDERED_ON_DEMAND -> farm.dispatch(Dispatch.onDemand()).ordered(16);
            case ROUND_ROBIN -> farm.collect(Collect.ROUND_ROBIN);
        }
        AtomicLong count = new AtomicLong();
        ArrayDeque<Long> want = new ArrayDeque<>();
        long[] next = {1};
        String[] problem = new String[1];
        job.run(Pipeline.of(Nodes.range(1, n), farm, Nodes.sink((Long y) -> {
            long k = count.incrementAndGet();
            while (want.isEmpty() && next[0] <= n) {
                expected(next[0]++, shape, want);
            }
            Long w = want.poll();
            if (problem[0] == null && (w == null || !w.equals(y))) {
                problem[0] = "result " + k + " is " + y + ", expected " + w + " (lost, doubled or out of order)";
            }
        })));
        if (problem[0] == null) {
            while (next[0] <= n) {
                expected(next[0]++, shape, want);
            }
            if (!want.isEmpty()) {
                problem[0] = want.size() + " result(s) missing at the end";
            }
        }
        return new Outcome(count.get(), problem[0]);
    }

    /**
     * Args: {@code n shape}; the job and group come from the system properties.
     *
     * @param args task count and the {@link Shape}
     */
    public static void main(String[] args) {
        DistApp.runAsChild(job -> run(job, Long.parseLong(args[0]), Shape.valueOf(args[1])));
    }
}
