package org.bbflow.net.dist;

import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * A worker of a farm that survives a lost worker, as its group runs it: the user's node, followed by
 * the end-of-task mark after each task's results.
 */
final class TaskMarkingWorker implements Node<Object, Object> {
    private final Node<Object, Object> worker;

    TaskMarkingWorker(Node<Object, Object> worker) {
        this.worker = worker;
    }

    @Override
    public void init(NodeContext context) throws Exception {
        worker.init(context);
    }

    @Override
    public void onItem(Object task, Outbox<Object> out) throws Exception {
        worker.onItem(task, out);
        out.send(TaskMarks.TASK_DONE);
    }

    @Override
    public void onEos(Outbox<Object> out) throws Exception {
        worker.onEos(out);
    }

    @Override
    public void close() throws Exception {
        worker.close();
    }

    @Override
    public String name() {
        return worker.name();
    }
}
