package org.bbflow.core.sched;

import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/** Runs tasks; sends the result forward ({@code sendTo(1, r)}) and the completion back to the emitter. */
final class SchedulerWorker<T, R> implements Node<Job<T>, Object> {
    private final TaskAction<? super T, ? extends R> action;

    SchedulerWorker(TaskAction<? super T, ? extends R> action) {
        this.action = action;
    }

    @Override
    public void onItem(Job<T> job, Outbox<Object> out) throws Exception {
        R r = action.run(job.task);
        if (r != null) {
            out.sendTo(1, r);
        }
        out.send(job);
    }

    @Override
    public String name() {
        return "task-worker";
    }
}
