package org.bbflow.net.dist;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The master's account of one farm that survives a lost worker ({@link WorkerLoss#RESEND_TASKS}): its
 * remote workers' lanes, the tasks accepted and not yet finished, and the finished tasks' results
 * waiting to be handed on (by whichever stand-in runs next: the collector takes them first-come).
 *
 * <p>When a lane fails, the group's report decides: a group that reported a failure fails the job
 * with its cause; a group that sent none is lost, and its unfinished tasks are re-sent at once, by the
 * thread that noticed, to the lanes still alive and the farm's workers in the master
 * ({@link LocalResendWorker}s), round-robin. A task counts as finished only when its
 * end-of-task mark arrives on a lane still alive, and only then are its results handed on: every
 * task's results arrive exactly once.
 *
 * <p>End of stream: each stand-in, at its end of stream, waits until every stand-in has reached its
 * own and no task is unfinished. Only then can no lane be orphaned any more, and the task streams end.
 */
final class FarmLedger {
    /**
     * How long a failed lane waits for its group's report before calling the group lost. A failing
     * group sends its report before it aborts its channels, on the same connection, so the report is
     * normally there already.
     */
    static final Duration LOSS_REPORT_WAIT = Duration.ofSeconds(1);

    private final String farm;
    private final List<TaskLane> lanes = new ArrayList<>();
    /** The farm's node workers in the master: they take re-sent tasks too, and are never lost. */
    private final List<LocalResendWorker> locals = new ArrayList<>();
    private final AtomicInteger cursor = new AtomicInteger();
    private final ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
    private final AtomicLong unfinished = new AtomicLong();
    private final AtomicInteger running = new AtomicInteger();
    private final LongAdder resent = new LongAdder();
    private GroupReports reports;
    private Set<String> lostGroups;
    private volatile RuntimeException failure;

    FarmLedger(String farm) {
        this.farm = farm;
    }

    /** Adds a remote worker's lane and its stand-in; called while the farm is declared. */
    TaskLane add(TaskLane lane) {
        lanes.add(lane);
        running.incrementAndGet();
        return lane;
    }

    /** Adds a worker that runs in the master; called while the farm is declared. */
    LocalResendWorker addLocal(LocalResendWorker worker) {
        locals.add(worker);
        return worker;
    }

    List<TaskLane> lanes() {
        return lanes;
    }

    /** Where the master keeps the groups' reports and the lost groups; called before the flow starts. */
    void prepare(GroupReports reports, Set<String> lostGroups) {
        this.reports = reports;
        this.lostGroups = lostGroups;
    }

    /** Takes a task from the emitter: counts it unfinished and sends it, to {@code home} while it is alive. */
    void accept(Object task, TaskLane home) {
        unfinished.incrementAndGet();
        submit(task, home);
    }

    private void submit(Object task, TaskLane preferred) {
        TaskLane lane = preferred;
        while (true) {
            if (lane == null || lane.isLost()) {
                int k = nextLive();
                if (k >= lanes.size()) {
                    locals.get(k - lanes.size()).offer(task);
                    return;
                }
                lane = lanes.get(k);
            }
            if (lane.send(task)) {
                return;
            }
            lane = null;
        }
    }

    /** The next live target, round-robin: a lane's index, or {@code lanes.size() + j} for local worker j. */
    private int nextLive() {
        int start = cursor.getAndIncrement();
        int targets = lanes.size() + locals.size();
        for (int i = 0; i < targets; i++) {
            int k = Math.floorMod(start + i, targets);
            if (k >= lanes.size() || !lanes.get(k).isLost()) {
                return k;
            }
        }
        throw fail(new GroupFailedException(String.join(",", lostGroups), "farm " + farm,
                "every remote worker of farm '" + farm + "' was lost (groups " + lostGroups + ") and it has no node"
                        + " worker in the master", null));
    }

    /** A task's end-of-task mark came back on a live lane: its results can be handed on. */
    void finished(List<Object> taskResults) {
        results.addAll(taskResults);
        unfinished.decrementAndGet();
    }

    /** A re-sent task finished in a worker in the master (its results went straight to the collector). */
    void finishedHere() {
        unfinished.decrementAndGet();
    }

    /** Results a worker sent at its end of stream. */
    void ended(List<Object> eosResults) {
        results.addAll(eosResults);
    }

    /**
     * A lane's channel failed. Fails the farm if its group reported a failure (or the farm is left
     * without a live lane); otherwise re-sends the lane's unfinished tasks elsewhere.
     *
     * @throws RuntimeException the farm's failure, if it fails
     */
    void laneFailed(TaskLane lane, RuntimeException cause) {
        if (lane.isClosed()) {
            return; // the master closed it: the flow is ending, and its failure is the close
        }
        String report = reports.await(lane.group, LOSS_REPORT_WAIT);
        if (GroupReports.OK.equals(report)) {
            return; // its part ended normally: nothing of it was unfinished
        }
        if (report != null && !GroupReports.isLost(report)) {
            throw fail(GroupReports.failure(lane.group, report, cause)); // it failed and said so: so does the job
        }
        List<Object> orphans = lane.markLost();
        if (orphans == null) {
            return;
        }
        lostGroups.add(lane.group);
        resent.add(orphans.size());
        System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "farm " + farm
                + " lost its worker " + lane.name + " (" + cause.getMessage() + "); re-sending its " + orphans.size()
                + " unfinished tasks to the workers still alive");
        for (Object task : orphans) {
            submit(task, null);
        }
    }

    private RuntimeException fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        return failure;
    }

    /** Hands on the finished tasks' results; throws the farm's failure, if any. */
    <O> void handOn(org.bbflow.core.Outbox<O> out) {
        for (Object r; (r = results.poll()) != null; ) {
            @SuppressWarnings("unchecked")
            O o = (O) r;
            out.send(o);
        }
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** A stand-in reached its end of stream: it takes no more tasks. */
    void endOfStream() {
        running.decrementAndGet();
    }

    /** Every stand-in reached its end of stream and every task finished: no lane can be orphaned now. */
    boolean isDone() {
        return running.get() == 0 && unfinished.get() == 0;
    }

    long resent() {
        return resent.sum();
    }
}
