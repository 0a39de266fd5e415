package org.bbflow.core.sched;

import java.util.List;

/** A validated task graph in index form: ids, payloads, dependency counts and dependents. */
final class Dag<K, T> {
    final List<K> ids;
    final List<T> tasks;
    final int[] indegree;
    final int[][] dependents;

    Dag(List<K> ids, List<T> tasks, int[] indegree, int[][] dependents) {
        this.ids = ids;
        this.tasks = tasks;
        this.indegree = indegree;
        this.dependents = dependents;
    }

    int size() {
        return ids.size();
    }
}
