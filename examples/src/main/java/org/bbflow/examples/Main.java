package org.bbflow.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.bbflow.examples.bkd.BkdIngest;
import org.bbflow.examples.demo.MandelbrotDemo;
import org.bbflow.examples.nbuf.ParallelCompress;
import org.bbflow.examples.som.SelfOrganizingMap;
import org.bbflow.examples.testbench.TestBench;
import org.bbflow.examples.thesis.ThesisExamples;

/**
 * The command-line entry point: {@code Main <command> [options]}, {@code Main --help},
 * {@code Main <command> --help}.
 *
 * <pre>
 * ./mvnw -q -pl examples exec:java -Dexec.args="demo"
 * java -jar examples/target/bbflow-examples.jar thesis all
 * </pre>
 */
public final class Main {
    private Main() {
    }

    /** A subcommand: its name, one-line summary, usage text and what it runs. */
    record Command(String name, String summary, Supplier<String> usage, Runner runner) {
    }

    /** Runs a subcommand with its arguments; returns the exit status. */
    @FunctionalInterface
    interface Runner {
        int run(Args args, Output out) throws Exception;
    }

    static List<Command> commands() {
        List<Command> c = new ArrayList<>();
        c.add(new Command("demo", "the main job: Mandelbrot rows through an ordered farm, speedup vs a loop",
                MandelbrotDemo::usage, MandelbrotDemo::main));
        c.add(new Command("thesis", "the thesis manual's examples: pipelines, farms, combine, all-to-all, ordering",
                ThesisExamples::usage, ThesisExamples::main));
        c.add(new Command("som", "self-organizing map split over a farm with neighbour channels and feedback",
                SelfOrganizingMap::usage, SelfOrganizingMap::main));
        c.add(new Command("compress", "parallel file compression with n-buffered I/O, ordered output, memory limit",
                ParallelCompress::usage, ParallelCompress::main));
        c.add(new Command("testbench", "sensors at fixed rates -> processing -> file recorder and monitor, no loss",
                TestBench::usage, TestBench::main));
        c.add(new Command("bkd", "Bkd-tree ingest by a farm of inserters while readers run window queries",
                BkdIngest::usage, BkdIngest::main));
        c.add(new Command("worker", "distributed farm, worker side: serves one master's tasks from another JVM",
                DistributedFarm::workerUsage, DistributedFarm::worker));
        c.add(new Command("master", "distributed farm, emitter/collector side: sends tasks to worker JVMs",
                DistributedFarm::masterUsage, DistributedFarm::master));
        return c;
    }

    /** Runs the command line and exits with its status. */
    public static void main(String[] argv) {
        int status = run(argv, Output.stdout());
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs the command line; returns the exit status (0 ok, 1 failed check, 2 usage error). */
    public static int run(String[] argv, Output out) {
        Args args;
        try {
            args = Args.parse(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        String name = args.positional(0, null);
        if (name == null || name.equals("help")) {
            String topic = args.positional(1, null);
            if (topic != null && find(topic) != null) {
                out.println(find(topic).usage().get());
                return 0;
            }
            out.println(help());
            return name == null && !args.has("help") ? 2 : 0;
        }
        Command command = find(name);
        if (command == null) {
            System.err.println("error: unknown command '" + name + "'\n");
            System.err.println(help());
            return 2;
        }
        if (args.has("help") || args.has("h")) {
            out.println(command.usage().get());
            return 0;
        }
        try {
            return command.runner().run(args.shift(), out);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println();
            System.err.println(command.usage().get());
            return 2;
        } catch (Exception e) {
            System.err.println("error: " + name + " failed: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    private static Command find(String name) {
        for (Command c : commands()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** The top-level help text. */
    static String help() {
        StringBuilder b = new StringBuilder();
        b.append("BBFlow examples: runnable programs built from nodes, pipelines, farms and all-to-alls.\n\n");
        b.append("usage: Main <command> [options]      Main <command> --help      Main --help\n\n");
        b.append("commands:\n");
        for (Command c : commands()) {
            b.append(String.format(Locale.ROOT, "  %-10s %s%n", c.name(), c.summary()));
        }
        b.append("\nStart with: demo   (add --items 100 --work 200 for a quick run)");
        return b.toString();
    }
}
