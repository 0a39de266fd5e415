package org.bbflow.launch;

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
        String java = Launcher.shellQuote(job.java() != null ? job.java() : "java") + " "
                + job.jvmOptions().stream().map(Launcher::shellQuote).collect(Collectors.joining(" "))
                + (job.jvmOptions().isEmpty() ? "" : " ") + "-cp "
                + Launcher.shellQuote(job.classpath() != null ? job.classpath() : System.getProperty("java.class.path"))
                + " " + Launcher.shellQuote(job.main())
                + job.args().stream().map(a -> " " + Launcher.shellQuote(a)).collect(Collectors.joining());
        List<String> lines = new java.util.ArrayList<>(List.of(
                "#!/bin/bash",
                "#SBATCH --job-name=" + job.name(),
                "#SBATCH --nodes=" + n,
                "#SBATCH --ntasks=" + n,
                "#SBATCH --ntasks-per-node=1",
                "# " + job.name() + ": " + n + " groups, one node each (group i on node i of the allocation, the master first)",
                "export BBFLOW_JOB=" + Launcher.shellQuote("id=" + job.name() + "-") + "\"${SLURM_JOB_ID}\""
                        + Launcher.shellQuote(rest.toString()),
                "# the master alone in one step: its status is the job's",
                "BBFLOW_RANK_OFFSET=0 srun --nodes=1 --ntasks=1 --relative=0 --kill-on-bad-exit=0 " + java + " &",
                "master=$!"));
        if (n > 1) {
            lines.addAll(List.of(
                    "# the other groups in a second step: a lost worker fails neither the master's step nor the others",
                    "BBFLOW_RANK_OFFSET=1 srun --nodes=" + (n - 1) + " --ntasks=" + (n - 1)
                            + " --relative=1 --kill-on-bad-exit=0 " + java + " &",
                    "workers=$!"));
        }
        lines.addAll(List.of(
                "wait $master",
                "status=$?",
                n > 1 ? "wait $workers || true" : "",
                "exit $status"));
        return lines.stream().filter(l -> !l.isEmpty()).collect(Collectors.joining("\n", "", "\n"));
    }
}
