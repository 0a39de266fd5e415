package org.bbflow.net.dist;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.bbflow.net.RemoteStreamFailedException;
import org.bbflow.net.internal.StreamCuts;

/**
 * Stands in the master's flow for a farm's worker or a pipeline stage that runs in another group
 * (a stage is a worker without a farm around it): sends each task to the
 * group on the worker's task channel, and passes on the results arriving on its result channel. A
 * reader thread takes the results as they arrive (so the remote side never waits on this node); the
 * node hands them on whenever it runs: before and after each task, and at end of stream, when it
 * waits for the remote worker's end of stream. Results in hand are bounded by the tasks in flight
 * (the task channel's window) times the results per task.
 *
 * <p>Inside a feedback loop ({@link #joinLoop}) the stand-in keeps the loop open for what it sent:
 * the group marks the end of each item's results ({@link TaskMarks}), and the stand-in returns from
 * {@code onItem} with items unanswered only while another item waits on its input (see
 * {@link NodeContext#hasPendingInput()}); otherwise it waits for their answers and hands them on.
 * Items and answers then carry their routing ({@link Routed}), so that {@code send} (back) and
 * {@code sendTo(1, x)} (forward) mean what they mean for a local node in that place.
 *
 * <p>As a worker of a farm with a strict collector (ordered, round-robin, gather: {@link #takeTurns})
 * the stand-in hands each task's results on before it returns from {@code onItem}, as the collector
 * expects of a worker: it waits for the task's end-of-task mark, so such a remote worker has one task
 * in flight at a time.
 *
 * <p>Two pipeline stages next to each other in two other groups are linked ({@link #linkTo}): the
 * first stage's group sends its results straight to the second's, so the master neither reads them
 * nor sends them on. The first stand-in then only sends (and passes a {@link #TICK} on per item, so
 * that the last stand-in of the linked run hands results on as often as an unlinked one would), the
 * last only receives, one in between does neither.
 */
final class RemoteWorker implements Node<Object, Object> {
    /** How long a failing channel waits for the group's own report of why it failed. */
    static final Duration REPORT_WAIT = Duration.ofSeconds(5);
    /**
     * In a loop, how long the stand-in first waits for an answer before it looks at its input again
     * (it cannot be woken by an item); the wait doubles while no answer comes, up to
     * {@link #INPUT_CHECK_MAX_NANOS}, and starts again at this after each answer. So a new item waits
     * for the stand-in at most 50 µs while answers flow, and at most 1 ms while the group is busy
     * with a long item (when it costs nothing: the group works on the items before it), and a
     * stand-in waiting on a slow group wakes about a thousand times a second, not twenty thousand.
     */
    static final long INPUT_CHECK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    static final long INPUT_CHECK_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** What a linked stand-in passes to the next one per item: a cue to hand results on, never an item. */
    private static final Object TICK = new Object() {
        @Override
        public String toString() {
            return "TICK";
        }
    };

    private final String group;
    private final String name;
    private final int taskId;
    private Codec<Object> taskCodec;
    private Codec<Object> resultCodec;
    private final ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
    private NetClient client;
    private RemoteInlet<Object> inlet;
    private GroupReports reports;
    private RemoteOutlet<Object> outlet;
    private Thread reader;
    private volatile boolean readerDone;
    private volatile RuntimeException readerFailure;
    private boolean completed;
    private NodeContext context;
    /** Items and results carry their routing ({@link Routed}): an all-to-all member's stand-in, or one in a loop. */
    private boolean routed;
    /** Inside a feedback loop: results come with end-of-item marks, and onItem keeps the loop open. */
    private boolean inLoop;
    /** A worker of a farm with a strict collector: results come with end-of-task marks, onItem waits for them. */
    private boolean inTurn;
    /**
     * Results come with end-of-task marks ({@link TaskMarks}): in a loop, in a turn, or for the stall
     * watch only ({@link #markTasks}).
     */
    private boolean marked;
    /** A right member of an all-to-all with feedback: its {@code send} returns to the item's origin. */
    private boolean sendReturnsToOrigin;
    /** Items sent whose end-of-item mark has not come back (in a loop; this node's thread only). */
    private long unanswered;
    /** The node's thread while it waits for answers, for the reader to wake. */
    private volatile Thread waiter;
    /** Sends its items to its group (false: the previous stage's group sends them there, see {@link #linkTo}). */
    private boolean sends = true;
    /** Receives its group's results (false: its group sends them to the next stage's group). */
    private boolean receives = true;
    /** The stand-ins of the linked run this one belongs to, in order (null: not linked). */
    private List<RemoteWorker> linkedRun;
    /*
     * The stall watch's counts ({@link #progress}, {@link #outstanding}), each with one writer (sends:
     * this node's thread; taken: the reader): written with an ordered store (lazySet, a plain store on
     * x86, as JCTools writes a queue's index), not a volatile one, which would fence every send; no
     * lock per item. Only the watch reads them, and a count seen a moment late only delays it.
     */
    private static final AtomicLongFieldUpdater<RemoteWorker> SENDS_BEGUN =
            AtomicLongFieldUpdater.newUpdater(RemoteWorker.class, "sendsBegun");
    private static final AtomicLongFieldUpdater<RemoteWorker> SENDS_DONE =
            AtomicLongFieldUpdater.newUpdater(RemoteWorker.class, "sendsDone");
    private static final AtomicLongFieldUpdater<RemoteWorker> TAKEN =
            AtomicLongFieldUpdater.newUpdater(RemoteWorker.class, "taken");
    private static final AtomicLongFieldUpdater<RemoteWorker> DONE =
            AtomicLongFieldUpdater.newUpdater(RemoteWorker.class, "done");
    /** Sends begun, and sends returned: they differ while a send waits for the group's window. */
    private volatile long sendsBegun;
    private volatile long sendsDone;
    /** Results (and marks) taken from the group. */
    private volatile long taken;
    /**
     * End-of-task marks taken ({@link #marked} only): items the group finished. In the tail of a
     * linked run, items the head's group took that every group of the run finished (each passes the
     * marks of the one before it on, see {@link #markTasks}).
     */
    private volatile long done;
    /**
     * 1 while this node's thread waits for the group's answers or for the end of its results (per item
     * in a loop or a turn): an ordered store too, not a volatile one (two fences an item).
     */
    private volatile int awaiting;
    private static final AtomicIntegerFieldUpdater<RemoteWorker> AWAITING =
            AtomicIntegerFieldUpdater.newUpdater(RemoteWorker.class, "awaiting");

    RemoteWorker(String farm, int worker, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec) {
        this("remote-worker[" + farm + "#" + worker + "@" + group + "]", group, taskId, taskCodec, resultCodec);
    }

    /** A stand-in named {@code name} (a pipeline stage's: {@code remote-stage[name@group]}). */
    RemoteWorker(String name, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec) {
        this(name, group, taskId, taskCodec, resultCodec, false);
    }

    /**
     * A stand-in that, when {@code routed}, sends each item as a {@link Routed} (its input port and this
     * node's counts) and routes each result as the remote {@link RoutedMember} chose.
     */
    RemoteWorker(String name, String group, int taskId, Codec<Object> taskCodec, Codec<Object> resultCodec,
                 boolean routed) {
        this.routed = routed;
        this.group = group;
        this.name = name;
        this.taskId = taskId;
        this.taskCodec = taskCodec;
        this.resultCodec = resultCodec;
    }

    String group() {
        return group;
    }

    int taskId() {
        return taskId;
    }

    /**
     * Makes this stand-in part of a feedback loop (before the job's channels open): items and results
     * carry their routing, each item's results end with a mark, and with {@code returnsToOrigin} (a
     * right member of an all-to-all with feedback) the remote node's {@code send} goes back to the
     * left member its item came from. The group that runs the block wraps it the same way
     * ({@link DistributedJob}).
     */
    void joinLoop(boolean returnsToOrigin) {
        if (inLoop) {
            return;
        }
        if (!routed) {
            taskCodec = new RoutedCodec(taskCodec);
            resultCodec = new RoutedCodec(resultCodec);
            routed = true;
        }
        resultCodec = new TaskMarks(resultCodec);
        marked = true;
        inLoop = true;
        sendReturnsToOrigin = returnsToOrigin;
    }

    Codec<Object> resultCodec() {
        return resultCodec;
    }

    /**
     * Makes this stand-in a worker of a farm with a strict collector (before the job's channels open):
     * the group marks the end of each task's results ({@link TaskMarks}), and {@code onItem} hands the
     * task's results on before it returns, so that the collector counts them to that task. The group
     * that runs the worker wraps it the same way ({@link DistributedJob}).
     */
    void takeTurns() {
        if (!inTurn) {
            resultCodec = new TaskMarks(resultCodec);
            marked = true;
            inTurn = true;
        }
    }

    /**
     * With the stall watch on ({@link JobSpec#stallTimeout()}), makes the group mark the end of each
     * task's results (before the job's channels open, in every process alike) unless they are marked
     * already (in a loop or a turn), so that the watch knows whether tasks are outstanding between
     * two items too ({@link #outstanding}); the stand-in only counts these marks. The group that runs
     * the block wraps it to match (a node then, see {@code DistributedJob.wrapMarkedWorkers}); in a
     * linked run each group after the first passes the marks of the one before it on instead of
     * adding its own, so the tail's marks count the head's items that the whole run finished.
     *
     * @return whether the marks were added here (false: they were there already)
     */
    boolean markTasks() {
        if (marked) {
            return false;
        }
        resultCodec = new TaskMarks(resultCodec);
        marked = true;
        return true;
    }

    /**
     * Links this stage's stand-in to {@code next}, the stage after it in a pipeline, both running in
     * groups other than the master's (before the job's channels open, in every process alike): this
     * stage's group sends its results to {@code next}'s group on {@code next}'s task channel, encoded
     * with this stage's result codec.
     */
    void linkTo(RemoteWorker next) {
        receives = false;
        next.sends = false;
        List<RemoteWorker> run = linkedRun != null ? linkedRun : new ArrayList<>(List.of(this));
        run.add(next);
        linkedRun = run;
        next.linkedRun = run;
    }

    /** The groups of this stand-in's own linked run, in order, or null if it is not linked. */
    List<String> linkedRunGroups() {
        return linkedRun == null ? null : linkedRun.stream().map(w -> w.group).distinct().toList();
    }

    /** Whether the master reads this stand-in's results (false: its group sends them to the next stage's). */
    boolean receives() {
        return receives;
    }

    /** Connects this stand-in to the job's channels; called by the master before the flow starts. */
    void prepare(NetClient client, RemoteInlet<Object> inlet, GroupReports reports) {
        this.client = client;
        this.inlet = inlet;
        this.reports = reports;
    }

    @Override
    public void init(NodeContext ctx) {
        if (client == null) {
            throw new IllegalStateException(name + " runs only in the master group's flow, started by DistributedJob.run");
        }
        this.context = ctx;
        if (sends) {
            outlet = client.outlet(taskId, taskCodec);
        }
        if (receives) {
            reader = new Thread(this::read, ctx.path() + "/results");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void read() {
        try {
            for (Object r; (r = inlet.take()) != null; ) {
                TAKEN.lazySet(this, taken + 1); // this thread only
                if (r == TaskMarks.TASK_DONE) {
                    DONE.lazySet(this, done + 1); // this thread only
                    if (!inLoop && !inTurn) {
                        continue; // a mark for the stall watch only: nobody counts answers
                    }
                }
                results.add(r);
                if (inLoop || inTurn) { // set before this thread started; otherwise nobody waits for answers
                    wakeWaiter();
                }
            }
        } catch (RuntimeException e) {
            readerFailure = e;
        } finally {
            readerDone = true;
            wakeWaiter();
        }
    }

    private void wakeWaiter() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void onItem(Object item, Outbox<Object> out) throws InterruptedException {
        if (!receives) { // the head of a linked run sends, a stand-in inside it only passes the cue on
            if (sends) {
                send(item);
            }
            out.send(TICK);
            return;
        }
        handOn(out);
        if (!sends) { // the tail of a linked run: item is the cue to hand on what came back
            return;
        }
        send(routed ? new Routed(context.inputIndex(), context.inputCount(), out.outputCount(), context.fromFeedback(),
                item) : item);
        if (inLoop) {
            unanswered++;
            handOn(out);
            awaitAnswers(out, true);
        } else if (inTurn) {
            unanswered++;
            awaitAnswers(out, false);
        } else {
            handOn(out);
        }
    }

    /**
     * Returns once every item sent was answered (handing the answers on), or, with
     * {@code unlessInputWaits} (in a loop), as soon as another item waits on the input (it keeps the
     * loop open, and the next onItem waits again). Between checks it parks for
     * {@link #INPUT_CHECK_NANOS} to {@link #INPUT_CHECK_MAX_NANOS}; an answer wakes it at once.
     */
    private void awaitAnswers(Outbox<Object> out, boolean unlessInputWaits) throws InterruptedException {
        long park = INPUT_CHECK_NANOS;
        AWAITING.lazySet(this, 1);
        try {
            awaitAnswersLoop(out, unlessInputWaits, park);
        } finally {
            AWAITING.lazySet(this, 0);
        }
    }

    private void awaitAnswersLoop(Outbox<Object> out, boolean unlessInputWaits, long park) throws InterruptedException {
        while (unanswered > 0 && !(unlessInputWaits && context.hasPendingInput()) && !context.isCancelled()) {
            waiter = Thread.currentThread();
            if (results.isEmpty() && !readerDone) {
                LockSupport.parkNanos(this, park);
                park = Math.min(2 * park, INPUT_CHECK_MAX_NANOS);
            } else {
                park = INPUT_CHECK_NANOS;
            }
            waiter = null;
            if (Thread.interrupted()) {
                throw new InterruptedException(name + ": interrupted while waiting for " + unanswered + " answer(s)");
            }
            boolean ended = readerDone;
            handOn(out);
            if (ended && unanswered > 0 && results.isEmpty()) {
                throw new IllegalStateException(name + ": group " + group + " ended its results with " + unanswered
                        + " item(s) unanswered");
            }
        }
    }

    private void send(Object item) {
        SENDS_BEGUN.lazySet(this, sendsBegun + 1); // this node's thread only
        try {
            outlet.send(item);
        } catch (RemoteChannelException e) {
            throw explained(e);
        }
        SENDS_DONE.lazySet(this, sendsDone + 1);
    }

    /**
     * Whether the stall watch judges this stand-in: one that sends to its group, with what it reads
     * back (its own results, or in the head of a linked run the run's tail's: the run is judged as
     * one, since the master sees only its two ends). A stand-in that does not send is judged with the
     * head of its run.
     */
    boolean watchable() {
        return sends;
    }

    /** Where the results of what this stand-in sends come back: itself, or the tail of its linked run. */
    private RemoteWorker tail() {
        return receives ? this : linkedRun.get(linkedRun.size() - 1);
    }

    /** The stall watch's measure of progress: sends returned plus results (and marks) taken at the {@link #tail}. */
    long progress() {
        long t = tail().taken;
        return sendsDone + t;
    }

    /**
     * Whether this stand-in (with its run, if linked) waits on its group: a send waits for its window,
     * it waits for the group's answers or the end of its results, or (results {@link #marked}) a task
     * it sent is not finished: fewer end-of-task marks came back than sends began. A mark comes only
     * after its send began, and {@code done} is read first, so a stand-in whose tasks all finished is
     * never seen with one outstanding.
     */
    boolean outstanding() {
        RemoteWorker t = tail();
        long d = t.done;
        long begun = sendsBegun;
        return t.awaiting == 1 || begun != sendsDone || (t.marked && begun > d);
    }

    /** The name the stall watch gives this stand-in (with the rest of its run, if linked). */
    String watchName() {
        if (linkedRun == null) {
            return name;
        }
        return "linked run " + String.join(" -> ", linkedRun.stream().map(w -> w.name).toList());
    }

    /**
     * The groups the stall watch blames: this one's, or those of its linked run in run order (one of
     * which is stuck; the master cannot tell which), each a real group ({@link GroupFailedException#groups()}).
     */
    List<String> watchGroups() {
        List<String> run = linkedRunGroups();
        return run == null ? List.of(group) : run;
    }

    @Override
    public void onEos(Outbox<Object> out) throws InterruptedException {
        if (sends && !context.isCancelled()) { // cancelled: close() aborts the task stream
            try {
                if (context.flowFailed()) {
                    // the master's stream was cut (its source's StreamFailure): the group's is too
                    outlet.completeWithFailure(StreamCuts.description(context));
                } else {
                    outlet.complete();
                }
            } catch (RemoteChannelException e) {
                throw explained(e);
            }
            completed = true;
        }
        if (!receives) {
            return;
        }
        AWAITING.lazySet(this, 1);
        try {
            while (!readerDone && !context.isCancelled()) {
                handOn(out);
                reader.join(10); // bounded: the inlet fails by itself once the peer stays away past the timeout
            }
        } finally {
            AWAITING.lazySet(this, 0);
        }
        handOn(out);
    }

    private void handOn(Outbox<Object> out) {
        for (Object r; (r = results.poll()) != null; ) {
            if (r == TaskMarks.TASK_DONE) {
                unanswered--;
            } else if (!routed) {
                out.send(r);
            } else {
                Routed x = (Routed) r;
                if (x.port() == Routed.POLICY && sendReturnsToOrigin) {
                    if (x.inputs() == 0) {
                        throw new IllegalStateException(name + " is a right member of an all-to-all with feedback: "
                                + "send(x) returns x to the left member the current item came from, and there is"
                                + " none in onEos; use sendTo(i, x) to pick a left member, or an output past them to go"
                                + " forward");
                    }
                    out.sendTo(x.inputs() - 1, x.item());
                } else if (x.port() == Routed.POLICY) {
                    out.send(x.item());
                } else if (x.port() == Routed.BROADCAST) {
                    out.broadcast(x.item());
                } else {
                    out.sendTo(x.port(), x.item());
                }
            }
        }
        RuntimeException f = readerFailure;
        if (f != null && !isEchoOfThisCut(f)) {
            throw explained(f);
        }
    }

    /**
     * Whether a failure of the result stream is this flow's own cut coming back: the group's results
     * ended failed ({@link RemoteStreamFailedException}) because the stream the master sent it was cut
     * by the master's source, whose failure the flow already holds. Every result came before it, so
     * it is the end of the results, not a failure of the group's.
     */
    private boolean isEchoOfThisCut(RuntimeException f) {
        return f instanceof RemoteStreamFailedException && context.flowFailed();
    }

    /**
     * The group's own account of the failure if it sends one in time, else the channel's. In a linked
     * run, a group that failed because a link to another group of the run failed points to the group
     * that failed first: that one's account, if it failed or was lost, is the cause. So also for a
     * stand-in of another block of that group (a farm's worker, a stage, a member): its channel fails
     * because the group's flow failed on the broken link, and its group's report says {@code LINK}
     * too. Before, such a stand-in blamed its own group, whose link had broken because the next group
     * was killed, and the job named the wrong group (RandomJobTest). Package-private
     * for {@code LinkedFailureTest}, which forces the order of reports that a real run only races into.
     */
    RuntimeException explained(RuntimeException e) {
        GroupFailedException reported = reports.failureOf(group, reports.await(group, REPORT_WAIT), REPORT_WAIT, e);
        return reported != null ? reported : e;
    }

    @Override
    public void close() throws InterruptedException {
        if (outlet != null && !completed) {
            outlet.close(); // without complete(): aborts, so the group fails too
        }
        if (reader != null) {
            reader.interrupt();
            reader.join(5_000);
        }
        if (inlet != null) {
            inlet.close();
        }
    }

    @Override
    public String name() {
        return name;
    }
}
