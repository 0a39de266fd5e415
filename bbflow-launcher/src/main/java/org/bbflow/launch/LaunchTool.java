package org.bbflow.launch;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The launcher's command line: {@code java -cp bbflow-launcher.jar:... org.bbflow.launch.LaunchTool
 * <command> JOB.json}. Commands: {@code run} (starts every group on its host through the
 * remote-exec template), {@code spec} (prints the job as the text every process reads, for
 * {@code BBFLOW_JOB}), {@code slurm} (prints an {@code sbatch} script), {@code kubernetes} (prints the
 * manifests). {@code --help} prints the job file's format.
 */
@Command(name = "bbflow-launch", mixinStandardHelpOptions = true, versionProvider = LaunchTool.Version.class,
        subcommands = {LaunchTool.Run.class, LaunchTool.SpecCommand.class, LaunchTool.Slurm.class, LaunchTool.Kubernetes.class,
            CommandLine.HelpCommand.class},
        description = "Runs a BBFlow distributed job from a job file: by itself over ssh (run), or on an engine that"
                + " places the processes (slurm, kubernetes).",
        footer = {"", JobFile.FORMAT})
public final class LaunchTool implements Runnable {
    @Spec
    CommandSpec spec;

    /**
     * Runs the command line and exits with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line.
     *
     * @param args the command line
     * @param out where output and help go
     * @param err where errors go
     * @return the exit status: 0 success, 1 a failed job or an error, 2 a usage error, else the job's
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new LaunchTool());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            command.getErr().println("error: " + describe(e));
            return e instanceof IllegalArgumentException || e instanceof IllegalStateException ? 2 : 1;
        });
        return cli.execute(args);
    }

    /** One line for an error; a file system error says what was wrong with which file (its message is often only the path). */
    static String describe(Exception e) {
        if (e instanceof NoSuchFileException f) {
            return "no such file: " + f.getFile();
        }
        if (e instanceof AccessDeniedException f) {
            return "permission denied: " + f.getFile();
        }
        if (e instanceof FileSystemException f && f.getReason() == null) {
            return f.getClass().getSimpleName() + ": " + f.getFile();
        }
        return e instanceof IllegalArgumentException || e instanceof IllegalStateException || e instanceof IOException
                ? e.getMessage() : e.toString();
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version in the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = LaunchTool.class.getPackage().getImplementationVersion();
            return new String[] {"bbflow-launch " + (v != null ? v : "(development build)")};
        }
    }

    /** Reads a job file, the usage error naming what is wrong. */
    static JobFile read(Path file) throws IOException {
        return JobFile.read(file);
    }

    @Command(name = "run", mixinStandardHelpOptions = true, footer = {"", JobFile.FORMAT},
            description = {"Starts every group of the job file on its host through the remote-exec template, prints"
                + " their output prefixed with [group], and exits with the job's status: the master's (the group it"
                + " names as the cause is blamed); a group that fails first waits for the master's verdict.",
                "Each run gets its own job identity (the file's name and a random suffix) unless the file gives \"id\"."})
    static final class Run implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JOB.json", description = "the job file")
        Path jobFile;

        @Option(names = "--timeout", paramLabel = "SECONDS", description = "stop every group after this long and exit"
                + " with 124 (default: no limit)")
        Double timeout;

        @Option(names = "--grace", paramLabel = "SECONDS", description = "once the job's status is known, how long the"
                + " other groups may take to end by themselves (default 5)")
        double grace = 5;

        @Option(names = "--dry-run", description = "print each group's command, as one shell command line,"
                + " instead of running it (after the run's"
                + " checks: a job without hosts or listening unauthenticated beyond loopback is refused)")
        boolean dryRun;

        @Override
        public Integer call() throws Exception {
            Duration limit = timeout == null ? null : seconds("--timeout", timeout, false);
            Duration graceTime = seconds("--grace", grace, true);
            JobFile job = read(jobFile).forRun();
            PrintWriter out = spec.commandLine().getOut();
            if (dryRun) { // refuses what the run refuses (a group without host above all), before printing anything
                Launcher.commands(job).forEach((g, command) -> out.println("[" + g + "] " + Launcher.shellLine(command)));
                return 0;
            }
            return Launcher.run(job, line -> {
                out.println(line);
                out.flush();
            }, limit, graceTime);
        }

        /**
         * Seconds as given, to the nanosecond. They were rounded to milliseconds first, so
         * {@code --grace NaN} or {@code -0.0004} ran with no grace and {@code --timeout NaN} was
         * refused as "PT0S", naming neither the option nor the value.
         */
        static Duration seconds(String option, double seconds, boolean zeroAllowed) {
            if (Double.isNaN(seconds) || Double.isInfinite(seconds) || seconds < 0 || seconds == 0 && !zeroAllowed) {
                throw new IllegalArgumentException(option + " takes a number of seconds " + (zeroAllowed ? "from 0" : "above 0")
                        + " (at most 365 days), got " + seconds);
            }
            // a value past Long.MAX_VALUE nanoseconds saturates there, beyond the 365 days Launcher.run allows
            return Duration.ofNanos(Math.round(seconds * 1e9));
        }
    }

    @Command(name = "spec", mixinStandardHelpOptions = true,
            description = "Prints the job as the one line of text every process reads (-Dbbflow.job or BBFLOW_JOB).")
    static final class SpecCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JOB.json", description = "the job file")
        Path jobFile;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().println(read(jobFile).spec().toText());
            return 0;
        }
    }

    @Command(name = "slurm", mixinStandardHelpOptions = true,
            description = "Prints an sbatch script for the job file: one node per group, the master in a step of its"
                    + " own, the other groups in a second step; the script's status is the master's.")
    static final class Slurm implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JOB.json", description = "the job file")
        Path jobFile;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().print(SlurmScript.script(read(jobFile)));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    @Command(name = "kubernetes", mixinStandardHelpOptions = true,
            description = "Prints the Kubernetes objects for the job file (kubectl apply -f): a headless Service, the"
                    + " secret as a Secret mounted as a file, and an Indexed Job (index i runs group i; the master's"
                    + " success is the job's; a worker pod is retried and rejoins), each named after the job's"
                    + " name as it is, which must be a DNS label.")
    static final class Kubernetes implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JOB.json", description = "the job file")
        Path jobFile;

        @Option(names = "--image", required = true, paramLabel = "IMAGE",
                description = "the container image with java and the job's class path")
        String image;

        @Option(names = "--retries", paramLabel = "N", description = "retries of a failed pod per index (default 3)")
        int retries = 3;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().println(KubernetesManifests.manifest(read(jobFile), image, retries));
            return 0;
        }
    }
}
