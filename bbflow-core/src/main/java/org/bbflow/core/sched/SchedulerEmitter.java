package org.bbflow.core.sched;

import java.util.Comparator;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;

/**
 * The farm emitter that schedules: releases a task when its last dependency completes, keeps at most
 * {@code maxInFlight} tasks at the workers, and picks the next ready task by the locality order.
 * Receives the start token from upstream and the completions from the workers (feedback).
 */
final class SchedulerEmitter<K, T> implements Node<Object, Job<T>> {
    private final Dag<K, T> dag;
    private final int maxInFlight;
    private final int[] remaining;
    private final ReadyQueue<T> ready;
    private final Job<T>[] jobs;
    private final boolean[] done;
    private int inFlight;
    private int completed;
    private int maxSeenInFlight;
    private boolean started;

    @SuppressWarnings("unchecked")
    SchedulerEmitter(Dag<K, T> dag, int maxInFlight, Comparator<? super T> locality) {
        this.dag = dag;
        this.maxInFlight = maxInFlight;
        this.remaining = dag.indegree.clone();
        this.ready = new ReadyQueue<>(dag.size(), dag.tasks, locality);
        this.jobs = new Job[dag.size()];
        for (int i = 0; i < jobs.length; i++) {
            jobs[i] = new Job<>(i, dag.tasks.get(i));
        }
        this.done = new boolean[dag.size()];
    }

    @Override
    public void init(NodeContext context) {
        // nothing: state was prepared at construction
    }

    @Override
    public void onItem(Object item, Outbox<Job<T>> out) {
        if (item instanceof Job) {
            Job<?> j = (Job<?>) item;
            if (done[j.index]) {
                throw new IllegalStateException("task " + dag.ids.get(j.index) + " completed twice");
            }
            done[j.index] = true;
            completed++;
            inFlight--;
            for (int d : dag.dependents[j.index]) {
                if (--remaining[d] == 0) {
                    ready.push(d);
                }
            }
        } else if (!started) {
            started = true;
            for (int i = 0; i < remaining.length; i++) {
                if (remaining[i] == 0) {
                    ready.push(i);
                }
            }
        }
        while (inFlight < maxInFlight && !ready.isEmpty()) {
            inFlight++;
            maxSeenInFlight = Math.max(maxSeenInFlight, inFlight);
            out.send(jobs[ready.pop()]);
        }
    }

    @Override
    public void onEos(Outbox<Job<T>> out) {
        if (completed != dag.size()) {
            throw new IllegalStateException("scheduler ended with " + completed + " of " + dag.size()
                + " tasks completed");
        }
    }

    int completed() {
        return completed;
    }

    int maxSeenInFlight() {
        return maxSeenInFlight;
    }

    @Override
    public String name() {
        return "scheduler";
    }
}
