package org.bbflow.net.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the engine that placed this process (Slurm, a Kubernetes Indexed Job, an MPI launcher, or a
 * person setting {@code BBFLOW_RANK}) says about it, read from the environment: its rank, how many
 * processes the engine started, and the hosts of the others. BBFlow writes no cluster manager: it
 * reads what the engine already gives every process.
 *
 * <ul>
 *   <li>Rank: the first present of {@link #RANK_VARIABLES}, plus {@code BBFLOW_RANK_OFFSET} (for a
 *       job whose groups are started in several steps: a Slurm master step of one task started with
 *       {@code BBFLOW_RANK_OFFSET=0} and a worker step whose ranks count from 0 again, with
 *       {@code BBFLOW_RANK_OFFSET=1}; each step's size must then fit from its offset).</li>
 *   <li>Size: {@code SLURM_NTASKS}, {@code OMPI_COMM_WORLD_SIZE}, {@code PMI_SIZE}, {@code PMIX_SIZE}
 *       or {@code BBFLOW_SIZE} when present.</li>
 *   <li>Hosts: {@code BBFLOW_HOST_PATTERN} with {@code {rank}} replaced (a Kubernetes Indexed Job with a
 *       headless Service: {@code squares-{rank}.squares}), else Slurm's allocation,
 *       {@code SLURM_JOB_NODELIST} expanded ({@link SlurmHostList}): group i on node i.</li>
 * </ul>
 */
final class Engine {
    /** Where a process's rank is read from, in this order. */
    static final List<String> RANK_VARIABLES = List.of("BBFLOW_RANK", "JOB_COMPLETION_INDEX", "SLURM_PROCID",
            "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK");
    private static final List<String> SIZE_VARIABLES = List.of("BBFLOW_SIZE", "SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE",
            "PMIX_SIZE", "PMI_SIZE");

    private final Map<String, String> env;

    Engine(Map<String, String> env) {
        this.env = env;
    }

    /** The variable the rank came from, or null if none is set. */
    String rankSource() {
        for (String v : RANK_VARIABLES) {
            if (env.get(v) != null && !env.get(v).isBlank()) {
                return v;
            }
        }
        return null;
    }

    /**
     * This process's rank: its group's index in the job's group order (the master first).
     *
     * @throws IllegalStateException if no rank variable is set, or it, the offset or the size is out
     *     of range for a job of {@code groups} groups
     */
    int rank(int groups) {
        String source = rankSource();
        if (source == null) {
            throw new IllegalStateException("no rank: set -D" + DistributedJob.GROUP_PROPERTY + "=<group>, or run under an"
                    + " engine that sets one of " + RANK_VARIABLES);
        }
        int rank = number(source);
        boolean steps = env.containsKey("BBFLOW_RANK_OFFSET"); // the groups started in several steps
        int offset = steps ? number("BBFLOW_RANK_OFFSET") : 0;
        if (offset < 0 || offset >= groups) {
            throw new IllegalStateException("BBFLOW_RANK_OFFSET=" + offset + " is not a group of a job of " + groups
                    + " groups (0 to " + (groups - 1) + ")");
        }
        for (String v : SIZE_VARIABLES) {
            if (env.get(v) != null && !env.get(v).isBlank()) {
                int size = number(v);
                if (!steps && size != groups) {
                    throw new IllegalStateException(v + "=" + size + " processes, but the job has " + groups + " groups: start"
                            + " one process per group (or split them into steps with BBFLOW_RANK_OFFSET)");
                }
                if (offset + size > groups) {
                    throw new IllegalStateException("BBFLOW_RANK_OFFSET=" + offset + " and " + v + "=" + size + " reach past"
                            + " the job's " + groups + " groups");
                }
                break;
            }
        }
        int r = offset + rank;
        if (rank < 0 || r >= groups) {
            throw new IllegalStateException(source + "=" + rank + (offset == 0 ? "" : " + BBFLOW_RANK_OFFSET=" + offset)
                    + " is not a group of a job of " + groups + " groups");
        }
        return r;
    }

    /**
     * The host of each of {@code groups} groups, by rank, or null if the engine gives none.
     *
     * @throws IllegalStateException if Slurm's allocation has fewer nodes than groups
     */
    List<String> hosts(int groups) {
        String pattern = env.get("BBFLOW_HOST_PATTERN");
        if (pattern != null && !pattern.isBlank()) {
            if (!pattern.contains("{rank}")) {
                throw new IllegalStateException("BBFLOW_HOST_PATTERN must contain {rank}, got '" + pattern + "'");
            }
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < groups; i++) {
                hosts.add(pattern.replace("{rank}", String.valueOf(i)));
            }
            return hosts;
        }
        String nodes = env.get("SLURM_JOB_NODELIST");
        if (nodes == null || nodes.isBlank()) {
            nodes = env.get("SLURM_NODELIST");
        }
        if (nodes != null && !nodes.isBlank()) {
            List<String> hosts = SlurmHostList.expand(nodes);
            if (hosts.size() < groups) {
                throw new IllegalStateException("Slurm allocated " + hosts.size() + " nodes (" + nodes + ") for a job of "
                        + groups + " groups: allocate one node per group (sbatch -N " + groups + ")");
            }
            return hosts.subList(0, groups);
        }
        return null;
    }

    private int number(String variable) {
        String v = env.get(variable).trim();
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(variable + "='" + v + "' is not a whole number");
        }
    }
}
