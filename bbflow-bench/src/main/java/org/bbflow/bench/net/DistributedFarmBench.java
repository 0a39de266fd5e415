package org.bbflow.bench.net;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.bbflow.bench.support.Work;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJob;
import org.bbflow.net.dist.JobSpec;
import org.bbflow.net.dist.LocalJob;
import org.bbflow.net.dist.Placement;
import org.bbflow.net.dist.WorkerLoss;

/**
 * A distributed farm ({@link DistributedJob}: 6 workers, 2 in each of 3 processes on loopback)
 * against the same farm of 6 workers in one JVM, for fine (about 10 µs) and coarse (about 1 ms)
 * tasks; tasks/s, medians over rounds, each round's sum checked against the sequential loop. Not a
 * JMH benchmark: a round spans three processes. The two worker groups are started and listening
 * (their step warmed up) before the master's clock starts, so JVM start is not counted; connecting,
 * the job's reports and its verdict are (the "fixed cost" line: six empty tasks). On one machine this measures what the distribution costs, not what it gains.
 *
 * <p>The last lines measure a farm that survives a lost worker ({@link WorkerLoss#RESEND_TASKS}): the
 * same fine tasks with nothing lost (the cost of its end-of-task marks), then with group w1 killed
 * (SIGKILL) once the master has a quarter of the results; the difference is the time the loss cost,
 * to be read against the job's peer timeout (how long the master waits for a vanished peer to come
 * back before it calls it lost).
 *
 * <p>With {@code a2a} first it measures only an all-to-all whose right side runs in w1 and w2
 * ({@link DistributedJob#members}), against the same all-to-all in one JVM.
 *
 * <p>With {@code loop} first it measures only a farm with {@code feedback()}: each fine task goes
 * round twice (the worker sends it back once, then forward), in one JVM and with its workers spread
 * over the three processes; and, as the floor, the plain distributed farm doing the same work (twice
 * the tasks, once each). The difference is what the loop costs across groups: the routing tags, the
 * end-of-item marks and the stand-ins waiting for answers before they let the loop end.
 *
 * <p>With {@code fixed} first it measures only the fixed cost: six empty tasks.
 *
 * <p>With {@code ordered} first it measures an ordered farm ({@code ordered()}: each remote worker
 * has one task in flight) against the first-come farm, both with 2 workers per process, and the
 * ordered farm with 8 workers per process, for fine and coarse tasks, with the ordered farm in one
 * JVM as the reference.
 *
 * <p>With {@code chain} first it measures two pipeline stages, one in w1 and one in w2, for ~1 µs
 * and ~10 µs of work per stage: in one JVM; linked (next to each other, so w1 sends its results
 * straight to w2); and, as the baseline in the same rounds, with an identity stage in the master
 * between them, so that every item goes w1, master, w2 (as every item between two groups did
 * before stages were linked).
 *
 * <pre>{@code
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench [rounds]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench a2a [rounds]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench loop [rounds]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench fixed [rounds]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench chain [rounds]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.net.DistributedFarmBench ordered [rounds]
 * }</pre>
 */
public final class DistributedFarmBench {
    private static final String[] GROUPS = {"m", "w1", "w2"};
    /** The child's argument for the all-to-all job. */
    private static final String A2A = "A2A";
    /** The child's argument for the looping farm job. */
    private static final String LOOP = "LOOP";
    /** The child's argument for the two stages in w1 and w2, linked (w1 sends straight to w2). */
    private static final String CHAIN = "CHAIN";
    /** The same two stages with a stage in the master between them: every item goes through the master. */
    private static final String CHAIN_VIA_MASTER = "CHAIN_VIA_MASTER";
    /** The child's argument for the ordered farm, 2 workers per process. */
    private static final String ORDERED = "ORDERED";
    /** The ordered farm with 8 workers per process. */
    private static final String ORDERED_WIDE = "ORDERED_WIDE";

    private DistributedFarmBench() {
    }

    /**
     * Runs the comparison, or (first argument {@code group}) one worker group of a round.
     *
     * @param args {@code [rounds]}, {@code a2a [rounds]}, {@code loop [rounds]}, {@code fixed [rounds]},
     *     {@code chain [rounds]}, {@code ordered [rounds]}, or
     *     {@code group reps tasks loss|A2A|LOOP|CHAIN|CHAIN_VIA_MASTER|ORDERED|ORDERED_WIDE} in a child process
     * @throws Exception if a round fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("group")) {
            // warm the step up before listening (the master's clock starts once this group listens)
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            for (long i = 1; System.nanoTime() < until; i++) {
                Work.spin(i, 3_600);
            }
            DistributedJob job = DistributedJob.fromSystemProperties();
            if (args[3].equals(A2A)) {
                runAllToAll(job, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            } else if (args[3].equals(LOOP)) {
                runLoop(job, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            } else if (args[3].startsWith(ORDERED)) {
                runOrdered(job, Integer.parseInt(args[1]), Integer.parseInt(args[2]), args[3].equals(ORDERED_WIDE) ? 8 : 2);
            } else if (args[3].equals(CHAIN) || args[3].equals(CHAIN_VIA_MASTER)) {
                runChain(job, Integer.parseInt(args[1]), Integer.parseInt(args[2]), args[3].equals(CHAIN_VIA_MASTER));
            } else {
                distributed(job, Integer.parseInt(args[1]), Integer.parseInt(args[2]), WorkerLoss.valueOf(args[3]), -1,
                        null);
            }
            System.exit(0);
        }
        String mode = args.length > 0 && List.of("a2a", "loop", "fixed", "chain", "ordered", "liveness").contains(args[0]) ? args[0] : "farm";
        int rest = mode.equals("farm") ? 0 : 1;
        int rounds = args.length > rest ? Integer.parseInt(args[rest]) : 5;
        System.out.println("# " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, load average " + loadAverage());
        switch (mode) {
            case "a2a" -> measureAllToAll(3_600, 20_000, rounds);
            case "loop" -> measureLoop(3_600, 20_000, rounds);
            case "fixed" -> measure("fixed cost (6 empty tasks)", 1, 6, rounds);
            case "liveness" -> measureKillToRedispatch(3_600, 300_000, args.length > 1 ? rounds : 20);
            case "ordered" -> {
                measureOrdered(3_600, 20_000, rounds);
                measureOrdered(360_000, 300, rounds);
            }
            case "chain" -> {
                measureChain(360, 200_000, rounds);
                measureChain(3_600, 20_000, rounds);
            }
            default -> {
                // ~10 us and ~1 ms of the thesis's multiply/divide step (3600 steps ~ 10 us on the reference machine)
                measure("fixed cost (6 empty tasks)", 1, 6, rounds);
                measure("fine (~10 us)", 3_600, 20_000, rounds);
                measure("coarse (~1 ms)", 360_000, 300, rounds);
                measureLoss(3_600, 60_000, Duration.ofSeconds(2), rounds);
            }
        }
        System.out.println("# load average after: " + loadAverage());
    }

    private static void measure(String label, int reps, int tasks, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps); // also warms the step up
        long t0 = System.nanoTime();
        Work.sequential(tasks, reps);
        double seqMs = (System.nanoTime() - t0) / 1e6;
        double[] local = new double[rounds];
        double[] dist = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            local[r] = local(reps, tasks, expected);
            dist[r] = distributed(reps, tasks, expected, WorkerLoss.FAIL_JOB, -1, Duration.ofSeconds(20));
            System.out.printf(Locale.ROOT, "%s round %d: one JVM %.1f ms, three processes %.1f ms%n", label, r, local[r], dist[r]);
        }
        double l = median(local);
        double d = median(dist);
        System.out.printf(Locale.ROOT, "%s: %d tasks of %.1f us (sequential %.1f ms); one JVM median %.1f ms = %.0f tasks/s;"
                        + " three processes median %.1f ms = %.0f tasks/s; distributed / local = %.2f%n", label, tasks,
                seqMs * 1000 / tasks, seqMs, l, tasks / l * 1000, d, tasks / d * 1000, l / d);
    }

    /**
     * An all-to-all of 2 left members (in the master, routing each task with {@code sendTo}) and 4 right
     * members doing the work, in one JVM and with the right side in w1 and w2 ({@link DistributedJob#members}:
     * every task crosses with its routing tags).
     */
    private static void measureAllToAll(int reps, int tasks, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps);
        double[] local = new double[rounds];
        double[] dist = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            LongAdder sum = new LongAdder();
            long t0 = System.nanoTime();
            Pipeline.of(Nodes.range(1, tasks), allToAll(null, reps), Nodes.sink((Long y) -> sum.add(y))).run();
            local[r] = (System.nanoTime() - t0) / 1e6;
            check(sum.sum(), expected);
            dist[r] = distributed(reps, tasks, expected, null, -1, Duration.ofSeconds(20));
            System.out.printf(Locale.ROOT, "all-to-all round %d: one JVM %.1f ms, right side in two groups %.1f ms%n", r,
                    local[r], dist[r]);
        }
        double l = median(local);
        double d = median(dist);
        System.out.printf(Locale.ROOT, "all-to-all 2 x 4 (%d tasks of ~10 us): one JVM median %.1f ms = %.0f tasks/s;"
                        + " right side in w1 and w2 median %.1f ms = %.0f tasks/s; distributed / local = %.2f%n", tasks, l,
                tasks / l * 1000, d, tasks / d * 1000, l / d);
    }

    /**
     * The all-to-all: left members route task x to right member x % 4 with {@code sendTo}; right members
     * run the step, in this JVM ({@code job} null) or in w1 and w2.
     */
    private static AllToAll<Long, Long> allToAll(DistributedJob job, int reps) {
        List<Block<Long, Long>> left = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            left.add(new Node<Long, Long>() {
                @Override
                public void onItem(Long x, Outbox<Long> out) {
                    out.sendTo((int) (x % out.outputCount()), x);
                }
            });
        }
        Supplier<Block<Long, Long>> worker = () -> Nodes.map((Long x) -> Work.spin(x, reps));
        List<Block<Long, Long>> right = new ArrayList<>();
        if (job == null) {
            for (int i = 0; i < 4; i++) {
                right.add(worker.get());
            }
        } else {
            right = job.members("work", worker, Codec.longs(), Codec.longs(), Placement.spread(2, GROUPS[1], GROUPS[2]));
        }
        return AllToAll.of(left, right);
    }

    /** This process's part of the all-to-all job (the master's returns the sum of the results). */
    private static long runAllToAll(DistributedJob job, int reps, int tasks) {
        LongAdder sum = new LongAdder();
        job.run(Pipeline.of(Nodes.range(1, tasks), allToAll(job, reps), Nodes.sink((Long y) -> sum.add(y))));
        return sum.sum();
    }

    /**
     * The looping farm in one JVM and across the three processes, and the plain distributed farm doing
     * the same work (each task's step twice: twice the tasks, once each).
     */
    private static void measureLoop(int reps, int tasks, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps);
        long plainExpected = Work.sequential(2 * tasks, reps);
        double[] local = new double[rounds];
        double[] dist = new double[rounds];
        double[] plain = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            local[r] = timedInThisJvm(() -> runLoop(null, reps, tasks), expected);
            dist[r] = distributed(reps, tasks, expected, LOOP, null, -1, Duration.ofSeconds(20));
            plain[r] = distributed(reps, 2 * tasks, plainExpected, WorkerLoss.FAIL_JOB.name(), WorkerLoss.FAIL_JOB, -1,
                    Duration.ofSeconds(20));
            System.out.printf(Locale.ROOT, "loop round %d: one JVM %.1f ms, three processes %.1f ms, plain farm with the same"
                    + " work in three processes %.1f ms%n", r, local[r], dist[r], plain[r]);
        }
        double l = median(local);
        double d = median(dist);
        double p = median(plain);
        System.out.printf(Locale.ROOT, "looping farm (%d tasks of ~10 us, 2 trips each): one JVM median %.1f ms = %.0f"
                        + " trips/s; three processes median %.1f ms = %.0f trips/s (distributed / local = %.2f); plain farm,"
                        + " %d tasks, three processes median %.1f ms (looping / plain = %.2f)%n", tasks, l,
                2 * tasks / l * 1000, d, 2 * tasks / d * 1000, l / d, 2 * tasks, p, d / p);
    }

    /**
     * A farm of 6 workers with {@code feedback()}: task x enters as {@code 4x + 2} (two trips); a worker
     * runs the step on x and sends it back with one trip less, or forward its result on the last.
     * In this JVM ({@code job} null) or with the workers spread over the three processes; returns
     * the sum of the results (in the master).
     */
    private static long runLoop(DistributedJob job, int reps, int tasks) {
        Supplier<Block<Long, Long>> worker = () -> Nodes.<Long, Long>flatMap((v, out) -> {
            long x = v >> 2;
            long trips = v & 3;
            long y = Work.spin(x, reps);
            if (trips > 1) {
                out.send((x << 2) | (trips - 1));
            } else {
                out.sendTo(1, y);
            }
        });
        Farm<Long, Long> farm;
        if (job == null) {
            farm = Farm.<Long, Long>of(sixWorkers(worker));
        } else {
            farm = job.farm("loop", worker, Codec.longs(), Codec.longs(), Placement.spread(2, GROUPS));
        }
        LongAdder sum = new LongAdder();
        Block<Long, Long> loop = farm.feedback();
        Pipeline<Long, Long> main = Pipeline.of(Nodes.range(1, tasks), Nodes.map((Long x) -> (x << 2) | 2), loop,
                Nodes.sink((Long y) -> sum.add(y)));
        runMain(job, main);
        return sum.sum();
    }

    /**
     * The ordered farm in one JVM (6 workers), and across the three processes with 2 and with 8
     * workers per process, against the first-come farm with 2 per process in the same rounds.
     */
    private static void measureOrdered(int reps, int tasks, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps);
        double[] local = new double[rounds];
        double[] firstCome = new double[rounds];
        double[] ordered = new double[rounds];
        double[] wide = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            local[r] = timedInThisJvm(() -> runOrdered(null, reps, tasks, 2), expected);
            firstCome[r] = distributed(reps, tasks, expected, WorkerLoss.FAIL_JOB, -1, Duration.ofSeconds(20));
            ordered[r] = distributed(reps, tasks, expected, ORDERED, null, -1, Duration.ofSeconds(20));
            wide[r] = distributed(reps, tasks, expected, ORDERED_WIDE, null, -1, Duration.ofSeconds(20));
            System.out.printf(Locale.ROOT, "ordered round %d: one JVM %.1f ms; three processes: first-come %.1f ms,"
                    + " ordered %.1f ms, ordered with 8 workers per process %.1f ms%n", r, local[r], firstCome[r],
                    ordered[r], wide[r]);
        }
        double f = median(firstCome);
        System.out.printf(Locale.ROOT, "ordered farm (%d tasks, %d steps): one JVM (6 workers) median %.1f ms; three"
                        + " processes: first-come (6 workers) median %.1f ms = %.0f tasks/s; ordered (6 workers) median"
                        + " %.1f ms (%.2f x first-come's time); ordered (24 workers) median %.1f ms (%.2f x)%n", tasks, reps,
                median(local), f, tasks / f * 1000, median(ordered), median(ordered) / f, median(wide), median(wide) / f);
    }

    /**
     * An ordered farm of the step with {@code perGroup} workers in each of the three processes (in this
     * JVM: 6 workers, with {@code job} null); returns the sum of the results (in the master).
     */
    private static long runOrdered(DistributedJob job, int reps, int tasks, int perGroup) {
        Supplier<Block<Long, Long>> worker = () -> Nodes.map((Long x) -> Work.spin(x, reps));
        Farm<Long, Long> farm;
        if (job == null) {
            farm = Farm.of(sixWorkers(worker));
        } else {
            farm = job.farm("ordered", worker, Codec.longs(), Codec.longs(), Placement.spread(perGroup, GROUPS));
        }
        farm.ordered();
        LongAdder sum = new LongAdder();
        Pipeline<Long, Void> main = Pipeline.of(Nodes.range(1, tasks), farm, Nodes.sink((Long y) -> sum.add(y)));
        runMain(job, main);
        return sum.sum();
    }

    /**
     * Two stages (the step on x, then on its result) in one JVM, linked across w1 and w2, and across
     * w1 and w2 with an identity stage in the master between them.
     */
    private static void measureChain(int reps, int tasks, int rounds) throws Exception {
        long expected = 0;
        for (long i = 1; i <= tasks; i++) {
            expected += Work.spin(Work.spin(i, reps), reps);
        }
        double[] local = new double[rounds];
        double[] linked = new double[rounds];
        double[] via = new double[rounds];
        double[] linkedCpu = new double[rounds];
        double[] viaCpu = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            local[r] = timedInThisJvm(() -> runChain(null, reps, tasks, false), expected);
            long c0 = processCpuNanos();
            linked[r] = distributed(reps, tasks, expected, CHAIN, null, -1, Duration.ofSeconds(20));
            long c1 = processCpuNanos();
            via[r] = distributed(reps, tasks, expected, CHAIN_VIA_MASTER, null, -1, Duration.ofSeconds(20));
            linkedCpu[r] = (c1 - c0) / 1e6;
            viaCpu[r] = (processCpuNanos() - c1) / 1e6;
            System.out.printf(Locale.ROOT, "chain round %d: one JVM %.1f ms, linked w1 -> w2 %.1f ms (master CPU %.0f ms),"
                    + " w1 -> master -> w2 %.1f ms (master CPU %.0f ms)%n", r, local[r], linked[r], linkedCpu[r], via[r],
                    viaCpu[r]);
        }
        double l = median(local);
        double k = median(linked);
        double v = median(via);
        System.out.printf(Locale.ROOT, "two stages (%d items, %d steps per stage): one JVM median %.1f ms = %.0f items/s;"
                        + " linked w1 -> w2 median %.1f ms = %.0f items/s, master CPU %.0f ms; through the master median"
                        + " %.1f ms = %.0f items/s, master CPU %.0f ms; through the master / linked: time %.2f, master CPU"
                        + " %.2f%n", tasks, reps, l, tasks / l * 1000, k, tasks / k * 1000, median(linkedCpu), v,
                tasks / v * 1000, median(viaCpu), v / k, median(viaCpu) / median(linkedCpu));
    }

    /**
     * Stage "a" in w1 and stage "b" in w2, each the step, in this JVM ({@code job} null) or across the
     * groups; with {@code viaMaster} an identity stage in the master between them. Returns the sum of
     * the results (in the master).
     */
    private static long runChain(DistributedJob job, int reps, int tasks, boolean viaMaster) {
        Supplier<Block<Long, Long>> step = () -> Nodes.map((Long x) -> Work.spin(x, reps));
        Block<Long, Long> a = job == null ? step.get() : job.stage("a", step, Codec.longs(), Codec.longs(), GROUPS[1]);
        Block<Long, Long> b = job == null ? step.get() : job.stage("b", step, Codec.longs(), Codec.longs(), GROUPS[2]);
        LongAdder sum = new LongAdder();
        Node<Long, Void> sink = Nodes.sink((Long y) -> sum.add(y));
        Pipeline<Long, Void> main = viaMaster ? Pipeline.of(Nodes.range(1, tasks), a, Nodes.<Long>identity(), b, sink)
                : Pipeline.of(Nodes.range(1, tasks), a, b, sink);
        runMain(job, main);
        return sum.sum();
    }

    private static void measureLoss(int reps, int tasks, Duration peerTimeout, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps);
        double[] plain = new double[rounds];
        double[] whole = new double[rounds];
        double[] lost = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            plain[r] = distributed(reps, tasks, expected, WorkerLoss.FAIL_JOB, -1, peerTimeout);
            whole[r] = distributed(reps, tasks, expected, WorkerLoss.RESEND_TASKS, -1, peerTimeout);
            lost[r] = distributed(reps, tasks, expected, WorkerLoss.RESEND_TASKS, tasks / 4, peerTimeout);
            System.out.printf(Locale.ROOT, "lost worker round %d: FAIL_JOB %.1f ms, RESEND_TASKS %.1f ms, RESEND_TASKS with"
                    + " w1 killed %.1f ms%n", r, plain[r], whole[r], lost[r]);
        }
        double p = median(plain);
        double w = median(whole);
        double l = median(lost);
        System.out.printf(Locale.ROOT, "lost worker (%d fine tasks, peer timeout %d ms): FAIL_JOB median %.1f ms;"
                        + " RESEND_TASKS median %.1f ms (%.2fx FAIL_JOB's time: the end-of-task marks); with w1 killed at"
                        + " 1/4 median %.1f ms: the loss cost %.1f ms of wall time (the survivors work on while the master"
                        + " waits out the peer timeout for w1)%n", tasks, peerTimeout.toMillis(), p, w, w / p, l, l - w);
    }

    /**
     * Kill to redispatch: in each round w1 (a group of a RESEND_TASKS farm) is killed with SIGKILL at a
     * quarter of the results (and once it runs tasks), by a thread of the master that then waits until
     * the master has started re-sending
     * its unfinished tasks ({@code resentTasks() > 0}: the count is taken right before the re-sends).
     * The job has the default 30 s peer timeout and the default 1.5 s liveness timeout: the loss is
     * noticed by w1's silence. Prints every round's figure, the median and the worst.
     */
    private static void measureKillToRedispatch(int reps, int tasks, int rounds) throws Exception {
        long expected = Work.sequential(tasks, reps);
        double[] ms = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ms[r] = killToRedispatch(reps, tasks, expected);
            System.out.printf(Locale.ROOT, "kill to redispatch round %d: %.1f ms%n", r, ms[r]);
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "kill to redispatch (%d rounds, liveness timeout 1.5 s, peer timeout 30 s): median"
                + " %.1f ms, best %.1f ms, worst %.1f ms%n", rounds, median(ms), sorted[0], sorted[rounds - 1]);
    }

    /** One round of {@link #measureKillToRedispatch}: the milliseconds from w1's kill to the first re-send. */
    private static double killToRedispatch(int reps, int tasks, long expected) throws Exception {
        Path secret = Files.createTempFile("bbflow-bench-secret", ".txt");
        List<Process> children = new ArrayList<>();
        try {
            Files.writeString(secret, "distributed-farm-bench-secret-0123\n");
            JobSpec job = LocalJob.spec(GROUPS).secretFile(secret).build(); // distinct free loopback ports
            java.util.concurrent.atomic.AtomicBoolean w1Working = new java.util.concurrent.atomic.AtomicBoolean();
            for (int g = 1; g < GROUPS.length; g++) {
                children.add(startGroup(job, g, reps, tasks, WorkerLoss.RESEND_TASKS.name(),
                        g == 1 ? w1Working : new java.util.concurrent.atomic.AtomicBoolean()));
            }
            for (int g = 1; g < GROUPS.length; g++) {
                awaitListening(job.port(GROUPS[g]), children.get(g - 1));
            }
            DistributedJob master = DistributedJob.of(job, GROUPS[0]);
            Process victim = children.get(0);
            Farm<Long, Long> farm = master.farm("work", () -> Nodes.map((Long x) -> Work.spin(x, reps)), Codec.longs(),
                    Codec.longs(), Placement.spread(2, GROUPS), WorkerLoss.RESEND_TASKS);
            LongAdder sum = new LongAdder();
            java.util.concurrent.atomic.AtomicLong count = new java.util.concurrent.atomic.AtomicLong();
            double[] measured = {-1};
            // the killer waits for w1 to run tasks (a group killed before its first sign of life is a slow
            // start, judged by the first-connect timeout) and for a quarter of the results; the sink never waits
            Thread killer = new Thread(() -> {
                long up = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while ((!w1Working.get() || count.get() < tasks / 4) && System.nanoTime() < up) {
                    LockSupport.parkNanos(200_000);
                }
                long t0 = System.nanoTime();
                victim.destroyForcibly();
                long end = t0 + TimeUnit.SECONDS.toNanos(60);
                while (master.resentTasks() == 0 && System.nanoTime() < end) {
                    LockSupport.parkNanos(100_000);
                }
                measured[0] = (System.nanoTime() - t0) / 1e6;
            }, "killer");
            killer.setDaemon(true);
            killer.start();
            master.run(Pipeline.of(Nodes.range(1, tasks), farm, Nodes.sink((Long y) -> {
                sum.add(y);
                count.incrementAndGet();
            })));
            killer.join(70_000);
            check(sum.sum(), expected);
            if (!master.lostGroups().equals(Set.of(GROUPS[1])) || master.resentTasks() == 0) {
                throw new IllegalStateException("w1 was killed but the job lost " + master.lostGroups());
            }
            return measured[0];
        } finally {
            children.forEach(Process::destroyForcibly);
            Files.deleteIfExists(secret);
        }
    }

    private static double local(int reps, int tasks, long expected) {
        List<Block<?, ?>> workers = sixWorkers(() -> Nodes.map((Long x) -> Work.spin(x, reps)));
        LongAdder sum = new LongAdder();
        long t0 = System.nanoTime();
        Pipeline.of(Nodes.range(1, tasks), Farm.<Long, Long>of(workers), Nodes.sink((Long y) -> sum.add(y))).run();
        double ms = (System.nanoTime() - t0) / 1e6;
        check(sum.sum(), expected);
        return ms;
    }

    /**
     * One round in three processes; with {@code killAt > 0} group w1 is killed when the master has that many
     * results; with {@code loss} null the job is the all-to-all, not the farm.
     */
    private static double distributed(int reps, int tasks, long expected, WorkerLoss loss, long killAt,
                                      Duration peerTimeout) throws Exception {
        return distributed(reps, tasks, expected, loss == null ? A2A : loss.name(), loss, killAt, peerTimeout);
    }

    /**
     * One round of the job {@code kind} (a {@link WorkerLoss} for the farm, {@link #A2A}, {@link #LOOP},
     * {@link #CHAIN}, {@link #CHAIN_VIA_MASTER}, {@link #ORDERED} or {@link #ORDERED_WIDE}).
     */
    private static double distributed(int reps, int tasks, long expected, String kind, WorkerLoss loss, long killAt,
                                      Duration peerTimeout) throws Exception {
        Path secret = Files.createTempFile("bbflow-bench-secret", ".txt");
        List<Process> children = new ArrayList<>();
        try {
            Files.writeString(secret, "distributed-farm-bench-secret-0123\n");
            JobSpec job = LocalJob.spec(GROUPS).secretFile(secret).peerTimeout(peerTimeout).build();
            for (int g = 1; g < GROUPS.length; g++) {
                children.add(startGroup(job, g, reps, tasks, kind, new java.util.concurrent.atomic.AtomicBoolean()));
            }
            for (int g = 1; g < GROUPS.length; g++) {
                awaitListening(job.port(GROUPS[g]), children.get(g - 1));
            }
            long t0 = System.nanoTime();
            DistributedJob master = DistributedJob.of(job, GROUPS[0]);
            long sum = kind.equals(A2A) ? runAllToAll(master, reps, tasks) : kind.equals(LOOP) ? runLoop(master, reps, tasks)
                    : kind.startsWith(CHAIN) ? runChain(master, reps, tasks, kind.equals(CHAIN_VIA_MASTER))
                    : kind.startsWith(ORDERED) ? runOrdered(master, reps, tasks, kind.equals(ORDERED_WIDE) ? 8 : 2)
                    : distributed(master, reps, tasks, loss, killAt, children.get(0));
            double ms = (System.nanoTime() - t0) / 1e6;
            check(sum, expected);
            if (killAt > 0 && (!master.lostGroups().equals(Set.of(GROUPS[1])) || master.resentTasks() == 0)) {
                throw new IllegalStateException("w1 was killed but the job lost " + master.lostGroups() + " and re-sent "
                        + master.resentTasks() + " tasks");
            }
            for (Process p : killAt > 0 ? children.subList(1, children.size()) : children) {
                if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IllegalStateException("a worker group did not end cleanly");
                }
            }
            return ms;
        } finally {
            children.forEach(Process::destroyForcibly);
            Files.deleteIfExists(secret);
        }
    }

    /**
     * This process's part of the job (the master's returns the sum of the results); in the master,
     * with {@code killAt > 0}, the sink kills {@code victim} at that result and waits for it to be gone.
     */
    private static long distributed(DistributedJob job, int reps, int tasks, WorkerLoss loss, long killAt, Process victim) {
        Farm<Long, Long> farm = job.farm("work", () -> Nodes.map((Long x) -> {
            if (!job.isMaster() && !WORKING.getAndSet(true)) {
                System.out.println(FIRST_TASK); // the master's kill-to-redispatch round waits for it
            }
            return Work.spin(x, reps);
        }), Codec.longs(), Codec.longs(),
                Placement.spread(2, GROUPS), loss);
        LongAdder sum = new LongAdder();
        long[] count = new long[1];
        job.run(Pipeline.of(Nodes.range(1, tasks), farm, Nodes.sink((Long y) -> {
            sum.add(y);
            if (++count[0] == killAt) {
                victim.destroyForcibly();
                try {
                    victim.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        })));
        return sum.sum();
    }

    /** Six workers made by {@code worker}: the farm of the three processes, in one JVM. */
    private static List<Block<?, ?>> sixWorkers(Supplier<Block<Long, Long>> worker) {
        List<Block<?, ?>> workers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            workers.add(worker.get());
        }
        return workers;
    }

    /** Runs {@code run} (a job's part in this JVM) and checks its sum; returns the time it took in ms. */
    private static double timedInThisJvm(java.util.function.LongSupplier run, long expected) {
        long t0 = System.nanoTime();
        long sum = run.getAsLong();
        double ms = (System.nanoTime() - t0) / 1e6;
        check(sum, expected);
        return ms;
    }

    /** Runs {@code main} in this JVM ({@code job} null) or as this process's part of {@code job}. */
    private static void runMain(DistributedJob job, Block<?, ?> main) {
        if (job == null) {
            main.run();
        } else {
            job.run(main);
        }
    }

    private static void check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("wrong sum " + got + ", expected " + expected);
        }
    }

    /** Waits (bounded) until a worker group listens: a plain TCP connect succeeds. */
    private static void awaitListening(int port, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("a worker group exited before listening");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (java.io.IOException e) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("a worker group did not listen on " + port + " within 30 s");
    }

    /**
     * Starts group {@code GROUPS[g]} of {@code job} in a child JVM running this class's {@code group}
     * mode; its output is drained, {@code working} set once it ran its first task.
     */
    private static Process startGroup(JobSpec job, int g, int reps, int tasks, String kind,
                                      java.util.concurrent.atomic.AtomicBoolean working) throws java.io.IOException {
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaCommand, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "-D" + DistributedJob.JOB_PROPERTY + "=" + job.toText(), "-D" + DistributedJob.GROUP_PROPERTY + "=" + GROUPS[g],
                DistributedFarmBench.class.getName(), "group", String.valueOf(reps), String.valueOf(tasks), kind)
                .redirectErrorStream(true).start();
        Thread drain = new Thread(() -> drain(p, working), "drain-" + GROUPS[g]);
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    /** A worker group's first task, printed once (the kill-to-redispatch rounds kill w1 only after it). */
    private static final String FIRST_TASK = "bbflow-bench: first task";
    private static final java.util.concurrent.atomic.AtomicBoolean WORKING = new java.util.concurrent.atomic.AtomicBoolean();

    /** Drains a group's output; {@code working} is set once the group ran its first task. */
    private static void drain(Process p, java.util.concurrent.atomic.AtomicBoolean working) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.contains(FIRST_TASK)) {
                    working.set(true);
                } else if (line.contains("Exception") || line.contains("SEVERE")) {
                    System.err.println("group: " + line);
                }
            }
        } catch (java.io.IOException ignored) {
            // the process is gone
        }
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The CPU time of this process (every thread), in ns; -1 where the JVM does not tell. */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }
}
