package org.bbflow.net.dist;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.bbflow.net.RemoteStreamFailedException;

/**
 * One remote worker of a farm that survives a lost worker, as the master sees it: its task channel,
 * its result channel read by a thread of its own, and the tasks sent to it whose end-of-task mark has
 * not come back yet (in send order: the worker finishes its tasks in that order).
 *
 * <p>Two locks with two jobs. {@code sending} orders the sends (several threads may send on one lane:
 * its own stand-in, and whoever re-sends a lost lane's tasks) and is held while a send waits for the
 * channel's window; closing the lane takes it too, since an outlet is one thread's at a time.
 * {@code state} guards the unfinished tasks and the lost flag and is never held across a network
 * wait, so the reader can always take results in (the remote worker never waits on the master to
 * send more).
 *
 * <p>An interrupt of a thread in {@link #send} means that thread is asked to stop (its flow is
 * cancelled), never that the lane it sends to failed. Closing a lane interrupts its reader only while
 * the reader still reads: once out of its channel the reader may re-send its lane's unfinished tasks
 * to other lanes, and an interrupt there (its own lane closing: the job ending, or the liveness watch
 * declaring its group lost as well) once made a send waiting for a live lane's window count that lane,
 * and its group, lost.
 */
final class TaskLane {
    final String group;
    final String name;
    final String farm;
    final int worker;
    /** The generation of the group's process this lane talks to. */
    final long generation;
    final int resultId;
    private final int taskId;
    private final Codec<Object> taskCodec;
    private final Codec<Object> resultCodec;
    private final ReentrantLock sending = new ReentrantLock();
    private final Object state = new Object();
    private final ArrayDeque<Object> unfinished = new ArrayDeque<>();
    private boolean lost;
    private volatile boolean completed;
    /** The master ended the task stream with a failure: a failed end of the results is its echo. */
    private volatile boolean cut;
    private volatile boolean closed;
    /** The reader is still in its channel: {@link #close} may interrupt it. Guarded by {@code state}. */
    private boolean reading = true;
    /*
     * The stall watch's counts ({@link #progress}, {@link #outstanding}): each has one writer at a time
     * (sent: the holder of {@code sending}; taken and done: the reader), written with an ordered store
     * (lazySet: no fence per task, as in RemoteWorker); no lock is added per item; only the watch reads them.
     */
    private static final AtomicLongFieldUpdater<TaskLane> SENT = AtomicLongFieldUpdater.newUpdater(TaskLane.class, "sent");
    private static final AtomicLongFieldUpdater<TaskLane> TAKEN = AtomicLongFieldUpdater.newUpdater(TaskLane.class, "taken");
    private static final AtomicLongFieldUpdater<TaskLane> DONE = AtomicLongFieldUpdater.newUpdater(TaskLane.class, "done");
    /** Tasks accepted for sending (counted before the send, which may wait for window). */
    private volatile long sent;
    /** Results and end-of-task marks taken from the result channel. */
    private volatile long taken;
    /** End-of-task marks taken: tasks finished. */
    private volatile long done;
    private FarmLedger ledger;
    private RemoteOutlet<Object> outlet;
    private RemoteInlet<Object> inlet;
    private Thread reader;

    TaskLane(String farm, int worker, String group, long generation, Codec<Object> taskCodec, Codec<Object> resultCodec) {
        this.group = group;
        this.farm = farm;
        this.worker = worker;
        this.generation = generation;
        this.name = farm + "#" + worker + "@" + group + (generation == 1 ? "" : "#" + generation);
        this.taskId = ChannelIds.idOf(ChannelIds.tasks(farm, worker), generation);
        this.resultId = ChannelIds.idOf(ChannelIds.results(farm, worker), generation);
        this.taskCodec = taskCodec;
        this.resultCodec = resultCodec;
    }

    /** The lane of the same worker in generation {@code next} of its group's process. */
    TaskLane successor(long next) {
        return new TaskLane(farm, worker, group, next, taskCodec, resultCodec);
    }

    /** The result channel's codec: results and end-of-task marks ({@link TaskMarks}). */
    Codec<Object> resultCodec() {
        return resultCodec;
    }

    /** Opens the task channel and starts reading results; called once, before any send. */
    void open(NetClient client, RemoteInlet<Object> results, FarmLedger ledger) {
        this.ledger = ledger;
        this.inlet = results;
        this.outlet = client.outlet(taskId, taskCodec);
        reader = new Thread(this::read, "bbflow-results-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    boolean isLost() {
        synchronized (state) {
            return lost;
        }
    }

    /**
     * Sends one task. Returns false, without sending, if the lane is lost (the caller picks another).
     * If the channel fails during the send, the lane's loss is handled here and the task, already
     * counted as unfinished, is re-sent with the others. A send that is interrupted throws instead,
     * and the lane is not lost: only a stand-in (a node of the master's flow, sending its own task or
     * re-sending a lost lane's) is ever interrupted in a send, when its flow is cancelled (the master's
     * part failed or was given up), and that is not this lane's group lost. A lane's reader, the other
     * thread that re-sends, is not interrupted once it is out of its channel ({@link #close}); the
     * liveness watch, the third, never is.
     */
    boolean send(Object task) {
        RemoteChannelException failed = null;
        sending.lock();
        try {
            synchronized (state) {
                if (lost) {
                    return false;
                }
                unfinished.addLast(task);
            }
            SENT.lazySet(this, sent + 1); // under sending: one writer
            outlet.send(task);
        } catch (RemoteChannelException e) {
            if (Thread.currentThread().isInterrupted()) {
                // the sender's flow is being cancelled (the master's part failed or was given up), not
                // the group lost: taken for a loss, a live group was counted lost and its tasks re-sent
                // while the job was ending. The job fails: what was left to re-send does not matter.
                throw e;
            }
            failed = e;
        } finally {
            sending.unlock();
        }
        if (failed != null) {
            ledger.laneFailed(this, failed);
        }
        return true;
    }

    /** The stall watch's measure of progress: tasks sent plus results and marks taken. */
    long progress() {
        long t = taken; // read first: a result is never counted before its task
        return sent + t;
    }

    /** Whether tasks sent to this lane have not all finished (lost lanes have nothing outstanding here). */
    boolean outstanding() {
        long d = done;
        return sent > d && !isLost();
    }

    /** Marks the lane lost and returns its unfinished tasks, oldest first; null if it was lost already. */
    List<Object> markLost() {
        synchronized (state) {
            if (lost) {
                return null;
            }
            lost = true;
            List<Object> orphans = new ArrayList<>(unfinished);
            unfinished.clear();
            return orphans;
        }
    }

    private void read() {
        List<Object> results = new ArrayList<>();
        RuntimeException failure = null;
        boolean end = false;
        try {
            for (Object r; (r = inlet.take()) != null; ) {
                TAKEN.lazySet(this, taken + 1); // this thread only
                if (r != TaskMarks.TASK_DONE) {
                    results.add(r);
                    continue;
                }
                DONE.lazySet(this, done + 1);
                synchronized (state) {
                    if (lost) {
                        return; // its tasks went elsewhere: nothing more from here counts
                    }
                    if (unfinished.pollFirst() == null) {
                        throw new RemoteChannelException("channel " + inlet.channelId() + " from group '" + group
                                + "': an end-of-task mark without a task in flight");
                    }
                    ledger.finished(results);
                }
                results.clear();
            }
            end = true;
        } catch (RemoteStreamFailedException e) {
            if (cut) {
                end = true; // the group's stream was cut because the master's was: every result is in
            } else {
                failure = e;
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            // it may stop in the middle of a frame (a lost lane, a mark without a task): the frame in
            // hand is this thread's to free; close(), later and from another thread, leaves it alone
            inlet.stopReading();
            synchronized (state) {
                reading = false; // out of the channel for good: close() neither interrupts nor waits for it now
            }
        }
        // a failed lane may be lost, and its unfinished tasks re-sent from here, waiting for other lanes'
        // windows: an interrupt meant to wake the reader in its channel must not reach such a send
        // (nor does any: close() interrupts only while reading is true, and sets closed first, which
        // makes laneFailed() of this lane return at once if an interrupt came in before the flag fell)
        if (end) {
            ended(results);
        } else if (failure != null) {
            failed(failure);
        }
    }

    private void ended(List<Object> results) {
        synchronized (state) {
            if (!lost) {
                ledger.ended(results); // what the worker sent at its end of stream
            }
        }
    }

    private void failed(RuntimeException e) {
        try {
            ledger.laneFailed(this, e);
        } catch (RuntimeException recorded) {
            // the ledger keeps the farm's failure; the stand-ins throw it in their own threads
        }
    }

    /**
     * Ends the task stream if the lane is alive; a lane whose group is gone by now had nothing
     * unfinished (the farm is done), so its failure here changes nothing.
     */
    void complete() {
        complete(null);
    }

    /**
     * As {@link #complete()}; with a {@code failure} (the master's stream was cut by its source's
     * {@code StreamFailure}) the task stream ends with it, and the group's results then end with a
     * failure too, which ends the lane as a clean end would.
     */
    void complete(String failure) {
        sending.lock();
        try {
            if (!isLost()) {
                if (failure != null) {
                    cut = true;
                    outlet.completeWithFailure(failure);
                } else {
                    outlet.complete();
                }
                completed = true;
            }
        } catch (RemoteChannelException e) {
            ledger.laneFailed(this, e);
        } finally {
            sending.unlock();
        }
    }

    /** Waits until the group ended its result stream (or the lane failed), at most {@code millis}. */
    boolean awaitEnd(long millis) throws InterruptedException {
        reader.join(millis);
        return !reader.isAlive();
    }

    /** Whether the master closed this lane (its stand-in ended, or the job is ending). */
    boolean isClosed() {
        return closed;
    }

    /** Aborts the task stream unless completed, stops the reader and closes the result channel. */
    synchronized void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        if (outlet != null && !completed) {
            // not while a send is in the outlet: its buffer is the sending thread's (RemoteOutlet), and
            // closed under it, it was freed while that thread still wrote into it. A lost group's
            // connection is closed before its lanes, so a send waiting for its window returns as soon
            // as that close has failed the outlet.
            sending.lock();
            try {
                outlet.close();
            } finally {
                sending.unlock();
            }
        }
        if (reader != null) {
            boolean inChannel;
            synchronized (state) {
                inChannel = reading;
                if (inChannel) {
                    reader.interrupt(); // wakes a take() waiting for results
                }
            }
            // a reader out of its channel has freed its frame and touches the inlet no more: it may be
            // re-sending this lane's tasks (waiting for another lane's window), which it must finish
            // (the orphans go nowhere else) and which this close must not wait for
            if (inChannel) {
                reader.join(5_000);
            }
        }
        if (inlet != null) {
            inlet.close();
        }
    }
}
