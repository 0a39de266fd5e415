package org.bbflow.core.sched;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tasks with declared dependencies (Wavescope's Taskletes, FastFlow's macro data-flow instructions):
 * each task has a unique id, a payload handed to the worker, and the ids of the tasks that must have
 * completed before it may start. Dependencies may name tasks added later; {@link #validate()} (also
 * run by {@link DependencyScheduler}) rejects unknown ids and cycles before anything runs.
 *
 * @param <K> the id type ({@code equals}/{@code hashCode})
 * @param <T> the task payload type
 */
public final class TaskGraph<K, T> {
    private final Map<K, Integer> index = new HashMap<>();
    private final List<K> ids = new ArrayList<>();
    private final List<T> tasks = new ArrayList<>();
    private final List<List<K>> deps = new ArrayList<>();

    private TaskGraph() {
    }

    /**
     * An empty graph.
     *
     * @param <K> task id type
     * @param <T> task type
     * @return the graph
     */
    public static <K, T> TaskGraph<K, T> create() {
        return new TaskGraph<>();
    }

    /**
     * Adds a task.
     *
     * @param id unique id
     * @param task the payload (not null)
     * @param dependsOn ids of tasks that must complete first (may be added later)
     * @return this graph
     * @throws IllegalArgumentException for a duplicate id or a task depending on itself
     */
    public TaskGraph<K, T> add(K id, T task, Collection<? extends K> dependsOn) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(dependsOn, "dependsOn");
        if (index.containsKey(id)) {
            throw new IllegalArgumentException("duplicate task id " + id);
        }
        List<K> d = new ArrayList<>(dependsOn.size());
        for (K k : dependsOn) {
            Objects.requireNonNull(k, "dependency id");
            if (k.equals(id)) {
                throw new IllegalArgumentException("dependency cycle: " + id + " -> " + id);
            }
            d.add(k);
        }
        index.put(id, ids.size());
        ids.add(id);
        tasks.add(task);
        deps.add(d);
        return this;
    }

    /**
     * Adds a task; see {@link #add(Object, Object, Collection)}.
     *
     * @param id unique id
     * @param task the payload (not null)
     * @param dependsOn ids of tasks that must complete first
     * @return this graph
     */
    @SafeVarargs
    public final TaskGraph<K, T> add(K id, T task, K... dependsOn) {
        return add(id, task, Arrays.asList(dependsOn));
    }

    /** @return the number of tasks */
    public int size() {
        return ids.size();
    }

    /**
     * Checks that every dependency names a task and that there is no cycle.
     *
     * @throws IllegalArgumentException naming the unknown id, or the cycle as {@code a -> b -> ... -> a}
     */
    public void validate() {
        compile();
    }

    /** The graph in index form, validated. */
    Dag<K, T> compile() {
        int n = ids.size();
        int[] indegree = new int[n];
        int[][] dependents = new int[n][];
        int[] outCount = new int[n];
        int[][] depIdx = new int[n][];
        for (int i = 0; i < n; i++) {
            List<K> d = deps.get(i);
            depIdx[i] = new int[d.size()];
            for (int j = 0; j < d.size(); j++) {
                Integer k = index.get(d.get(j));
                if (k == null) {
                    throw new IllegalArgumentException("task " + ids.get(i) + " depends on unknown task " + d.get(j));
                }
                depIdx[i][j] = k;
                outCount[k]++;
            }
            indegree[i] = d.size();
        }
        for (int i = 0; i < n; i++) {
            dependents[i] = new int[outCount[i]];
            outCount[i] = 0;
        }
        for (int i = 0; i < n; i++) {
            for (int k : depIdx[i]) {
                dependents[k][outCount[k]++] = i;
            }
        }
        checkAcyclic(indegree, dependents, depIdx);
        return new Dag<>(new ArrayList<>(ids), new ArrayList<>(tasks), indegree, dependents);
    }

    private void checkAcyclic(int[] indegree, int[][] dependents, int[][] depIdx) {
        int n = indegree.length;
        int[] remaining = indegree.clone();
        int[] stack = new int[n];
        int top = 0;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (remaining[i] == 0) {
                stack[top++] = i;
            }
        }
        while (top > 0) {
            int i = stack[--top];
            seen++;
            for (int d : dependents[i]) {
                if (--remaining[d] == 0) {
                    stack[top++] = d;
                }
            }
        }
        if (seen == n) {
            return;
        }
        // Some tasks wait on each other: walk dependencies among them until a task repeats.
        int start = 0;
        while (remaining[start] == 0) {
            start++;
        }
        int[] position = new int[n];
        Arrays.fill(position, -1);
        List<Integer> path = new ArrayList<>();
        int cur = start;
        while (position[cur] < 0) {
            position[cur] = path.size();
            path.add(cur);
            int next = -1;
            for (int d : depIdx[cur]) {
                if (remaining[d] > 0) {
                    next = d;
                    break;
                }
            }
            cur = next;
        }
        StringBuilder sb = new StringBuilder("dependency cycle: ");
        List<Integer> cycle = path.subList(position[cur], path.size());
        for (int k = cycle.size() - 1; k >= 0; k--) {
            sb.append(ids.get(cycle.get(k))).append(" -> ");
        }
        sb.append(ids.get(cycle.get(cycle.size() - 1)));
        throw new IllegalArgumentException(sb.toString()
            + " (each task must complete before the next one in this list can start)");
    }
}
