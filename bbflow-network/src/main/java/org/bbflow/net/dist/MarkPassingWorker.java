package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/**
 * A linked stage after the first of its run, as its group runs it with the stall watch on
 * ({@link RemoteWorker#markTasks}): the previous stage's group sends its results with an end-of-task
 * mark after each of the run's items, and this passes each mark on after the results of what came
 * before it (a node's {@code onItem} has sent them all by the time it returns), adding none of its
 * own. The run's last group thus sends the master one mark per item the run's first group took, once
 * every group of the run has finished it.
 */
final class MarkPassingWorker extends WrappedNode {
    MarkPassingWorker(Node<Object, Object> stage) {
        super(stage);
    }

    @Override
    public void onItem(Object item, Outbox<Object> out) throws Exception {
        if (item == TaskMarks.TASK_DONE) {
            out.send(TaskMarks.TASK_DONE);
        } else {
            node.onItem(item, out);
        }
    }
}
