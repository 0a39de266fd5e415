package org.bbflow.examples;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level command: lists the subcommands; each of them also takes {@code -h/--help} and {@code -V/--version}. */
@Command(name = "java -jar bbflow-examples.jar",
        mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "BBFlow examples: runnable programs built from nodes, pipelines, farms and all-to-alls.",
        commandListHeading = "%nCommands:%n",
        footer = {"", "Every command takes --help. Start with: demo   (add --items 100 --work 200 for a quick run)"},
        subcommands = {DemoCommand.class, ThesisCommand.class, SomCommand.class, CompressCommand.class,
            TestBenchCommand.class, BkdCommand.class, BkdCheckCommand.class, WorkerCommand.class, MasterCommand.class, LaunchCommand.class,
            CommandLine.HelpCommand.class})
final class Cli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** No command given: a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("error: missing command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
