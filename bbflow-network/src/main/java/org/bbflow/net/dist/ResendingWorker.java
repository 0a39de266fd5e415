package org.bbflow.net.dist;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.net.internal.StreamCuts;

/**
 * Stands in the master's farm for a remote worker of a farm that survives a lost worker: sends each
 * task through the {@link FarmLedger} (to its own lane while that lives, else to another), and hands
 * on whatever finished results are waiting, before and after each task and at end of stream. At end
 * of stream it waits for the whole farm to finish (a lane lost late may still send work to its group),
 * then ends its lane's task stream and waits for its group to end the result stream.
 */
final class ResendingWorker implements Node<Object, Object> {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FarmLedger ledger;
    private final int slot;
    private final String name;
    private NodeContext context;

    ResendingWorker(FarmLedger ledger, TaskLane lane) {
        this.ledger = ledger;
        this.slot = ledger.slotOf(lane);
        this.name = "remote-worker[" + lane.name + "]";
    }

    String group() {
        return ledger.lane(slot).group;
    }

    @Override
    public void init(NodeContext ctx) {
        this.context = ctx;
    }

    @Override
    public void onItem(Object task, Outbox<Object> out) {
        ledger.handOn(out);
        ledger.accept(task, ledger.lane(slot));
        ledger.handOn(out);
    }

    @Override
    public void onEos(Outbox<Object> out) throws InterruptedException {
        ledger.endOfStream();
        while (!ledger.isDone() && !context.isCancelled()) {
            ledger.handOn(out);
            LockSupport.parkNanos(POLL_NANOS); // bounded: a lane that stays down fails after the peer timeout
        }
        if (context.isCancelled()) {
            return; // close() aborts the task stream: the group must not take a partial stream for a whole one
        }
        TaskLane lane = ledger.closeSlot(slot);
        // a stream cut by the master's source (StreamFailure) is passed on as cut, not as a whole one
        lane.complete(context.flowFailed() ? StreamCuts.description(context) : null);
        while (!lane.awaitEnd(1) && !context.isCancelled()) {
            ledger.handOn(out);
        }
        ledger.handOn(out);
    }

    @Override
    public void close() throws InterruptedException {
        ledger.lane(slot).close();
    }

    @Override
    public String name() {
        return name;
    }
}
