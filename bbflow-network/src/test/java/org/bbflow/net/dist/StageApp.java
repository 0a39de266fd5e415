package org.bbflow.net.dist;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.bbflow.core.Node;
import org.bbflow.core.NodeStats;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.core.Source;
import org.bbflow.core.StreamFailure;
import org.bbflow.net.Codec;

/**
 * The program of the pipeline-stage test job: 1..n through stage "a" in group w1 ({@code 3x + 1})
 * and stage "b" in group w2 ({@code 2y}), both as distributed stages next to each other (so w1 sends
 * a's results straight to w2), to a sink in the master that checks every result and its order. The
 * stage named {@code failing} fails on its first item {@code >= failFrom} (a negative value: never);
 * {@code a-eos} names stage a failing at end of stream, after its last result; {@code source} names
 * the master's source, which then ends its stream with a {@link StreamFailure} after {@code failFrom}
 * items (the stream is cut: every item sent goes on, and the job fails with the source's error).
 */
public final class StageApp {
    private StageApp() {}

    /**
     * What this process saw: in the master how many results and the first wrong or out-of-order one;
     * everywhere, the items each node of this process's flow took in, by node path.
     */
    record Outcome(long count, String problem, Map<String, Long> itemsIn) {
        boolean exact(long n) {
            return count == n && problem == null;
        }
    }

    static Outcome run(DistributedJob job, long n, long failFrom) {
        return run(job, n, failFrom, "a");
    }

    static Outcome run(DistributedJob job, long n, long failFrom, String failing) {
        return run(job, n, failFrom, failing, false, count -> { });
    }

    /**
     * As above; with {@code slowToStop}, a node in the master between the source and stage a takes 3 s
     * at its end of stream (busy, not stopped by cancellation: a node that is slow to stop), so that
     * the master's flow ends at least 3 s after the source's last item. The master's sink calls
     * {@code onResult} with the count of results so far after each one.
     */
    static Outcome run(DistributedJob job, long n, long failFrom, String failing, boolean slowToStop,
                       LongConsumer onResult) {
        return run(job, n, failFrom, failing, slowToStop, onResult, () -> { });
    }

    /** The error of the master's source that cuts its stream after {@code k} items ({@code failing} is {@code source}). */
    static String cutMessage(long k) {
        return "the master's source cut its stream after " + k + " items";
    }

    /** As above; the master's sink runs {@code atEnd} at its end of stream (in the master's flow, before it ends). */
    static Outcome run(DistributedJob job, long n, long failFrom, String failing, boolean slowToStop,
                       LongConsumer onResult, Runnable atEnd) {
        var a = job.stage("a", () -> new Node<Long, Long>() {
            @Override
            public void onItem(Long x, Outbox<Long> out) {
                if (failing.equals("a") && failFrom >= 0 && x >= failFrom) {
                    throw new IllegalStateException("stage a failed at item " + x + " in group " + job.group());
                }
                out.send(3 * x + 1);
            }

            @Override
            public void onEos(Outbox<Long> out) {
                if (failing.equals("a-eos")) {
                    throw new IllegalStateException("stage a failed at end of stream in group " + job.group());
                }
            }
        }, Codec.longs(), Codec.longs(), "w1");
        var b = job.stage("b", () -> Nodes.map((Long y) -> {
            if (failing.equals("b") && failFrom >= 0 && (y - 1) / 3 >= failFrom) {
                throw new IllegalStateException("stage b failed at item " + (y - 1) / 3 + " in group " + job.group());
            }
            return 2 * y;
        }), Codec.longs(), Codec.longs(), "w2");
        AtomicLong count = new AtomicLong();
        String[] problem = new String[1];
        Node<Long, Long> slow = new Node<>() {
            @Override
            public void onItem(Long x, Outbox<Long> out) {
                out.send(x);
            }

            @Override
            public void onEos(Outbox<Long> out) {
                for (long until = System.nanoTime() + 3_000_000_000L; System.nanoTime() < until; ) {
                    Thread.onSpinWait();
                }
            }
        };
        Source<Long> source = !failing.equals("source") ? Nodes.range(1, n) : Nodes.source((Outbox<Long> o) -> {
            for (long i = 1; i <= failFrom; i++) {
                o.send(i);
            }
            throw new StreamFailure(new IllegalStateException(cutMessage(failFrom)));
        });
        RunStats stats = job.run(Pipeline.of(source, slowToStop ? slow : Nodes.<Long>identity(), a, b,
                new Node<Long, Void>() {
                    @Override
                    public void onItem(Long z, Outbox<Void> out) {
                        long k = count.incrementAndGet();
                        onResult.accept(k);
                        if (z != 2 * (3 * k + 1) && problem[0] == null) {
                            problem[0] = "result " + k + " is " + z + ", expected " + 2 * (3 * k + 1)
                                    + " (lost, doubled or reordered)";
                        }
                    }

                    @Override
                    public void onEos(Outbox<Void> out) {
                        atEnd.run();
                    }
                }));
        Map<String, Long> itemsIn = new TreeMap<>();
        for (NodeStats s : stats.nodes()) {
            itemsIn.put(s.path(), s.itemsIn());
        }
        return new Outcome(count.get(), problem[0], itemsIn);
    }

    /**
     * Args: {@code n failFrom [failing stage [start delay ms]]}; the job and group come from the system
     * properties.
     *
     * @param args item count, the first failing item (negative: none), the failing stage (a, b, a-eos,
     *     or source for the master's source cutting its stream after that many items; a if absent), and
     *     how long this group waits before it starts (a late host; 0 if absent)
     * @throws InterruptedException if interrupted while waiting to start
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 3) {
            Thread.sleep(Long.parseLong(args[3]));
        }
        DistApp.runAsChild(job -> run(job, Long.parseLong(args[0]), Long.parseLong(args[1]), args.length > 2 ? args[2] : "a"));
    }
}
