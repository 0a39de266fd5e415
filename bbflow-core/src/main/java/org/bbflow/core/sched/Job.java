package org.bbflow.core.sched;

/** One task on its way to a worker and back (the completion feedback); made once per task. */
final class Job<T> {
    final int index;
    final T task;

    Job(int index, T task) {
        this.index = index;
        this.task = task;
    }

    @Override
    public String toString() {
        return "Job#" + index;
    }
}
