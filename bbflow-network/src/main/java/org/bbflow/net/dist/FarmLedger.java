package org.bbflow.net.dist;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * <p>A group may also be declared lost by its silence ({@link #lose}, from the job's liveness
 * watch), before any of its channels fails; a lost group restarted under a new generation gets new
 * lanes in the same slots ({@link #rejoin}), so its stand-ins send to it again.
 *
 * <p>End of stream: each stand-in, at its end of stream, waits until every stand-in has reached its
 * own and no task is unfinished. Only then can no lane be orphaned any more, and the task streams end.
 */
final class FarmLedger {
    /**
     * How long a failed lane waits for its group's report before calling the group lost. A failing
     * group sends its report (and has it acknowledged) before it aborts its result channels
     * ({@link GroupOutlet}) or closes its task channels ({@link GroupInlet}), so a lane of a failing
     * group fails only after its report is in; the wait covers the master's own reader of it.
     */
    static final Duration LOSS_REPORT_WAIT = Duration.ofSeconds(1);

    private final String farm;
    /** The current lane of each remote worker's slot (a rejoined group's new lane replaces its lost one). */
    private final List<TaskLane> lanes = new CopyOnWriteArrayList<>();
    /** Lanes replaced by a newer generation's, closed with the others at the end. */
    private final List<TaskLane> retired = new CopyOnWriteArrayList<>();
    /** Slots whose stand-in is ending its lane's stream: no newer generation takes them over any more. */
    private final java.util.Set<Integer> closing = java.util.concurrent.ConcurrentHashMap.newKeySet();
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

    /** Every lane ever opened: the current ones and those a newer generation replaced. */
    List<TaskLane> allLanes() {
        List<TaskLane> all = new ArrayList<>(lanes);
        all.addAll(retired);
        return all;
    }

    /** The current lane of {@code slot}. */
    TaskLane lane(int slot) {
        return lanes.get(slot);
    }

    /** The slot of {@code lane} (its index among the remote workers), or -1. */
    int slotOf(TaskLane lane) {
        return lanes.indexOf(lane);
    }

    /** The stand-in of {@code slot} ends its stream: returns the lane to end; no rejoin replaces it from now on. */
    synchronized TaskLane closeSlot(int slot) {
        closing.add(slot);
        return lanes.get(slot);
    }

    /**
     * A newer generation of a lost lane's group: {@code fresh} replaces {@code lost} in its slot and
     * takes tasks from now on; false (nothing replaced) if the slot's stand-in is already ending.
     */
    synchronized boolean rejoin(TaskLane lost, TaskLane fresh) {
        int slot = lanes.indexOf(lost);
        if (slot < 0 || closing.contains(slot) || !lost.isLost()) {
            return false;
        }
        lanes.set(slot, fresh);
        retired.add(lost);
        return true;
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

    /** Sends a task to {@code preferred} while it lives, else round-robin. */
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
        // every group of its lanes, in placement order: each a real group, none a joined name
        throw fail(new GroupFailedException(lanes.stream().map(l -> l.group).distinct().toList(), "farm " + farm,
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
        if (lane.isClosed() || lane.isLost()) {
            return; // the master closed it (the flow is ending), or its group was lost and fenced already
        }
        String report = reports.await(lane.group, LOSS_REPORT_WAIT);
        if (GroupReports.OK.equals(report)) {
            return; // its part ended normally: nothing of it was unfinished
        }
        if (report != null && !GroupReports.isLost(report)) {
            // it failed and said so: so does the job (a broken link of a linked run: the group it broke at)
            throw fail(reports.failureOf(lane.group, report, RemoteWorker.REPORT_WAIT, cause));
        }
        // say why the group counts as lost: no report within the wait, or its report channel failed (LOST)
        lose(lane, cause.getMessage() + (report == null ? "; no report from group " + lane.group + " within "
                + LOSS_REPORT_WAIT.toMillis() + " ms" : "; its report channel: "
                + report.substring(GroupReports.LOST.length() + 1)));
    }

    /**
     * Declares the lane lost (its group is gone, or silent past the liveness timeout): nothing more
     * from it counts, and its unfinished tasks go, at once and from this thread, to the lanes still
     * alive and the farm's workers in the master.
     */
    void lose(TaskLane lane, String why) {
        detach(lane, why).run();
    }

    /**
     * The first half of {@link #lose}: marks the lane lost (nothing more from it counts) and returns
     * the second half, which re-sends its unfinished tasks (nothing, if it was lost already).
     */
    Runnable detach(TaskLane lane, String why) {
        List<Object> orphans = lane.markLost();
        if (orphans == null) {
            return () -> { };
        }
        lostGroups.add(lane.group);
        resent.add(orphans.size());
        System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "farm " + farm
                + " lost its worker " + lane.name + " (" + why + "); re-sending its " + orphans.size()
                + " unfinished tasks to the workers still alive");
        return () -> {
            for (Object task : orphans) {
                submit(task, null);
            }
        };
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
