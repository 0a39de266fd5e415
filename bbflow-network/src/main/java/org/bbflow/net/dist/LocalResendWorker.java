package org.bbflow.net.dist;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * A worker that runs in the master, in a farm that survives a lost worker: the user's node, which
 * also takes the tasks of lost groups that the {@link FarmLedger} re-sends to it. It runs them
 * before and after each task of its own and, at its end of stream, until the whole farm is done (a
 * group may be lost after this worker's last own task). The master is not survivable, so a task
 * re-sent here finishes here: its results go straight to the collector.
 */
final class LocalResendWorker extends WrappedNode {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FarmLedger ledger;
    private final ConcurrentLinkedQueue<Object> resent = new ConcurrentLinkedQueue<>();
    private volatile Thread waiter;
    private NodeContext context;

    LocalResendWorker(FarmLedger ledger, Node<Object, Object> worker) {
        super(worker);
        this.ledger = ledger;
    }

    /** A lost group's task for this worker (any thread). */
    void offer(Object task) {
        resent.add(task);
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void init(NodeContext ctx) throws Exception {
        context = ctx;
        super.init(ctx);
    }

    @Override
    public void onItem(Object task, Outbox<Object> out) throws Exception {
        runResent(out);
        node.onItem(task, out);
        runResent(out);
    }

    @Override
    public void onEos(Outbox<Object> out) throws Exception {
        while (!ledger.isDone() && !context.isCancelled()) {
            waiter = Thread.currentThread();
            if (resent.isEmpty()) {
                LockSupport.parkNanos(this, POLL_NANOS); // bounded: a lane that stays down fails after the peer timeout
            }
            waiter = null;
            runResent(out);
        }
        runResent(out);
        node.onEos(out);
    }

    private void runResent(Outbox<Object> out) throws Exception {
        for (Object task; (task = resent.poll()) != null; ) {
            node.onItem(task, out);
            ledger.finishedHere();
        }
    }
}
