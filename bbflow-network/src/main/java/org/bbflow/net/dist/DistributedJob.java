package org.bbflow.net.dist;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Collect;
import org.bbflow.core.Comb;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.core.Source;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.bbflow.net.RemoteStreamFailedException;

/**
 * One process's part of a distributed job. The same program runs in every process of the job; each
 * process knows which group it is ({@value #GROUP_PROPERTY}) and what the job is
 * ({@value #JOB_PROPERTY}, or a {@link JobSpec} built in code), builds the same flow, and
 * {@link #run(Block)} starts only this process's part:
 *
 * <pre>{@code
 * DistributedJob job = DistributedJob.fromSystemProperties();
 * Farm<Long, Long> farm = job.farm("squares", () -> Nodes.map((Long x) -> x * x),
 *         Codec.longs(), Codec.longs(), Placement.spread(4, "m", "w1", "w2"));
 * LongAdder sum = new LongAdder();
 * job.run(Pipeline.of(Nodes.range(1, 1_000_000), farm, Nodes.sink(sum::add)));
 * if (job.isMaster()) System.out.println(sum);
 * }</pre>
 *
 * <p>The master group runs the main flow given to {@code run}: the farms' emitters and collectors and
 * the workers placed in the master group. Every other group runs its workers, each between a task
 * channel from the master and a result channel to it; two pipeline stages next to each other in two
 * other groups are linked instead: the first one's group sends its results straight to the second
 * one's ({@link #stage}). Each edge between groups is a TCP channel whose id derives from the farm's
 * (or stage's) name and the worker's index, identically in every process. Each group listens on its
 * job address (the master for results and reports, the others for tasks).
 *
 * <p>Per channel, items keep their order and end of stream crosses it. A failure anywhere fails the
 * job everywhere: a failing group reports the failing node and its exception to the master, then
 * aborts its channels; the master cancels its flow on that report, its {@code run} throws a
 * {@link GroupFailedException} with that cause (by itself, or inside the {@link FlowException}
 * naming the master's stand-in node that heard it first), and it tells every other group, whose
 * {@code run} then throws too. A lost process fails the job after the
 * job's peer timeout, and so does one that takes longer than that to start: a group whose master is
 * lost, or never comes, gives up then instead of waiting for tasks ("lost the master").
 *
 * <p>Identity and generations: every connection's handshake names the job ({@link JobSpec#id()}) and
 * the process (its group and generation), so a process of another job is refused naming both jobs.
 * The master admits each other group's process under a generation, 1 at the start; both sides beat
 * on channels of their own ({@link JobSpec#livenessTimeout()}, separate from the connect and peer
 * timeouts).
 *
 * <p>A farm declared with {@link WorkerLoss#RESEND_TASKS} survives the loss of worker processes: a
 * group that runs only such workers and shows no sign of life for the liveness timeout is lost at
 * once (also if it was only stopped: it is fenced, and refused when it resumes), its unfinished
 * tasks go to the workers still alive, each task's results arrive exactly once, and the job completes
 * ({@link #lostGroups()} says which groups it lost). A process of that group started again (by its
 * engine or by hand) rejoins the running job under the next generation and gets tasks again
 * ({@link #generation(String)}). Otherwise a lost worker process fails the job.
 *
 * <p>A group whose process beats but whose worker never takes its tasks (hung user code) is noticed
 * only with a stall timeout ({@link JobSpec#stallTimeout()}, off by default): a remote worker with
 * tasks outstanding that makes no progress for that long counts as lost, as above (with it on, each
 * group marks the end of each task's results, so that tasks outstanding are known between items too,
 * and a block of another group must be a {@link Node}; a linked run of stages is judged as one).
 *
 * <p>Distributed blocks may sit inside feedback loops (a farm's, pipeline's or all-to-all's
 * {@code feedback()}): the loop behaves as in one JVM and still ends once nothing is in flight inside
 * it, counting what other groups hold (see {@link #run}); there they must be {@link Node}s.
 *
 * <p>Limits of this version: farms' workers, pipeline stages ({@link #stage}) and the members of an
 * all-to-all side ({@link #members}) are the distributed blocks, each with its channels to and from
 * the master, except two stages linked as above (items between two other groups otherwise go through
 * the master: a farm's workers and the two sides of an all-to-all, both in groups); a distributed
 * farm with a strict collector (ordered, round-robin, gather) keeps one task in flight per remote
 * worker, and {@link #run} refuses it with a worker that re-sends a lost worker's tasks, inside a
 * composite worker or inside a feedback loop. A farm that re-sends a lost worker's tasks cannot be
 * inside a feedback loop, nor be without a collector (its results leave through any of its ports).
 * The master group is not survivable: losing it fails the job.
 */
public final class DistributedJob {
    /** The system property naming this process's group. */
    public static final String GROUP_PROPERTY = "bbflow.group";
    /** The system property holding the job's text form ({@link JobSpec#toText()}). */
    public static final String JOB_PROPERTY = "bbflow.job";
    /**
     * The system property that, set to {@code true}, ties this process to whoever holds its standard
     * input: when the input ends, every part of a job this process runs fails (its flow cancelled: a
     * group reports its failure and closes its channels), and the process exits with status 1 at
     * most 5 s later, whatever its program is doing. The launcher sets it for every group it starts
     * and holds each group's input open until it ends: a group whose launcher, or whose wrapper
     * ({@code sh -c}, {@code ssh}, {@code srun}), is killed (SIGKILL included) then exits instead of
     * living on as an orphan; ssh passes the end of its input on to the remote side.
     *
     * <p>Off by default: a process started by hand, by Slurm or by Kubernetes often has an input that
     * ends at once ({@code /dev/null}, a closed stream) or a terminal, whose end says nothing about a
     * launcher. Set it when starting groups through a wrapper of your own that holds their input
     * open. The input is then the launcher's: the program must not read it.
     */
    public static final String EXIT_WITH_STDIN_PROPERTY = "bbflow.exitWithStdin";

    private final JobSpec spec;
    private final String group;
    private final ChannelIds ids = new ChannelIds();
    private final List<RemoteWorker> standIns = new ArrayList<>();
    private final Map<RemoteWorker, Integer> resultIds = new LinkedHashMap<>();
    private final List<LocalWorker> localWorkers = new ArrayList<>();
    private final List<FarmLedger> ledgers = new ArrayList<>();
    private final Set<String> lostGroups = ConcurrentHashMap.newKeySet();
    /** Groups that run a worker of a farm that re-sends a lost worker's tasks, and of one that does not. */
    private final Set<String> resendGroups = new HashSet<>();
    private final Set<String> failJobGroups = new HashSet<>();
    /** The task channels of the distributed blocks inside a feedback loop (found by {@link #run}, in every process). */
    private final Set<Integer> loopTaskIds = new HashSet<>();
    /** The task channels of remote workers of farms with a strict collector (found by {@link #run}, in every process). */
    private final Set<Integer> strictTaskIds = new HashSet<>();
    /** The task channels of the workers of farms that re-send a lost worker's tasks (in every process). */
    private final Set<Integer> resendTaskIds = new HashSet<>();
    /** The stand-ins of pipeline stages placed in groups other than the master's (in every process). */
    private final Set<RemoteWorker> stageStandIns = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Linked stages: by the task channel of a stage, where its group sends its results (found by {@link #run}). */
    private final Map<Integer, Link> linksOut = new HashMap<>();
    /**
     * Linked stages: by the task channel of a stage, the stand-in of the stage before it, whose result
     * codec is how that stage's group encodes what it sends there (read when the channels open: the
     * stall watch may add end-of-task marks to it after the link is made).
     */
    private final Map<Integer, RemoteWorker> linkedFrom = new HashMap<>();
    /** The stand-ins of every block placed in a group other than the master's, except re-sending farms' (in every process). */
    private final List<RemoteWorker> remoteStandIns = new ArrayList<>();
    /** The task channels whose results carry end-of-task marks for the stall watch only (in every process). */
    private final Set<Integer> watchTaskIds = new HashSet<>();
    private boolean ran;
    /** The master's view of each other group: its current generation's connection, beats and verdict channel. */
    private final Map<String, Member> members = new LinkedHashMap<>();
    /** Groups lost and not (yet) back under a newer generation: their reports are not awaited. */
    private final Set<String> down = ConcurrentHashMap.newKeySet();
    private final List<Thread> readmissions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean ending;
    private volatile boolean crashed;
    /** Test hook: run by a failing group just before it sends its failure report (e.g. to make it late). */
    static volatile Runnable beforeFailureReportHook;
    /** Test hook: run by the master once it chose whom to tell the verdict, before it sends (e.g. to let a group end). */
    static volatile Runnable beforeVerdictsHook;
    /** Test hook: run by a group's thread, given the linked group, before it adds its client to that group. */
    static volatile java.util.function.Consumer<String> beforeLinkedClientHook;
    /** Test hook: run by {@link #crash()} before it closes each of the group's clients. */
    static volatile Runnable crashClientHook;
    /** Test hook: run by a part's thread, given its group, once its server is bound and before {@link #crash()} can see it. */
    static volatile java.util.function.Consumer<String> afterBindHook;
    private volatile NetServer masterServer;
    private volatile GroupReports masterReports;
    private volatile NetOptions masterOptions;
    private volatile NetServer groupServer;
    private volatile Map<String, NetClient> groupClients;
    private volatile Flow groupFlow;
    private volatile Flow masterFlow;
    private volatile long generation;
    /** Why this part was given up ({@link LauncherLink}: the launcher is gone), or null. */
    private volatile String abandoned;
    /** Counted down when {@link #run} returns or throws. */
    private final CountDownLatch runEnded = new CountDownLatch(1);

    /**
     * A worker this (non-master) group runs: its block and the ids of its two channels (a linked
     * stage's channels are in {@link #linksOut} and {@link #linkedFrom}).
     */
    private record LocalWorker(String path, Block<?, ?> block, int taskId, int resultId, Codec<Object> taskCodec,
                               Codec<Object> resultCodec, String taskPath, String resultPath) {
        /** The task channel's id in generation {@code g} of this group's process. */
        int taskId(long g) {
            return ChannelIds.idOf(taskPath, g);
        }

        /** The result channel's id in generation {@code g}. */
        int resultId(long g) {
            return ChannelIds.idOf(resultPath, g);
        }
    }

    /** Where a group sends a worker's results: the master's result channel, or a linked stage's task channel. */
    private record Link(String group, int channelId) {
    }

    private DistributedJob(JobSpec spec, String group) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.group = spec.check(group);
        for (String g : spec.groups()) {
            // a host left to the engine and never filled in: its peers connected to "" (the loopback
            // address: another process on this machine, or nothing until the peer timeout), silently
            if (spec.hostFromEngine(g)) {
                throw new IllegalArgumentException("group '" + g + "' has no host: the job leaves it to the engine, and"
                        + " none gave it (run under Slurm or with BBFLOW_HOST_PATTERN, through"
                        + " DistributedJob.fromEnvironment, or give every group a host)");
            }
        }
        for (String g : spec.groups()) {
            if (!g.equals(spec.master())) {
                for (String path : List.of(ChannelIds.report(g), ChannelIds.verdict(g), ChannelIds.admission(g),
                        ChannelIds.beats(g), ChannelIds.pulse(g))) {
                    ids.reserve(path);
                }
            }
        }
        if (Boolean.getBoolean(EXIT_WITH_STDIN_PROPERTY)) {
            LauncherLink.watch(this);
        }
    }

    /**
     * This process's part of {@code spec}: the part of {@code group}.
     *
     * @param spec the job
     * @param group the group this process runs
     * @return the job's part
     * @throws IllegalArgumentException if the job has no such group, or a group has no host (the job
     *     leaves it to an engine: {@link #fromEnvironment()} fills the hosts in)
     */
    public static DistributedJob of(JobSpec spec, String group) {
        return new DistributedJob(spec, group);
    }

    /**
     * This process's part as the launcher describes it: the job from {@value #JOB_PROPERTY}, the group
     * from {@value #GROUP_PROPERTY}; if absent, from the engine's rank as {@link #fromEnvironment()}
     * reads it, and the master group if no engine gives one.
     *
     * @return the job's part
     * @throws IllegalStateException if {@value #JOB_PROPERTY} is not set
     * @throws IllegalArgumentException if it is malformed or names no such group
     */
    public static DistributedJob fromSystemProperties() {
        String text = System.getProperty(JOB_PROPERTY);
        if (text == null) {
            throw new IllegalStateException("system property " + JOB_PROPERTY + " is not set (the launcher sets it)");
        }
        return fromSystemProperties(text, System.getenv());
    }

    /** {@link #fromSystemProperties()} for the job {@code text} over the given environment (tests). */
    static DistributedJob fromSystemProperties(String text, Map<String, String> env) {
        JobSpec spec = JobSpec.parse(text);
        // the engine places this process when it gives the rank, and also when the job leaves hosts to it
        // with the group given by hand: that took the empty hosts as they were
        if (System.getProperty(GROUP_PROPERTY) == null && new Engine(env).rankSource() != null
                || spec.groups().stream().anyMatch(spec::hostFromEngine)) {
            return placed(text, env);
        }
        return of(spec, System.getProperty(GROUP_PROPERTY, spec.master()));
    }

    /**
     * This process's part as the engine that started it describes it: the job from
     * {@value #JOB_PROPERTY} (or the environment variable {@code BBFLOW_JOB}), the group from
     * {@value #GROUP_PROPERTY} if set, else by rank from the engine: the first present of
     * {@code BBFLOW_RANK}, {@code JOB_COMPLETION_INDEX} (a Kubernetes Indexed Job), {@code SLURM_PROCID},
     * {@code OMPI_COMM_WORLD_RANK}, {@code PMIX_RANK}, {@code PMI_RANK}, plus {@code BBFLOW_RANK_OFFSET}
     * (rank r runs the r-th group, the master first); the engine's process count
     * ({@code SLURM_NTASKS}, ...) must match the job's groups. A group whose host the job leaves to
     * the engine gets it from {@code BBFLOW_HOST_PATTERN} ({@code {rank}} replaced, e.g. a Kubernetes
     * Indexed Job's {@code squares-{rank}.squares}) or Slurm's {@code SLURM_JOB_NODELIST} (group i on
     * node i).
     *
     * @return the job's part
     * @throws IllegalStateException if no job is given, no rank, or the engine's figures do not fit the job
     * @throws IllegalArgumentException if the job is malformed
     */
    public static DistributedJob fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** {@link #fromEnvironment()} over the given environment (tests). */
    static DistributedJob fromEnvironment(Map<String, String> env) {
        String text = System.getProperty(JOB_PROPERTY);
        if (text == null) {
            text = env.get("BBFLOW_JOB");
        }
        if (text == null) {
            throw new IllegalStateException("no job: set the system property " + JOB_PROPERTY + " or the environment"
                    + " variable BBFLOW_JOB to the job's text (the launcher's `spec` command prints it)");
        }
        return placed(text, env);
    }

    /** The part of the job {@code text} that the engine described by {@code env} gives this process. */
    private static DistributedJob placed(String text, Map<String, String> env) {
        JobSpec spec = JobSpec.parse(text);
        Engine engine = new Engine(env);
        List<String> groups = spec.groups();
        if (groups.stream().anyMatch(spec::hostFromEngine)) {
            List<String> hosts = engine.hosts(groups.size());
            if (hosts == null) {
                throw new IllegalStateException("the job leaves hosts to the engine, and none gives them: set"
                        + " BBFLOW_HOST_PATTERN or run under Slurm");
            }
            spec = spec.withEngineHosts(hosts);
        }
        String group = System.getProperty(GROUP_PROPERTY);
        if (group == null) {
            group = groups.get(engine.rank(groups.size()));
        }
        return of(spec, group);
    }

    /**
     * The group this process runs.
     *
     * @return the group's name
     */
    public String group() {
        return group;
    }

    /**
     * Whether this process runs the master group (the main flow).
     *
     * @return true in the master process
     */
    public boolean isMaster() {
        return group.equals(spec.master());
    }

    /**
     * The job.
     *
     * @return the job's description
     */
    public JobSpec spec() {
        return spec;
    }

    /**
     * A farm whose workers run in the groups {@code placement} names; losing a worker's process fails
     * the job ({@link WorkerLoss#FAIL_JOB}). See
     * {@link #farm(String, Supplier, Codec, Codec, Placement, WorkerLoss)}.
     *
     * @param <I> task type
     * @param <O> result type
     * @param name the farm's name, unique in the job (it derives the channel ids)
     * @param worker makes a worker (a node or any block with one input and one output port)
     * @param tasks encodes tasks sent to another group
     * @param results encodes results sent back
     * @param placement the group of each worker
     * @return the farm
     * @throws IllegalArgumentException if the placement names a group the job does not have
     * @throws IllegalStateException if the name is taken or {@link #run} was called
     */
    public <I, O> Farm<I, O> farm(String name, Supplier<? extends Block<? super I, ? extends O>> worker, Codec<I> tasks,
                                  Codec<O> results, Placement placement) {
        return farm(name, worker, tasks, results, placement, WorkerLoss.FAIL_JOB);
    }

    /**
     * A farm whose workers run in the groups {@code placement} names. In the master process the farm is
     * an ordinary {@link Farm}: set its dispatch and collect policies as usual and put it in the main
     * flow; workers of other groups are stand-ins that send their tasks there. With a strict collector
     * ({@code ordered()}, {@code Collect.ROUND_ROBIN}, {@code Collect.GATHER}) a stand-in hands each
     * task's results on before it takes the next task (the group marks where a task's results end, so
     * a worker in another group must then be a {@link Node}), so each such worker has one task in
     * flight: give the farm several workers per group to keep the groups busy. Not with
     * {@link WorkerLoss#RESEND_TASKS}, and not inside a feedback loop ({@link #run} refuses both). A
     * {@code RESEND_TASKS} farm hands each task's results on through whichever of its stand-ins runs
     * next, so it must keep a collector: {@link #run} refuses one without ({@code withoutCollector()},
     * whose port i would carry worker i's results), and a collector of your own cannot tell from
     * {@code inputIndex()} which worker ran a task. In the other processes it is never run; {@link #run}
     * runs this group's workers instead.
     * The factory is called only for the workers this process runs.
     *
     * @param <I> task type
     * @param <O> result type
     * @param name the farm's name, unique in the job (it derives the channel ids)
     * @param worker makes a worker (a node or any block with one input and one output port)
     * @param tasks encodes tasks sent to another group
     * @param results encodes results sent back
     * @param placement the group of each worker
     * @param onLoss what a lost worker process does to the job; {@link WorkerLoss#RESEND_TASKS} needs
     *     each worker to be a {@link Node}
     * @return the farm
     * @throws IllegalArgumentException if the placement names a group the job does not have, or a worker
     *     of a {@code RESEND_TASKS} farm that this process runs is not a node
     * @throws IllegalStateException if the name is taken or {@link #run} was called
     */
    @SuppressWarnings("unchecked")
    public <I, O> Farm<I, O> farm(String name, Supplier<? extends Block<? super I, ? extends O>> worker, Codec<I> tasks,
                                  Codec<O> results, Placement placement, WorkerLoss onLoss) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(tasks, "tasks");
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(onLoss, "onLoss");
        if (ran) {
            throw new IllegalStateException("declare every farm before run()");
        }
        for (String g : placement.groups()) {
            spec.check(g);
        }
        boolean resend = onLoss == WorkerLoss.RESEND_TASKS;
        Codec<Object> taskCodec = (Codec<Object>) tasks;
        Codec<Object> resultCodec = resend ? new TaskMarks((Codec<Object>) results) : (Codec<Object>) results;
        FarmLedger ledger = resend && isMaster() ? new FarmLedger(name) : null;
        List<Block<?, ?>> workers = new ArrayList<>();
        for (int i = 0; i < placement.workers(); i++) {
            String where = placement.groupOf(i);
            (resend ? resendGroups : failJobGroups).add(where);
            int taskId = ids.reserve(ChannelIds.tasks(name, i));
            int resultId = ids.reserve(ChannelIds.results(name, i));
            if (resend) {
                resendTaskIds.add(taskId);
            }
            if (where.equals(spec.master())) {
                Block<?, ?> w = isMaster() ? worker.get() : null;
                workers.add(!isMaster() ? new RemoteWorker(name, i, where, taskId, taskCodec, resultCodec)
                        : ledger != null && w instanceof Node<?, ?> node
                        ? held(ledger.addLocal(new LocalResendWorker(ledger, (Node<Object, Object>) node))) : w);
            } else if (ledger != null) {
                TaskLane lane = ledger.add(new TaskLane(name, i, where, 1, taskCodec, resultCodec));
                workers.add(new ResendingWorker(ledger, lane));
            } else {
                RemoteWorker standIn = new RemoteWorker(name, i, where, taskId, taskCodec, resultCodec);
                workers.add(standIn);
                if (!resend) { // in a group a re-sending farm's worker has a stand-in too, marked already
                    remoteStandIns.add(standIn);
                }
                if (isMaster()) {
                    standIns.add(standIn);
                    resultIds.put(standIn, resultId);
                } else if (where.equals(group)) {
                    String path = name + "/worker-" + i;
                    Block<?, ?> w = worker.get();
                    Block<?, ?> runs = !resend ? w : new TaskMarkingWorker(requireNode("worker " + path, w, "a farm"
                            + " that re-sends a lost worker's tasks needs node workers (the end of onItem marks where a"
                            + " task's results end)"));
                    localWorkers.add(new LocalWorker(path, runs, taskId, resultId, taskCodec, resultCodec,
                            ChannelIds.tasks(name, i), ChannelIds.results(name, i)));
                }
            }
        }
        if (ledger != null) {
            ledgers.add(ledger);
        }
        return Farm.<I, O>of(workers).named(name);
    }

    /**
     * A pipeline stage that runs in group {@code where}. In the master process the stage is a stand-in
     * node: put it in the main flow like the block itself; it sends each item to {@code where} and
     * passes on what comes back, in order (one channel each way, so per-channel order holds end to
     * end), and end of stream crosses both ways. In {@code where} the block runs between those two
     * channels. A stage placed in the master group is the block itself.
     *
     * <p>Two stages next to each other in one pipeline (outside any feedback loop), both placed in
     * groups other than the master's, are linked: the first one's group sends its results straight to
     * the second one's group, encoded with the first stage's {@code out} codec (the second one's
     * group reads them with it too; the second stage's {@code in} codec is then not used), and the master sends
     * the first stage its items and takes the second one's results, never the items between them.
     * Per-channel order and end of stream hold along the run; a failure in any of its groups fails
     * the job with that group's cause, also when the group that failed first had not reached the next
     * one yet. Stages with a block of the master between them, or whose items and results carry
     * routing (all-to-all members, blocks inside loops), are not linked.
     * Losing the stage's process fails the job, as a node failing in it does (with its cause).
     *
     * @param <I> input type
     * @param <O> output type
     * @param name the stage's name, unique among the job's farms and stages (it derives the channel ids)
     * @param block makes the stage (a node or any block with one input and one output port); called
     *     only in the process that runs it
     * @param in encodes the items sent to the stage
     * @param out encodes what it sends back
     * @param where the group that runs it
     * @return the stage, for the main flow
     * @throws IllegalArgumentException if the job has no group {@code where}
     * @throws IllegalStateException if the name is taken or {@link #run} was called
     */
    public <I, O> Block<I, O> stage(String name, Supplier<? extends Block<? super I, ? extends O>> block, Codec<I> in,
                                    Codec<O> out, String where) {
        return place(name, block, in, out, where, false);
    }

    /** A stage, or (routed) an all-to-all member whose items and results carry their routing. */
    @SuppressWarnings("unchecked")
    private <I, O> Block<I, O> place(String name, Supplier<? extends Block<? super I, ? extends O>> block, Codec<I> in,
                                     Codec<O> out, String where, boolean routed) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        if (ran) {
            throw new IllegalStateException("declare every stage before run()");
        }
        spec.check(where);
        int inId = ids.reserve(ChannelIds.stageIn(name));
        int outId = ids.reserve(ChannelIds.stageOut(name));
        Codec<Object> inCodec = routed ? new RoutedCodec((Codec<Object>) in) : (Codec<Object>) in;
        Codec<Object> outCodec = routed ? new RoutedCodec((Codec<Object>) out) : (Codec<Object>) out;
        if (where.equals(spec.master())) {
            return isMaster() ? (Block<I, O>) block.get()
                    : (Block<I, O>) (Block<?, ?>) standIn(name, where, inId, inCodec, outCodec, routed);
        }
        failJobGroups.add(where);
        RemoteWorker standIn = standIn(name, where, inId, inCodec, outCodec, routed);
        remoteStandIns.add(standIn);
        if (!routed) {
            stageStandIns.add(standIn);
        }
        if (isMaster()) {
            standIns.add(standIn);
            resultIds.put(standIn, outId);
        } else if (where.equals(group)) {
            Block<?, ?> b = block.get();
            Block<?, ?> runs = !routed ? b : new RoutedMember(requireNode("all-to-all member " + name, b, "a member"
                    + " in another group must be a node (or a Comb), as the members of an all-to-all with feedback"
                    + " must"));
            localWorkers.add(new LocalWorker(name, runs, inId, outId, inCodec, outCodec, ChannelIds.stageIn(name),
                    ChannelIds.stageOut(name)));
        }
        return (Block<I, O>) (Block<?, ?>) standIn;
    }

    /**
     * The members of one side of an all-to-all, member {@code i} in group {@code placement.groupOf(i)}
     * (placed like the {@link #stage} {@code name#i}, with the routing below). Pass the list to
     * {@code AllToAll.of} as its left or right side, in every process alike:
     *
     * <pre>{@code
     * List<Block<Long, Long>> right = job.members("square", () -> Nodes.map((Long x) -> x * x), Codec.longs(),
     *         Codec.longs(), Placement.of("w1", "w2"));
     * AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(List.of(left0, left1), right)
     *         .dispatch(Dispatch.byKey((Long x) -> x % 16));
     * }</pre>
     *
     * <p>A member in another group behaves as it would in the master: its stand-in there sends it each
     * item with the input it came in on, so {@code inputIndex()} names the left member that sent it
     * and {@code inputCount()} the number of left members; what it sends comes back tagged, so
     * {@code sendTo(j, x)} reaches right member {@code j}, {@code send} goes by the all-to-all's
     * dispatch policy (applied in the master) and {@code broadcast} to every right member, and
     * {@code outputCount()} is the number of right members. Inside the member these counts are known
     * from its first item on (in {@code init} they are 1). Items from one left member to one right
     * member keep their order. A member in another group must be a {@link Node} (or a comb); the
     * group that runs it fails otherwise. The members of the other side may be anywhere. In an
     * all-to-all with {@code feedback()} a remote right member's {@code send} returns the item to the
     * left member it came from, and a remote left member sees {@code fromFeedback()}, as locally (see
     * {@link #run}). Losing a member's process fails the job.
     *
     * @param <I> input type of each member
     * @param <O> output type of each member
     * @param name the side's name, unique among the job's farms and stages (member {@code i} is the
     *     stage {@code name#i})
     * @param member makes a member; called only for the members this process runs
     * @param in encodes the items sent to a member
     * @param out encodes what a member sends on
     * @param placement the group of each member (its size is the number of members)
     * @return the members, in order
     * @throws IllegalArgumentException if the placement names a group the job does not have, or a
     *     member this process runs is not a {@link Node}
     * @throws IllegalStateException if a member's name is taken or {@link #run} was called
     */
    public <I, O> List<Block<I, O>> members(String name, Supplier<? extends Block<? super I, ? extends O>> member,
                                            Codec<I> in, Codec<O> out, Placement placement) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(placement, "placement");
        for (String g : placement.groups()) {
            spec.check(g);
        }
        List<Block<I, O>> side = new ArrayList<>();
        for (int i = 0; i < placement.workers(); i++) {
            side.add(place(name + "#" + i, member, in, out, placement.groupOf(i), true));
        }
        return List.copyOf(side);
    }

    private static RemoteWorker standIn(String name, String where, int inId, Codec<Object> in, Codec<Object> out,
                                        boolean routed) {
        return new RemoteWorker("remote-stage[" + name + "@" + where + "]", where, inId, in, out, routed);
    }

    /** {@code block} as a node, or an {@link IllegalArgumentException} naming {@code what} it is and {@code why}. */
    @SuppressWarnings("unchecked")
    private static Node<Object, Object> requireNode(String what, Block<?, ?> block, String why) {
        if (!(block instanceof Node)) {
            throw new IllegalArgumentException(what + " is a " + block.getClass().getSimpleName() + ", not a Node: "
                    + why);
        }
        return (Node<Object, Object>) block;
    }

    /**
     * The groups whose process this job lost and whose tasks its {@link WorkerLoss#RESEND_TASKS} farms
     * re-sent to the workers still alive; empty in other processes and when nothing was lost.
     *
     * @return the lost groups, a snapshot
     */
    public Set<String> lostGroups() {
        return Set.copyOf(lostGroups);
    }

    /**
     * The generation of {@code g}'s process: in the master, the one admitted last (1 until the group
     * was lost and came back); in a group's own process, its own; 0 if not known here.
     *
     * @param g a group of the job
     * @return its generation, or 0
     */
    public long generation(String g) {
        spec.check(g);
        if (!isMaster()) {
            return g.equals(group) ? generation : 0;
        }
        synchronized (members) {
            Member m = members.get(g);
            return m == null ? 0 : m.generation;
        }
    }

    /** Whether the current generation of {@code g} has shown a sign of life (master only; tests). */
    boolean beating(String g) {
        synchronized (members) {
            Member m = members.get(g);
            return m != null && m.beating();
        }
    }

    /** Whether {@code g} has reported that its part ended well (master only; tests). */
    boolean reportedOk(String g) {
        GroupReports r = masterReports;
        return r != null && r.reportedOk(g);
    }

    /**
     * How many tasks this job's {@link WorkerLoss#RESEND_TASKS} farms re-sent because their group was
     * lost (master process only).
     *
     * @return the number of re-sent tasks
     */
    public long resentTasks() {
        return ledgers.stream().mapToLong(FarmLedger::resent).sum();
    }

    /**
     * Runs this process's part and waits for it to end. In the master: starts {@code main}, waits for
     * it, then for every other group's report. Elsewhere: runs this group's workers ({@code main} is
     * not run; the same program builds it everywhere). Listens on this group's job address; refuses to
     * listen beyond this machine without a secret or TLS unless the job allows it.
     *
     * <p>Workers, stages and members of other groups inside a feedback loop (a farm's, pipeline's or
     * all-to-all's {@code feedback()}) are found here, in every process alike: their stand-ins replay
     * what the remote node sends where they stand ({@code send} back, {@code sendTo(1, x)} forward, a
     * right member's {@code send} to its item's origin) and tell it {@code fromFeedback()}; the group
     * marks the end of each item's results, and a stand-in returns from {@code onItem} with items
     * unanswered only while another item waits on its input ({@link
     * org.bbflow.core.NodeContext#hasPendingInput()}), so the loop ends only once nothing is in flight
     * in any group. Such a remote block must be a {@link Node}; the group that would run another
     * block throws an {@code IllegalArgumentException} here.
     *
     * @param main the main flow (run only in the master group)
     * @return the statistics of this process's flow
     * @throws FlowException if any group failed (in the master, a {@link GroupFailedException} is in the
     *     cause chain when another group failed)
     * @throws IllegalArgumentException if a farm with a strict collector (ordered, round-robin,
     *     gather) has a worker of another group that re-sends a lost worker's tasks, sits inside a
     *     composite worker (such as a pipeline with a remote stage) or in a feedback loop; or a farm
     *     that re-sends a lost worker's tasks is inside a
     *     feedback loop or without a collector (refused in every process alike, before anything
     *     listens); or, in the group
     *     that runs it, a block inside a loop is not a node, or (with a stall timeout,
     *     {@link JobSpec#stallTimeout()}) a block of another group is not a node
     * @throws IllegalStateException if listening is not allowed, or run was already called
     */
    public RunStats run(Block<?, ?> main) {
        Objects.requireNonNull(main, "main");
        if (ran) {
            throw new IllegalStateException("a distributed job runs once");
        }
        ran = true;
        try {
            if (crashed) {
                throw new IllegalStateException("group " + group + " was killed before it ran");
            }
            if (abandoned != null) {
                throw new IllegalStateException("group " + group + " gave up its part before it ran: " + abandoned);
            }
            prepareCrossings(main, null, false);
            if (spec.stallTimeout().isPresent()) {
                markTasksForStallWatch();
            }
            if (!isMaster()) {
                wrapMarkedWorkers();
            }
            spec.checkListenAllowed(group);
            NetOptions[] options = spec.options();
            return isMaster() ? runMaster(main, options[0], options[1]) : runGroup(options[0], options[1]);
        } finally {
            runEnded.countDown();
            LauncherLink.forget(this);
        }
    }

    /**
     * Gives this part up ({@link LauncherLink}: the launcher that started this process is gone): its
     * flow is cancelled, so {@link #run} fails as on any failure (a group reports it to the master
     * and closes its channels), and a later {@code run} is refused.
     */
    void abandon(String why) {
        abandoned = why;
        for (Flow f : new Flow[] {groupFlow, masterFlow}) {
            if (f != null) {
                f.cancel();
            }
        }
        NetServer s = groupServer;
        if (s != null && groupFlow == null) {
            s.close(); // a group still waiting for its admission stops waiting
        }
    }

    /** Waits until {@link #run} has ended, if it was called, or {@code deadline} (a {@link System#nanoTime()}) passed. */
    void awaitEnd(long deadline) {
        if (!ran) {
            return;
        }
        try {
            runEnded.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a flow of this part, cancelled at once if the part was given up meanwhile. */
    private Flow start(Block<?, ?> block, boolean master) {
        Flow f = Flow.start(block);
        if (master) {
            masterFlow = f;
        } else {
            groupFlow = f;
        }
        if (abandoned != null || crashed) { // crash() may have looked for the flow before it was set
            f.cancel();
        }
        return f;
    }

    /** Whether b stands for a block that runs in a group other than the master's (in any process). */
    private boolean isStandIn(Block<?, ?> b) {
        return b instanceof RemoteWorker r ? !r.group().equals(spec.master()) : b instanceof ResendingWorker;
    }

    /**
     * Prepares, in every process alike and before anything starts, the distributed blocks (the
     * master's stand-ins for workers, stages and members in other groups) inside feedback loops, and
     * refuses what a distributed block cannot be part of:
     * <ul>
     *   <li>Inside a feedback loop, a stand-in keeps the loop open until its items are answered (the
     *       group marks the end of each item's results) and replays the remote node's
     *       {@code send}/{@code sendTo}/{@code broadcast} where it stands ({@link RemoteWorker#joinLoop});
     *       the group that runs the block wraps it to match ({@link #wrapMarkedWorkers}). A farm that re-sends
     *       a lost worker's tasks is refused there: its ledger does not take part in the loop's count.</li>
     *   <li>A farm with a strict collector ({@code ORDERED}, {@code ROUND_ROBIN}, {@code GATHER}) takes a
     *       task's results at the end of the worker's {@code onItem}: its own stand-in workers wait for
     *       each task's results there ({@link #takeTurns}); a stand-in that cannot (inside a composite
     *       worker, re-sending, or in a loop) is refused, since it would hand results on whenever they
     *       come back and they would be counted to a later task.</li>
     * </ul>
     */
    private void prepareCrossings(Block<?, ?> b, String loop, boolean returnsToOrigin) {
        if (isStandIn(b)) {
            if (loop == null) {
                return;
            }
            if (b instanceof RemoteWorker r && !resendTaskIds.contains(r.taskId())) {
                r.joinLoop(returnsToOrigin);
                loopTaskIds.add(r.taskId());
            } else {
                throw new IllegalArgumentException(((Node<?, ?>) b).name() + " is inside the feedback loop of " + loop
                        + ": a farm that re-sends a lost worker's tasks (WorkerLoss.RESEND_TASKS) cannot be part of a"
                        + " feedback loop; use WorkerLoss.FAIL_JOB there");
            }
        } else if (b instanceof Pipeline<?, ?> p) {
            String l = loop != null ? loop : p.hasFeedback() ? "a pipeline of " + p.stages().size() + " stages" : null;
            p.stages().forEach(s -> prepareCrossings(s, l, false));
            if (l == null) {
                linkAdjacentStages(p.stages());
            }
        } else if (b instanceof Farm<?, ?> f) {
            String l = loop != null ? loop : f.hasFeedback() ? "a farm of " + f.workers().size() + " workers" : null;
            Collect c = f.collectPolicy();
            if (c == Collect.NONE) {
                refuseResendingWithoutCollector(f);
            }
            if (c != Collect.FIRST_COME && c != Collect.NONE) {
                for (Block<?, ?> w : f.workers()) {
                    takeTurns(w, c, l);
                }
            }
            f.workers().forEach(w -> prepareCrossings(w, l, false));
        } else if (b instanceof AllToAll<?, ?> a) {
            String l = loop != null ? loop : a.hasFeedback() ? "an all-to-all of " + a.left().size() + " x "
                    + a.right().size() + " members" : null;
            a.left().forEach(m -> prepareCrossings(m, l, false));
            a.right().forEach(m -> prepareCrossings(m, l, a.hasFeedback()));
        }
    }

    /**
     * Prepares worker {@code w} of a farm that collects {@code c}, a strict collector, which takes
     * each task's results at the end of its worker's {@code onItem}: a worker of another group that is
     * the farm's own worker hands its task's results on before it returns ({@link RemoteWorker#takeTurns});
     * one inside a composite worker, in a farm that re-sends a lost worker's tasks, or inside a
     * feedback loop ({@code loop} not null) hands them on whenever they come back, so it is refused.
     */
    private void takeTurns(Block<?, ?> w, Collect c, String loop) {
        Node<?, ?> remote = firstStandIn(w);
        if (remote == null) {
            return;
        }
        String why = null;
        if (remote != w) {
            why = "it is inside a composite worker (a worker of another group must be the farm's worker itself)";
        } else if (!(w instanceof RemoteWorker r) || resendTaskIds.contains(r.taskId())) {
            why = "the farm re-sends a lost worker's tasks (WorkerLoss.RESEND_TASKS)";
        } else if (loop != null) {
            why = "the farm is inside the feedback loop of " + loop;
        }
        if (why != null) {
            throw new IllegalArgumentException("the farm of " + remote.name() + " collects " + c + ", which takes each"
                    + " task's results at the end of its worker's onItem, and here a worker in another group sends"
                    + " them back whenever they are ready: " + why + "; collect FIRST_COME (the default) or NONE, and"
                    + " restore the order after the farm if it matters");
        }
        ((RemoteWorker) w).takeTurns();
        strictTaskIds.add(((RemoteWorker) w).taskId());
    }

    /**
     * Refuses a farm without a collector ({@code Collect.NONE}: worker i's results leave through output
     * port i, which the next block may take pairwise) whose workers re-send a lost worker's tasks: its
     * ledger hands each finished task's results on through whichever of its stand-ins runs next (and a
     * lost worker's re-sent tasks' through another worker's anyway), so a task's results would leave
     * through a port other than its worker's. Found in every process alike: a worker in another group
     * than the master's is a stand-in everywhere (a farm whose workers all run in the master re-sends
     * nothing and keeps its ports).
     */
    private void refuseResendingWithoutCollector(Farm<?, ?> f) {
        for (Block<?, ?> w : f.workers()) {
            if (isStandIn(w) && (w instanceof ResendingWorker || resendTaskIds.contains(((RemoteWorker) w).taskId()))) {
                throw new IllegalArgumentException("the farm of " + ((Node<?, ?>) w).name() + " is without a collector"
                        + " (withoutCollector(), Collect.NONE), whose output port i carries worker i's results, and"
                        + " re-sends a lost worker's tasks (WorkerLoss.RESEND_TASKS), which hands a task's results on"
                        + " through whichever of its workers' stand-ins runs next; keep its collector (FIRST_COME),"
                        + " or use WorkerLoss.FAIL_JOB");
            }
        }
    }

    /**
     * The first stand-in for a block of another group in {@code b} (b itself, or a stage, worker or
     * member inside it), or null.
     */
    private Node<?, ?> firstStandIn(Block<?, ?> b) {
        if (isStandIn(b)) {
            return (Node<?, ?>) b;
        }
        List<? extends Block<?, ?>> parts = b instanceof Pipeline<?, ?> p ? p.stages() : b instanceof Farm<?, ?> f
                ? f.workers() : List.of();
        if (b instanceof AllToAll<?, ?> a) {
            List<Block<?, ?>> members = new ArrayList<>(a.left());
            members.addAll(a.right());
            parts = members;
        }
        for (Block<?, ?> part : parts) {
            Node<?, ?> found = firstStandIn(part);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * Links each two stages next to each other in a pipeline (outside any feedback loop) that both run
     * in groups other than the master's: the first one's group sends its results straight to the
     * second one's group ({@link RemoteWorker#linkTo}), in every process alike. Items keep their order
     * (one channel from group to group) and end of stream follows them.
     */
    private void linkAdjacentStages(List<? extends Block<?, ?>> stages) {
        for (int i = 0; i + 1 < stages.size(); i++) {
            Block<?, ?> from = stages.get(i);
            Block<?, ?> to = stages.get(i + 1);
            if (stageStandIns.contains(from) && stageStandIns.contains(to)) {
                RemoteWorker a = (RemoteWorker) from;
                RemoteWorker b = (RemoteWorker) to;
                a.linkTo(b);
                linksOut.put(a.taskId(), new Link(b.group(), b.taskId()));
                linkedFrom.put(b.taskId(), a);
            }
        }
    }

    /**
     * By group, the groups of the linked runs it takes part in ({@link #linkAdjacentStages}), in run
     * order, for the master's {@link GroupReports#failureOf}: a group whose link to the next group of
     * a run breaks fails as a whole and reports {@code LINK}, and whichever of its blocks' stand-ins
     * (or a re-sending farm's lane) hears first traces it to the group that failed or was lost.
     */
    static Map<String, List<String>> linkedRunsByGroup(Iterable<RemoteWorker> standIns) {
        Map<String, LinkedHashSet<String>> byGroup = new HashMap<>();
        for (RemoteWorker r : standIns) {
            List<String> run = r.linkedRunGroups();
            if (run != null) {
                for (String g : run) {
                    byGroup.computeIfAbsent(g, k -> new LinkedHashSet<>()).addAll(run);
                }
            }
        }
        Map<String, List<String>> linked = new HashMap<>();
        byGroup.forEach((g, runs) -> linked.put(g, List.copyOf(runs)));
        return linked;
    }

    /**
     * With the stall watch on, every block of another group (a farm's worker, a stage, a member)
     * whose results carry no end-of-task marks yet gets them ({@link RemoteWorker#markTasks}), in every
     * process alike: without them the master cannot tell a stand-in that waits for its next item with
     * tasks unfinished in its group from one whose tasks are all done, and a group hung on a task
     * escaped the watch whenever its stand-in was between two items (the source slow or paused, the
     * emitter busy with other workers). A farm that re-sends a lost worker's tasks marks them always.
     * The cost: one byte per result and one frame per task on the result channel, only with the watch on.
     */
    private void markTasksForStallWatch() {
        for (RemoteWorker r : remoteStandIns) {
            if (r.markTasks()) {
                watchTaskIds.add(r.taskId());
            }
        }
    }

    /**
     * In a worker group, the blocks whose stand-ins wait for each item's end-of-item mark, wrapped as
     * those stand-ins expect: with a mark after each item's results ({@link TaskMarkingWorker}), and,
     * inside a feedback loop, routed ({@link RoutedMember}); a worker of a farm with a strict collector
     * ({@link RemoteWorker#takeTurns}) gets the mark only. Such a block must be a node: the end of its
     * {@code onItem} is where an item's results end.
     */
    private void wrapMarkedWorkers() {
        for (int k = 0; k < localWorkers.size(); k++) {
            LocalWorker w = localWorkers.get(k);
            boolean inLoop = loopTaskIds.contains(w.taskId());
            if (watchTaskIds.contains(w.taskId())) {
                Node<Object, Object> node = requireNode(w.path(), w.block(), "with a stall timeout"
                        + " (JobSpec.stallTimeout) a block of another group must be a node (the end of its onItem"
                        + " marks where a task's results end, which the master's stall watch needs to know whether"
                        + " tasks are outstanding); put a composite block's parts in the group as nodes of their own,"
                        + " or turn the stall timeout off");
                Node<Object, Object> runs = linkedFrom.containsKey(w.taskId()) ? new MarkPassingWorker(node)
                        : new TaskMarkingWorker(node);
                localWorkers.set(k, new LocalWorker(w.path(), runs, w.taskId(), w.resultId(), w.taskCodec(),
                        new TaskMarks(w.resultCodec()), w.taskPath(), w.resultPath()));
                continue;
            }
            if (!inLoop && !strictTaskIds.contains(w.taskId())) {
                continue;
            }
            boolean addRouting = inLoop && !(w.block() instanceof RoutedMember); // a member is routed already
            Node<Object, Object> node = w.block() instanceof RoutedMember m ? m : requireNode(w.path(), w.block(),
                    inLoop ? "a block of another group inside a feedback loop must be a node (the end of its onItem"
                            + " marks where an item's results end, which the loop needs to know when it may end)"
                            : "a worker of another group in a farm with a strict collector (ordered, round-robin,"
                            + " gather) must be a node (the end of its onItem marks where a task's results end)");
            Node<Object, Object> runs = addRouting ? new RoutedMember(node) : node;
            Codec<Object> in = addRouting ? new RoutedCodec(w.taskCodec()) : w.taskCodec();
            Codec<Object> out = new TaskMarks(addRouting ? new RoutedCodec(w.resultCodec()) : w.resultCodec());
            localWorkers.set(k, new LocalWorker(w.path(), new TaskMarkingWorker(runs), w.taskId(), w.resultId(), in, out,
                    w.taskPath(), w.resultPath()));
        }
    }

    private RunStats runMaster(Block<?, ?> main, NetOptions serverOptions, NetOptions clientOptions) {
        NetOptions toGroups = clientOptions.withIdentity(spec.id(), group + "#1");
        try (NetServer server = NetServer.bind(spec.host(group), spec.port(group), serverOptions);
             GroupReports reports = new GroupReports(server, Map.of())) {
            afterBind();
            masterServer = server;
            if (crashed) { // killed while it bound: crash() saw no server to close (see runGroup)
                throw new IllegalStateException("the master was killed while it started");
            }
            masterReports = reports;
            reports.linkedRuns(linkedRunsByGroup(remoteStandIns)); // the runs were linked by prepareCrossings
            masterOptions = toGroups;
            try {
                // every group learns its generation at once, and from then on that its master is there (or lost)
                for (String g : spec.groups()) {
                    if (!g.equals(group)) {
                        members.put(g, admit(g, 1));
                    }
                }
                for (RemoteWorker w : standIns) {
                    RemoteInlet<Object> in = w.receives() ? server.inlet(resultIds.get(w), w.resultCodec()) : null;
                    w.prepare(members.get(w.group()).client, in, reports);
                }
                for (FarmLedger ledger : ledgers) {
                    ledger.prepare(reports, lostGroups);
                    for (TaskLane lane : ledger.lanes()) {
                        lane.open(members.get(lane.group).client, server.inlet(lane.resultId, lane.resultCodec()), ledger);
                    }
                }
                RunStats stats;
                Thread stallWatch = null;
                try {
                    Flow flow = start(main, true);
                    AtomicReference<GroupFailedException> first = new AtomicReference<>();
                    if (spec.stallTimeout().isPresent()) {
                        stallWatch = watchStalls(spec.stallTimeout().get(), f -> {
                            if (first.compareAndSet(null, f)) {
                                flow.cancel();
                            }
                        });
                    }
                    stats = joinFailingOnReports(flow, reports, first);
                    ending = true;
                    reports.checkAll(System.nanoTime() + spec.peerTimeout().toNanos(), down, survivableGroups());
                } catch (RuntimeException | Error e) {
                    ending = true;
                    if (!crashed) { // a killed master (crash(): its flow cancelled) tells nobody anything
                        sendVerdicts(describe(e, p -> group + ":" + p), reports);
                    }
                    throw e;
                } finally {
                    if (stallWatch != null) {
                        stallWatch.interrupt(); // it stops at once: ending is set
                    }
                }
                if (!crashed) {
                    sendVerdicts(GroupReports.OK, reports);
                }
                return stats;
            } finally {
                ending = true;
                readmissions.forEach(Thread::interrupt);
                closeLanes();
                boolean abrupt = crashed; // a killed master's beats stop, they do not end cleanly
                synchronized (members) {
                    members.values().forEach(m -> m.close(abrupt));
                }
            }
        }
    }

    /**
     * Admits generation {@code generation} of {@code g}'s process: connects to it, tells it its
     * generation and watches its beats (its silence: {@link #silent}).
     */
    private Member admit(String g, long generation) {
        return new Member(g, generation, spec.host(g), spec.port(g), masterOptions, masterServer, masterReports,
                spec.livenessTimeout(), spec.peerTimeout(), () -> silent(g, generation));
    }

    /**
     * {@code g}'s process showed no sign of life for the liveness timeout. A group that runs only
     * workers of farms that re-send a lost worker's tasks is lost at once: fenced (its connections to
     * this server refused, so a process only stopped cannot come back and add duplicates), its
     * unfinished tasks re-sent, and a newer generation of it admitted when it comes back. Another
     * group is only suspected: the job fails if its channels stay down past the peer timeout.
     */
    private void silent(String g, long generation) {
        if (!survivableGroups().contains(g)) {
            System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "group " + g
                    + " shows no sign of life; its farms do not re-send a lost worker's tasks, so the job fails if it"
                    + " stays away for the peer timeout (" + spec.peerTimeout().toMillis() + " ms)");
            return;
        }
        lose(g, generation, "no sign of life for " + spec.livenessTimeout().toMillis() + " ms");
    }

    /** Declares generation {@code generation} of {@code g} lost, fences it, re-sends its tasks and awaits a newer one. */
    private void lose(String g, long generation, String why) {
        Member m;
        synchronized (members) {
            m = members.get(g);
            if (m == null || m.generation != generation || !m.markLost()) {
                return;
            }
            lostGroups.add(g);
            down.add(g);
        }
        String member = g + "#" + generation;
        masterServer.fence(member, "the master declared it lost (" + why + ")");
        // its lanes lost first (nothing more from them counts), then its connection closed (a send
        // waiting for a lost lane's window returns), then its unfinished tasks re-sent
        List<Runnable> resends = new ArrayList<>();
        List<TaskLane> lost = new ArrayList<>();
        for (FarmLedger ledger : ledgers) {
            for (TaskLane lane : ledger.lanes()) {
                if (lane.group.equals(g) && lane.generation == generation) {
                    resends.add(ledger.detach(lane, "group " + g + ": " + why));
                    lost.add(lane);
                }
            }
        }
        m.close(true);
        masterReports.forget(g);
        resends.forEach(Runnable::run);
        for (TaskLane lane : lost) {
            try {
                lane.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!ending) {
            Thread t = new Thread(() -> readmit(g, generation + 1), "bbflow-readmit-" + g);
            t.setDaemon(true);
            readmissions.add(t);
            t.start();
        }
    }

    /**
     * Waits for {@code g}'s process to come back (restarted by its engine or by hand) and admits it as
     * generation {@code next}: it gets lanes of its own again, in the slots of its lost ones, and
     * tasks from then on. Tries again after each peer timeout without a process there, until the job ends.
     */
    private void readmit(String g, long next) {
        while (!ending && !Thread.currentThread().isInterrupted()) {
            Member fresh = null;
            try {
                fresh = admit(g, next);
                fresh.awaitAdmitted();
                synchronized (members) {
                    if (ending) {
                        fresh.close(false);
                        return;
                    }
                    members.put(g, fresh);
                    down.remove(g);
                }
                for (FarmLedger ledger : ledgers) {
                    for (TaskLane lost : ledger.lanes()) {
                        if (lost.group.equals(g) && lost.generation == next - 1) {
                            TaskLane lane = lost.successor(next);
                            lane.open(fresh.client, masterServer.inlet(lane.resultId, lane.resultCodec()), ledger);
                            if (!ledger.rejoin(lost, lane)) {
                                lane.complete(); // its stand-in is ending: nothing for it to do
                            }
                        }
                    }
                }
                System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "group " + g
                        + " rejoined the job as generation " + next + "; its workers take tasks again");
                return;
            } catch (RuntimeException e) {
                System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.INFO, "group " + g
                        + " is not back yet as generation " + next + ": " + e.getMessage());
                if (fresh != null) {
                    fresh.close(true);
                }
                masterReports.forget(g);
                if (ending) {
                    return;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException i) {
                    return;
                }
            }
        }
    }


    /**
     * Waits for the master's flow, and cancels it as soon as another group reports that a node of it
     * failed: the master does not wait for one of its own nodes to notice (a group whose channels
     * lead to other groups, not to the master, may fail before any of them reaches the master). The
     * flow then fails with the first such group's failure, unless a node of the master already failed
     * with a group's cause.
     */
    private static RunStats joinFailingOnReports(Flow flow, GroupReports reports,
                                                 AtomicReference<GroupFailedException> first) {
        reports.whenAnyFails(f -> {
            if (first.compareAndSet(null, f)) {
                flow.cancel();
            }
        });
        try {
            return flow.join();
        } catch (FlowException e) {
            GroupFailedException reported = first.get();
            if (reported == null || causedByGroup(e)) {
                throw e;
            }
            if (failedByItself(e)) {
                // A node of the master failed by itself (RandomJobTest, MasterFailureCauseTest): that is the
                // job's cause, even if a group's report came in before the flow ended. The master's failure
                // cancelled its flow and aborted the streams it sent, and a worker group whose task stream
                // was aborted fails and reports that as its own failure, racing the master's join; the
                // report is a consequence. It stays attached, in case the group also failed on its own.
                e.addSuppressed(reported);
                throw e;
            }
            reported.addSuppressed(e);
            throw reported;
        }
    }

    /**
     * Whether the master's flow failed by a node's own exception: not cancelled (by a group's report or
     * the stall watch, see {@code joinFailingOnReports}), and not because a channel to a group failed or
     * carried a cut stream (then the group holds the cause).
     */
    private static boolean failedByItself(FlowException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CancellationException || t instanceof RemoteChannelException
                    || t instanceof RemoteStreamFailedException) {
                return false;
            }
        }
        return e.getCause() != null;
    }

    private static boolean causedByGroup(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof GroupFailedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Starts the stall watch ({@link JobSpec#stallTimeout()}) on a thread of its own, which checks every
     * tenth of the timeout (at most every 100 ms) until the job ends. A stand-in or lane with tasks
     * outstanding whose counts of tasks sent and results taken do not move for {@code stall}
     * ({@link StallWatch}) has its group treated as lost: a group that only runs workers of farms that
     * re-send a lost worker's tasks is lost as a silent one is ({@link #lose}: fenced, its unfinished
     * tasks re-sent); otherwise {@code failJob} gets the failure naming the group. The liveness
     * watch's threads judge one member's beats each and end with it, so this is a thread of its own,
     * started only when the watch is on; it reads counts the stand-ins and lanes keep per task without
     * a lock.
     */
    private Thread watchStalls(java.time.Duration stall, java.util.function.Consumer<GroupFailedException> failJob) {
        long stallNanos = stall.toNanos();
        long step = Math.max(TimeUnit.MILLISECONDS.toNanos(5), Math.min(TimeUnit.MILLISECONDS.toNanos(100), stallNanos / 10));
        String noProgress = "no progress for " + stall.toMillis() + " ms";
        String what = " (tasks outstanding, none taken and no result or end of task sent back, though its process"
                + " beats: stuck on a task, or not reading its tasks; see JobSpec.stallTimeout)";
        StallWatch rule = new StallWatch(stallNanos);
        Thread t = new Thread(() -> {
            while (!ending && !Thread.currentThread().isInterrupted()) {
                java.util.concurrent.locks.LockSupport.parkNanos(step);
                long now = System.nanoTime();
                for (RemoteWorker w : standIns) {
                    if (w.watchable() && rule.stuck(w, w.progress(), w.outstanding(), now) && !ending) {
                        failJob.accept(new GroupFailedException(w.watchGroups(), w.name(), w.watchName() + ": "
                                + noProgress + what, null));
                        return;
                    }
                }
                for (FarmLedger ledger : ledgers) {
                    for (TaskLane lane : ledger.lanes()) {
                        if (!rule.stuck(lane, lane.progress(), lane.outstanding(), now) || ending) {
                            continue;
                        }
                        rule.forget(lane);
                        if (!survivableGroups().contains(lane.group)) {
                            failJob.accept(new GroupFailedException(lane.group, "remote-worker[" + lane.name + "]",
                                    "remote-worker[" + lane.name + "]: " + noProgress + what, null));
                            return;
                        }
                        System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "group "
                                + lane.group + ": " + noProgress + " on " + lane.name + what + "; it counts as lost");
                        lose(lane.group, lane.generation, noProgress + " on " + lane.name);
                    }
                }
            }
        }, "bbflow-stall-watch");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Groups whose loss cannot fail the job: every worker they run belongs to a farm that re-sends. */
    private Set<String> survivableGroups() {
        Set<String> s = new HashSet<>(resendGroups);
        s.removeAll(failJobGroups);
        s.remove(spec.master());
        return s;
    }

    /** Closes every lane (the stand-ins close theirs too; a flow that never started leaves them open). */
    private void closeLanes() {
        for (FarmLedger ledger : ledgers) {
            for (TaskLane lane : ledger.allLanes()) {
                try {
                    lane.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private RunStats runGroup(NetOptions serverOptions, NetOptions clientOptions) {
        String master = spec.master();
        List<GroupOutlet> outlets = new ArrayList<>();
        List<GroupInlet> inlets = new ArrayList<>();
        Map<String, NetClient> clients = new LinkedHashMap<>(); // to the master, and to the groups of linked stages
        RemoteOutlet<String> report = null;
        Liveness.Beats beats = null;
        Liveness.Watch masterWatch = null;
        Throwable failure = null;
        try (NetServer server = NetServer.bind(spec.host(group), spec.port(group), serverOptions)) {
            afterBind();
            groupServer = server;
            if (crashed) {
                // Killed while it bound: crash() (which sets crashed, then looks for the server) found no
                // server to close; this part sees crashed now (it published its server first), so one of
                // the two always stops it. Before, the killed group went on, was admitted and ran its
                // part, its port bound after LocalJob.close() had returned (CrashDuringSetupTest).
                throw new IllegalStateException("group " + group + " was killed while it started");
            }
            if (abandoned != null) {
                throw new IllegalStateException("group " + group + " gave up its part: " + abandoned);
            }
            long generation = awaitAdmission(server);
            this.generation = generation;
            NetOptions options = clientOptions.withIdentity(spec.id(), group + "#" + generation);
            CompletableFuture<String> verdict = watchVerdict(server.inlet(ChannelIds.idOf(ChannelIds.verdict(group),
                    generation), Codec.strings()));
            try {
                masterWatch = Liveness.watch(server.inlet(ChannelIds.idOf(ChannelIds.pulse(group), generation),
                        Codec.longs()), spec.livenessTimeout(), "the master", () -> { });
                NetClient toMaster = Member.connect(spec.host(master), spec.port(master), options, spec.peerTimeout());
                synchronized (clients) {
                    clients.put(master, toMaster);
                }
                groupClients = clients;
                if (crashed) {
                    toMaster.closeAbruptly(); // killed before the table was published: crash() did not see it
                }
                beats = Liveness.beat(toMaster.outlet(ChannelIds.idOf(ChannelIds.beats(group), generation), Codec.longs()),
                        spec.livenessTimeout(), group);
                report = toMaster.outlet(ChannelIds.idOf(ChannelIds.report(group), generation), Codec.strings());
                if (localWorkers.isEmpty()) {
                    throw new IllegalStateException("group '" + group + "' runs no worker: no farm or stage places one in it");
                }
                List<Block<?, ?>> chains = new ArrayList<>();
                for (LocalWorker w : localWorkers) {
                    Link link = linksOut.getOrDefault(w.taskId(), new Link(master, w.resultId()));
                    int resultId = link.group().equals(master) ? w.resultId(generation) : link.channelId();
                    GroupInlet in = new GroupInlet(server.inlet(w.taskId(generation), linkedFrom.containsKey(w.taskId())
                            ? linkedFrom.get(w.taskId()).resultCodec() : w.taskCodec()));
                    inlets.add(in);
                    RemoteOutlet<Object> out = clientTo(clients, link.group(), options).outlet(resultId, w.resultCodec());
                    GroupOutlet o = new GroupOutlet(out, "to-" + (link.group().equals(master) ? "master" : link.group())
                            + "[" + w.path() + "]");
                    outlets.add(o);
                    chains.add(chain(in, held(w.block()), o).named(w.path().replace('/', '.')));
                }
                Flow flow = start(Farm.of(chains).withoutEmitter().withoutCollector().named(group), false);
                // a verdict before this group's report can only be a failure elsewhere (or the master lost)
                verdict.thenAccept(v -> {
                    if (!GroupReports.OK.equals(v)) {
                        flow.cancel();
                    }
                });
                RunStats stats;
                try {
                    stats = flow.join();
                } catch (FlowException e) {
                    GroupFailedException elsewhere = GroupReports.failure(master, verdict.getNow(null), e);
                    throw elsewhere != null ? elsewhere : e;
                }
                report(report, GroupReports.OK);
                GroupFailedException elsewhere = GroupReports.failure(master, awaitVerdict(verdict), null);
                if (elsewhere != null) {
                    throw elsewhere;
                }
                return stats;
            } catch (GroupFailedException e) {
                failure = e; // the job failed elsewhere: nothing to report
                throw e;
            } catch (RuntimeException | Error e) {
                failure = e;
                if (crashed) {
                    throw e;
                }
                if (isMasterLost(e, masterWatch, verdict)) {
                    GroupFailedException lost = new GroupFailedException(master, master, "lost the master"
                            + (masterWatch.started() ? " (no sign of life for " + masterWatch.sinceLastMillis() + " ms)" : "")
                            + ": " + rootMessage(e), e);
                    failure = lost;
                    throw lost;
                }
                if (report != null) {
                    String d = describe(e, this::jobPath);
                    Runnable hook = beforeFailureReportHook;
                    if (hook != null) {
                        hook.run();
                    }
                    report(report, isLinkFailure(e) ? GroupReports.LINK + d.substring(GroupReports.FAILED.length()) : d);
                }
                throw e;
            } finally {
                if (beats != null) {
                    // a clean end, delivered before the connection closes below: the master then knows at
                    // once that this group's part is over, instead of after a liveness timeout of silence
                    try {
                        if (crashed) {
                            beats.stop();
                        } else {
                            beats.stop(500);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (masterWatch != null) {
                    masterWatch.close();
                }
                if (!crashed) {
                    outlets.forEach(GroupOutlet::abortUnlessCompleted);
                }
                inlets.forEach(GroupInlet::closeAfterReport); // only now: a failing group has reported
                // crashed: abruptly, as crash() closes them (a killed process writes nothing more); a
                // graceful close here would abort the streams of a client crash() had not seen
                clients.values().forEach(crashed ? NetClient::closeAbruptly : NetClient::close);
            }
        } finally {
            if (failure != null) {
                System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.DEBUG,
                        "group " + group + " failed", failure);
            }
        }
    }

    /**
     * Waits for the master to say which generation of this group this process is (the first-connect
     * timeout, the job's peer timeout, bounds a slow start), then for the end of that message.
     */
    private long awaitAdmission(NetServer server) {
        try (RemoteInlet<Long> admission = server.inlet(ChannelIds.idOf(ChannelIds.admission(group)), Codec.longs())) {
            Long generation = admission.take();
            if (generation == null || generation < 1 || admission.take() != null) {
                throw new GroupFailedException(spec.master(), spec.master(), "the master's admission of group " + group
                        + " was not one generation", null);
            }
            return generation;
        } catch (RemoteChannelException e) {
            if (abandoned != null) {
                throw new IllegalStateException("group " + group + " gave up its part: " + abandoned, e);
            }
            throw new GroupFailedException(spec.master(), spec.master(), "lost the master: it did not admit group " + group
                    + " within the peer timeout (" + spec.peerTimeout().toMillis() + " ms): " + e.getMessage(), e);
        }
    }

    /**
     * Whether this group failed because the master is gone: its beats stopped, or its verdict channel
     * failed, and the failure is a channel's (not a node of this group failing by itself).
     */
    private static boolean isMasterLost(Throwable e, Liveness.Watch masterWatch, CompletableFuture<String> verdict) {
        boolean channel = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            channel |= t instanceof RemoteChannelException;
        }
        String v = verdict.getNow(null);
        return channel && ((masterWatch != null && masterWatch.silent()) || (v != null && v.contains("\tlost the master")));
    }

    /** The innermost message of {@code e}'s cause chain. */
    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    /**
     * This group's client to group {@code g}, connected on first use. The table is filled by this
     * group's thread while {@link #crash()} (a kill, on another thread) may read it: both hold its
     * lock, and a client added after the crash copied the table is closed abruptly here, as the crash
     * would have. Before, the crash iterated the plain map while this thread added to it: the kill
     * threw a {@code ConcurrentModificationException} before it closed the group's server or
     * cancelled its flow, and the killed group ran on (CrashDuringSetupTest).
     */
    private NetClient clientTo(Map<String, NetClient> clients, String g, NetOptions options) {
        synchronized (clients) {
            NetClient c = clients.get(g);
            if (c != null) {
                return c;
            }
        }
        java.util.function.Consumer<String> hook = beforeLinkedClientHook;
        if (hook != null) {
            hook.accept(g);
        }
        NetClient c = Member.connect(spec.host(g), spec.port(g), options, spec.peerTimeout()); // not under the lock: it may retry
        synchronized (clients) {
            clients.put(g, c);
        }
        if (crashed) {
            c.closeAbruptly(); // its outlet then fails at once ("client closed"), and the group ends
        }
        return c;
    }

    private void afterBind() {
        java.util.function.Consumer<String> hook = afterBindHook;
        if (hook != null) {
            hook.accept(group);
        }
    }

    /** How many clients this group has made (to the master and to linked groups); for tests. */
    int groupClientCount() {
        Map<String, NetClient> cs = groupClients;
        if (cs == null) {
            return 0;
        }
        synchronized (cs) {
            return cs.size();
        }
    }

    /**
     * Stops this process's part at once as a crash would (local mode's kill, {@link LocalJob}): no
     * report, no verdict, no end of any stream; the beats stop and every connection closes.
     */
    void crash() {
        crashed = true;
        ending = true;
        Map<String, NetClient> cs = groupClients;
        if (cs != null) {
            List<NetClient> copy;
            synchronized (cs) { // the group's thread may still be adding clients (see clientTo)
                copy = new ArrayList<>(cs.values());
            }
            for (NetClient c : copy) {
                Runnable hook = crashClientHook;
                if (hook != null) {
                    hook.run();
                }
                c.closeAbruptly(); // as a killed process's: close() would abort every stream
            }
        }
        NetServer s = groupServer != null ? groupServer : masterServer;
        if (s != null) {
            s.close();
        }
        // The master's flow too: it once went on after a kill (only groupFlow was cancelled), a node of it
        // waiting for ever, LocalJob.close() leaving its threads behind (MasterKillTest). Its run then ends
        // without verdicts, its beats stopped abruptly (runMaster); a flow started after this is
        // cancelled by start().
        for (Flow f : new Flow[] {groupFlow, masterFlow}) {
            if (f != null) {
                f.cancel();
            }
        }
    }

    /**
     * A worker as its group runs it: its task inlet, the worker and its result outlet. A worker that
     * is a node runs on one thread with the two ({@link Comb}): per task no hand-off between threads,
     * and a group has one thread per worker instead of three, which measured faster on 2 cores
     * (docs/benchmarks.md, "Network and distributed jobs"). Another block runs between them as a
     * pipeline.
     */
    /**
     * The block a flow places for a worker: a worker this job wrapped (to mark where a task's results
     * end, to re-send a lost worker's tasks, to route an all-to-all member's items) is placed with
     * {@link Nodes#wrapping}, so that the flow holds the user's node inside it as it holds an unwrapped
     * one: the same instance for two workers, or one running in another flow, is refused at start
     * instead of running on two threads at once.
     */
    private static Block<?, ?> held(Block<?, ?> worker) {
        if (!(worker instanceof WrappedNode w)) {
            return worker;
        }
        Node<?, ?> user = w.node;
        while (user instanceof WrappedNode inner) {
            user = inner.node;
        }
        return Nodes.wrapping(user, w);
    }

    private static Pipeline<Object, Void> chain(Source<Object> tasks, Block<?, ?> worker, GroupOutlet results) {
        if (worker instanceof Node<?, ?> node) {
            @SuppressWarnings("unchecked")
            Node<Object, Object> n = (Node<Object, Object>) node;
            return Pipeline.of(Comb.of(Comb.of(tasks, n), results));
        }
        return Pipeline.of(tasks, worker, results);
    }

    /**
     * A path in this group's flow ({@code group/worker-k/rest}, k counting this group's workers) as a
     * path in the job ({@code group:farm/worker-i/rest}, i the worker's index in its farm).
     */
    private String jobPath(String local) {
        int k = localWorkerOf(local);
        if (k < 0) {
            return group + ":" + local;
        }
        String prefix = group + "/worker-";
        int end = local.indexOf('/', prefix.length());
        return group + ":" + localWorkers.get(k).path() + (end < 0 ? "" : local.substring(end));
    }

    /** The index of the local worker a path in this group's flow ({@code group/worker-k/rest}) is in, or -1. */
    private int localWorkerOf(String local) {
        String prefix = group + "/worker-";
        if (local == null || !local.startsWith(prefix)) {
            return -1;
        }
        int end = local.indexOf('/', prefix.length());
        try {
            int k = Integer.parseInt(local.substring(prefix.length(), end < 0 ? local.length() : end));
            return k < localWorkers.size() ? k : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Whether this group failed because a channel of a linked stage failed (a stage that gets its
     * items from, or sends its results to, another group's stage): then that group, not this one, may
     * hold the cause, and the report says so ({@link GroupReports#LINK}). So does a group whose flow
     * failed only because the stream it received was cut ({@link RemoteStreamFailedException}: the
     * master's source ended its stream with a {@code StreamFailure}, directly or through the groups
     * of earlier stages): the master's own failure is the job's, and a {@link GroupReports#FAILED}
     * report would cancel the master's flow and replace its cause (see {@code joinFailingOnReports}).
     */
    private boolean isLinkFailure(Throwable e) {
        if (!(e instanceof FlowException f)) {
            return false;
        }
        if (f.getCause() instanceof RemoteStreamFailedException) {
            return true; // the flow's first failure (its cause) is the cut: anything after it is a consequence
        }
        int k = localWorkerOf(f.nodePath());
        int taskId = k < 0 ? 0 : localWorkers.get(k).taskId();
        if (k < 0 || (!linksOut.containsKey(taskId) && !linkedFrom.containsKey(taskId))) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RemoteChannelException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes the master's verdict on the whole job in the background: {@code OK}, the first failure, or
     * a failure saying the master was lost (its verdict channel failed).
     */
    private CompletableFuture<String> watchVerdict(RemoteInlet<String> inlet) {
        CompletableFuture<String> v = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                String r = inlet.take();
                v.complete(r != null ? r : GroupReports.FAILED + "\t" + spec.master() + "\tthe master ended the verdict without one");
            } catch (RuntimeException e) {
                v.complete(GroupReports.FAILED + "\t" + spec.master() + "\tlost the master: " + e.getMessage());
            }
        }, "bbflow-verdict-" + group);
        t.setDaemon(true);
        t.start();
        return v;
    }

    /**
     * The master's verdict, once this group's part succeeded. Waits at most twice the peer timeout
     * (the master first waits for every report).
     */
    private String awaitVerdict(CompletableFuture<String> verdict) {
        long wait = 2 * spec.peerTimeout().toMillis() + RemoteWorker.REPORT_WAIT.toMillis();
        try {
            return verdict.get(wait, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return GroupReports.FAILED + "\t" + spec.master() + "\tno verdict from the master within " + wait + " ms";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return GroupReports.FAILED + "\t" + spec.master() + "\tinterrupted while waiting for the verdict";
        }
    }

    /**
     * Tells every other group how the job ended, in parallel; each send is bounded by the peer timeout.
     * A group lost, one that already reported its own failure (it ends without waiting for a verdict),
     * or one whose beats stopped (killed after its report) is not told, and a send to a group that
     * meanwhile goes silent, reports its own failure or ends its beats is not waited for: that group
     * listens for no verdict any more, and its channel would only wait out the peer timeout (a group
     * failing because the master's failure cut its links, whose report and end come just after this
     * choice, held a failing job for the whole peer timeout).
     */
    private void sendVerdicts(String text, GroupReports reports) {
        Map<String, Member> told = new LinkedHashMap<>();
        synchronized (members) {
            members.forEach((g, m) -> {
                if (!m.lost() && !m.silent() && !reports.reportedFailure(g)) {
                    told.put(g, m);
                }
            });
        }
        Runnable hook = beforeVerdictsHook;
        if (hook != null) {
            hook.run();
        }
        Map<String, Thread> senders = new LinkedHashMap<>();
        told.forEach((g, m) -> {
            Thread t = new Thread(() -> report(m.verdict, text), "bbflow-verdict-to-" + g);
            t.setDaemon(true);
            t.start();
            senders.put(g, t);
        });
        long deadline = System.nanoTime() + spec.peerTimeout().toNanos() + 1_000_000_000L;
        for (Map.Entry<String, Thread> e : senders.entrySet()) {
            Member m = told.get(e.getKey());
            try {
                while (e.getValue().isAlive() && !m.silent() && !m.beatsEnded() && !reports.reportedFailure(e.getKey())
                        && System.nanoTime() - deadline < 0) {
                    e.getValue().join(20);
                }
            } catch (InterruptedException i) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Sends one line and ends the channel; bounded by the peer timeout (the peer may be gone). */
    private void report(RemoteOutlet<String> out, String text) {
        try {
            out.send(text);
            out.complete();
        } catch (RuntimeException e) {
            System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING,
                    "group " + group + " could not tell channel " + out.channelId() + " how its part ended: " + e.getMessage());
        }
    }

    /** {@code FAILED<TAB>node path<TAB>what happened}, the cause chain included, at most 16 KiB. */
    static String describe(Throwable e, java.util.function.UnaryOperator<String> toJobPath) {
        String path = e instanceof FlowException && ((FlowException) e).nodePath() != null
                ? toJobPath.apply(((FlowException) e).nodePath()) : "?";
        StringBuilder what = new StringBuilder();
        for (Throwable t = e; t != null && what.length() < 8192; t = t.getCause() == t ? null : t.getCause()) {
            if (what.length() > 0) {
                what.append(" <- ");
            }
            what.append(t);
        }
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        String text = GroupReports.FAILED + "\t" + path.replace('\t', ' ') + "\t" + what.toString().replace('\t', ' ')
                + "\n" + trace;
        return text.length() > 16_384 ? text.substring(0, 16_384) : text;
    }

}
