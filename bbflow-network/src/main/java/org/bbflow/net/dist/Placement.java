package org.bbflow.net.dist;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.bbflow.core.Parallelism;

/**
 * Which group runs each worker of a distributed farm: worker {@code i} runs in the process of group
 * {@code groupOf(i)}. Workers placed in the master group run in the master process, next to the
 * emitter and the collector.
 */
public final class Placement {
    private final String[] groups;

    private Placement(String[] groups) {
        this.groups = groups;
    }

    /**
     * Worker {@code i} runs in {@code groupOfWorker[i]}.
     *
     * @param groupOfWorker the group of each worker, in worker order
     * @return the placement
     * @throws IllegalArgumentException if there is no worker, more than {@link Parallelism#MAX} (the
     *     farm's bound on its workers), or a group is null
     */
    public static Placement of(String... groupOfWorker) {
        Objects.requireNonNull(groupOfWorker, "groupOfWorker");
        if (groupOfWorker.length == 0) {
            throw new IllegalArgumentException("a placement needs at least one worker");
        }
        if (groupOfWorker.length > Parallelism.MAX) {
            throw new IllegalArgumentException("a placement of " + groupOfWorker.length
                    + " workers is more than a farm may have (Parallelism.MAX = " + Parallelism.MAX + ")");
        }
        for (int i = 0; i < groupOfWorker.length; i++) {
            if (groupOfWorker[i] == null) {
                throw new IllegalArgumentException("worker " + i + " has no group");
            }
        }
        return new Placement(groupOfWorker.clone());
    }

    /**
     * {@code workersPerGroup} workers in each of the given groups, in order: the first
     * {@code workersPerGroup} workers in {@code groups[0]}, the next ones in {@code groups[1]}...
     *
     * @param workersPerGroup workers per group, at least 1
     * @param groups the groups
     * @return the placement, of {@code workersPerGroup * groups.length} workers
     * @throws IllegalArgumentException if {@code workersPerGroup < 1}, no group is given, or the workers
     *     number more than {@link Parallelism#MAX} (the farm's bound on its workers)
     */
    public static Placement spread(int workersPerGroup, String... groups) {
        if (workersPerGroup < 1) {
            throw new IllegalArgumentException("workersPerGroup must be >= 1, got " + workersPerGroup);
        }
        if (groups == null || groups.length == 0) {
            throw new IllegalArgumentException("spread over no group");
        }
        long workers = (long) workersPerGroup * groups.length;
        if (workers > Parallelism.MAX) { // checked before the array is made: it held up to 2^31 names
            throw new IllegalArgumentException(workersPerGroup + " workers per group over " + groups.length + " groups is "
                    + workers + " workers, more than a farm may have (Parallelism.MAX = " + Parallelism.MAX + ")");
        }
        String[] g = new String[(int) workers];
        for (int i = 0; i < g.length; i++) {
            g[i] = Objects.requireNonNull(groups[i / workersPerGroup], "group");
        }
        return new Placement(g);
    }

    /**
     * The number of workers placed.
     *
     * @return the number of workers
     */
    public int workers() {
        return groups.length;
    }

    /**
     * The group of worker {@code i}.
     *
     * @param worker the worker index
     * @return its group
     * @throws IndexOutOfBoundsException if there is no such worker
     */
    public String groupOf(int worker) {
        return groups[worker];
    }

    /**
     * The groups of all workers, in worker order.
     *
     * @return the groups
     */
    public List<String> groups() {
        return List.of(groups);
    }

    @Override
    public String toString() {
        return Arrays.toString(groups);
    }
}
