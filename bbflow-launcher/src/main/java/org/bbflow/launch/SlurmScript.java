package org.bbflow.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An {@code sbatch} script that runs a job file on a Slurm allocation of one node per group: the
 * master in a job step of its own, the other groups in a second step ({@code --kill-on-bad-exit=0}),
 * so that a lost worker fails neither the master's step nor the others (with one step, {@code srun}
 * reports the worst status although the job succeeded). Each process takes its rank from
 * {@code SLURM_PROCID} (each step from its {@code BBFLOW_RANK_OFFSET}: 0 for the master, 1 for the workers) and its peers' hosts
 * from {@code SLURM_JOB_NODELIST}; the job's identity includes {@code SLURM_JOB_ID}, so two runs of
 * one job file never cross. The script's status is the master's.
 */
public final class SlurmScript {
    private SlurmScript() {}

    /**
     * The script for {@code job}; its hosts are ignored (group i runs on the allocation's node i).
     *
     * @param job the job file
     * @return the batch script
     * @throws IllegalArgumentException if two groups other than the master have different
     *     {@code "jvmOptions"} (they run in one job step, with one command)
     */
    public static String script(JobFile job) {
        int n = job.groups().size();
        String text = job.spec().toText();
        StringBuilder rest = new StringBuilder();
        for (String part : text.split(";")) {
            if (part.startsWith("id=")) {
                continue;
            }
            rest.append(';').append(part.startsWith("group.") ? part.substring(0, part.indexOf('=') + 1) + ":"
                    + part.substring(part.lastIndexOf(':') + 1) : part);
        }
        // A group's own JVM options: the master's step runs the master's; the workers share one step,
        // so one command, so their options must agree (dropping a group's -Xmx4g unseen is worse).
        String master = job.spec().master();
        List<String> workerOptions = null;
        String firstWorker = null;
        for (var g : job.groups().entrySet()) {
            if (g.getKey().equals(master)) {
                continue;
            }
            if (workerOptions == null) {
                workerOptions = g.getValue().jvmOptions();
                firstWorker = g.getKey();
            } else if (!workerOptions.equals(g.getValue().jvmOptions())) {
                throw new IllegalArgumentException("groups \"" + firstWorker + "\" and \"" + g.getKey() + "\" have different"
                        + " \"jvmOptions\" (" + workerOptions + ", " + g.getValue().jvmOptions() + "): the Slurm script runs"
                        + " every group but the master in one step, with one command; give the workers the same options");
            }
        }
        String masterJava = java(job, job.groups().get(master).jvmOptions());
        String workersJava = java(job, workerOptions == null ? List.of() : workerOptions);
        List<String> lines = new ArrayList<>(List.of(
                "#!/bin/bash",
                "#SBATCH --job-name=" + job.name(),
                "#SBATCH --nodes=" + n,
                "#SBATCH --ntasks=" + n,
                "#SBATCH --ntasks-per-node=1",
                "# " + job.name() + ": " + n + " groups, one node each (group i on node i of the allocation, the master first)",
                "export BBFLOW_JOB=" + Launcher.shellQuote("id=" + job.name() + "-") + "\"${SLURM_JOB_ID}\""
                        + Launcher.shellQuote(rest.toString()),
                "# the master alone in one step: its status is the job's",
                "BBFLOW_RANK_OFFSET=0 srun --nodes=1 --ntasks=1 --relative=0 --kill-on-bad-exit=0 " + masterJava + " &",
                "master=$!"));
        if (n > 1) {
            lines.addAll(List.of(
                    "# the other groups in a second step: a lost worker fails neither the master's step nor the others",
                    "BBFLOW_RANK_OFFSET=1 srun --nodes=" + (n - 1) + " --ntasks=" + (n - 1)
                            + " --relative=1 --kill-on-bad-exit=0 " + workersJava + " &",
                    "workers=$!"));
        }
        lines.addAll(List.of(
                "wait $master",
                "status=$?",
                n > 1 ? "wait $workers || true" : "",
                "exit $status"));
        return lines.stream().filter(l -> !l.isEmpty()).collect(Collectors.joining("\n", "", "\n"));
    }

    /** The command of a step: java, the job's JVM options then the groups', class path, main, args; each word quoted. */
    private static String java(JobFile job, List<String> groupOptions) {
        List<String> words = new ArrayList<>();
        words.add(job.java() != null ? job.java() : "java");
        words.addAll(job.jvmOptions());
        words.addAll(groupOptions);
        words.add("-cp");
        words.add(job.classpath() != null ? job.classpath() : System.getProperty("java.class.path"));
        words.add(job.main());
        words.addAll(job.args());
        return words.stream().map(Launcher::shellQuote).collect(Collectors.joining(" "));
    }
}
