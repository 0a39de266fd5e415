package org.bbflow.examples;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command-line entry point, {@code java -jar bbflow-examples.jar <command> [options]}, parsed
 * with picocli: {@code --help} (or {@code -h}) on the jar or on any command prints its usage,
 * {@code --version} prints the version, {@code help <command>} a command's usage.
 *
 * <p>Exit status: 0 success (and help, version); 1 the program ran but a check failed, or an
 * error such as a missing file (one line on standard error, no stack trace); 2 a usage error
 * (unknown command or option, a stray word, a malformed or out-of-range value), with a message
 * naming the option.
 *
 * <pre>
 * ./mvnw -q -pl examples exec:java -Dexec.args="demo"
 * java -jar examples/target/bbflow-examples.jar thesis all
 * </pre>
 */
public final class Main {
    private Main() {
    }

    /**
     * Runs the command line and exits with its status.
     *
     * @param argv the command line
     */
    public static void main(String[] argv) {
        int status = run(argv, Output.stdout(), line -> System.err.println(line));
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the command line, printing errors to standard error.
     *
     * @param argv the command line
     * @param out where the programs, help and version print
     * @return the exit status: 0 ok, 1 failed check or error, 2 usage error
     */
    public static int run(String[] argv, Output out) {
        return run(argv, out, line -> System.err.println(line));
    }

    /**
     * Runs the command line.
     *
     * @param argv the command line
     * @param out where the programs, help and version print
     * @param err where error messages print
     * @return the exit status: 0 ok, 1 failed check or error, 2 usage error
     */
    public static int run(String[] argv, Output out, Output err) {
        CommandLine cli = commandLine(out);
        try (PrintWriter o = new PrintWriter(new LineWriter(out), true);
             PrintWriter e = new PrintWriter(new LineWriter(err), true)) {
            cli.setOut(o);
            cli.setErr(e);
            cli.setParameterExceptionHandler(Main::usageError);
            cli.setExecutionExceptionHandler((ex, command, parsed) -> {
                command.getErr().println("error: " + command.getCommandName() + ": " + describe(ex));
                return 1;
            });
            try {
                return cli.execute(argv);
            } catch (OutOfMemoryError ex) {
                // A size the heap cannot hold (demo --items 100000000 in a small heap, compress --memory 100g
                // --chunk 1g): picocli handles exceptions, not errors, so this was a stack trace. The failed
                // allocation is garbage by now, so there is heap enough for one line.
                CommandLine.ParseResult parsed = cli.getParseResult();
                String name = parsed != null && parsed.hasSubcommand()
                        ? parsed.subcommand().commandSpec().name() : cli.getCommandName();
                e.println("error: " + name + ": out of memory (" + ex.getMessage() + "): give smaller sizes or counts,"
                        + " or the JVM more heap (java -Xmx8g -jar ...)");
                return 1;
            }
        }
    }

    /** The parser: the top-level command with every subcommand, each told where to print. */
    static CommandLine commandLine(Output out) {
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine cli = new CommandLine(new Cli(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                K made = defaults.create(type);
                if (made instanceof Subcommand s) {
                    s.out = out;
                }
                return made;
            }
        });
        Converters.register(cli);
        return cli;
    }

    private static int usageError(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        err.println("error: " + ex.getMessage());
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("see: " + command.getCommandSpec().qualifiedName() + " --help");
        return 2;
    }

    /** One line for an error: what went wrong and with which file, not a stack trace. */
    static String describe(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof NoSuchFileException f) { // with a reason: what is wrong with it (a directory for a file, no such directory)
                return f.getReason() == null ? "no such file: " + f.getFile() : f.getFile() + ": " + f.getReason();
            }
            if (t instanceof AccessDeniedException f) {
                return "permission denied: " + f.getFile();
            }
            if (t instanceof FileSystemException f && f.getFile() != null && f.getReason() != null) {
                return f.getFile() + ": " + f.getReason(); // e.g. JobFile.read's "DIR: a directory, not a file"
            }
        }
        String message = ex.getMessage();
        return message == null || message.isBlank() ? ex.getClass().getSimpleName()
                : message.lines().findFirst().orElse(message);
    }

    /** Hands whole lines written by picocli to an {@link Output}. */
    static final class LineWriter extends Writer {
        private final Output target;
        private final StringBuilder line = new StringBuilder();

        LineWriter(Output target) {
            this.target = target;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                char c = chars[i];
                if (c == '\n') {
                    int end = line.length();
                    if (end > 0 && line.charAt(end - 1) == '\r') {
                        line.setLength(end - 1);
                    }
                    target.println(line.toString());
                    line.setLength(0);
                } else {
                    line.append(c);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            if (line.length() > 0) {
                target.println(line.toString());
                line.setLength(0);
            }
        }
    }
}
