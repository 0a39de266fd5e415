package org.bbflow.examples;

import java.nio.file.Path;
import java.time.Duration;
import org.bbflow.launch.JobFile;
import org.bbflow.launch.Launcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code launch}: runs a distributed job on its hosts from a job file, with the launcher of
 * {@code bbflow-launcher} ({@link Launcher}; its own command line, {@code org.bbflow.launch.LaunchTool},
 * also writes Slurm batch scripts and Kubernetes manifests).
 */
@Command(name = "launch", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Runs a distributed job: starts every group of the job file on its host through the remote-exec"
                + " template (default: ssh -T {host} {cmd}), prints their output prefixed with [group], and exits with"
                + " the job's status: the master's, naming the group it blames (a group that fails first waits for"
                + " the master's verdict); the other groups are then stopped.",
            "A group that would listen beyond its machine without secretFile or tls is refused unless the job file"
                + " says \"insecure\": true."}, footer = {"", JobFile.FORMAT})
final class LaunchCommand extends Subcommand {
    @Parameters(index = "0", paramLabel = "JOB.json", description = "the job file")
    Path jobFile;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveTime.class,
            description = "stop every group after this long (at most 365 days) and exit with 124, e.g. 10m"
                    + " (default: no limit)")
    Duration timeout;

    @Option(names = "--grace", paramLabel = "DURATION", converter = Converters.Time.class,
            description = "once a group failed, how long the others may take to end by themselves before they are"
                    + " terminated (0 to 365 days; default 5s)")
    Duration grace = Duration.ofSeconds(5);

    @Option(names = "--dry-run", description = "print each group's command, as one shell command line,"
            + " instead of running it (after the run's"
            + " checks: a job without hosts or listening unauthenticated beyond loopback is refused)")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        JobFile read = checked(() -> {
            try {
                return JobFile.read(jobFile);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        JobFile job = read.forRun(); // each run its own identity, unless the file names one
        try {
            if (dryRun) { // refuses what the run refuses (a group without host above all), before printing anything
                Launcher.commands(job).forEach((g, command) -> out.println("[" + g + "] " + Launcher.shellLine(command)));
                return 0;
            }
            return Launcher.run(job, out::println, timeout, grace);
        } catch (IllegalStateException e) {
            throw usage(jobFile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage()); // --timeout or --grace out of range; nothing was started
        }
    }
}
