package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/**
 * A worker of a farm that survives a lost worker, as its group runs it: the user's node, followed by
 * the end-of-task mark after each task's results.
 */
final class TaskMarkingWorker extends WrappedNode {
    TaskMarkingWorker(Node<Object, Object> worker) {
        super(worker);
    }

    @Override
    public void onItem(Object task, Outbox<Object> out) throws Exception {
        node.onItem(task, out);
        out.send(TaskMarks.TASK_DONE);
    }
}
