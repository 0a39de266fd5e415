package org.bbflow.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.bbflow.net.NetOptions;
import org.bbflow.net.dist.DistributedJob;

/**
 * Starts every group of a {@link JobFile} on its host through the remote-exec template, prefixes
 * and merges their output, and ends with the job's status, stopping the other groups once it is
 * known (as FastFlow's {@code dff_run} does). The master decides: when another group fails, the
 * launcher waits for the master's verdict (at most the job's peer timeout plus the grace), ends with
 * the master's status and blames the group the master names; only a master that gives no verdict in
 * time leaves the status to the first group that failed. A group the job file marks survivable may
 * end badly without stopping anything. A stack trace is printed as one block, not interleaved
 * with the other groups' lines.
 *
 * <p>The template is split on spaces; {@code {host}} and {@code {group}} are replaced in every word;
 * the word {@code {args}} becomes the group's command, one argument per word (for
 * {@code ip netns exec {host} {args}}, or {@code {args}} alone for a local process); {@code {cmd}}
 * becomes the whole command as one shell-quoted string (for {@code ssh -T {host} {cmd}}, the
 * default, whose remote shell parses it). A template with neither gets the command's words appended.
 *
 * <p>No group outlives the launcher: every group starts with
 * {@code -D}{@value DistributedJob#EXIT_WITH_STDIN_PROPERTY}{@code =true}, and the launcher holds a
 * pipe to each group's standard input until that group's command has ended, and to every group's
 * until it ends itself. When the command's wrapper (the shell, ssh, srun) dies, or the launcher dies
 * (SIGKILL included: the kernel closes the pipe, and ssh passes its end to the remote side), the
 * group's input ends, and the group fails its part and exits ({@link DistributedJob}). It is on for
 * the groups the launcher starts, and only for them: a process started by hand or by an engine
 * often has an input that ends at once, which says nothing about a launcher.
 */
public final class Launcher {
    /** The exit status when the launcher's own time limit ends the job. */
    public static final int TIMED_OUT = 124;
    /** The longest line of a group's output the launcher holds: a longer one goes out in pieces. */
    static final int MAX_LINE = 16_384;
    /**
     * How the master names the group that failed the job (a {@code GroupFailedException}'s message):
     * {@code group 'w1' failed}, or {@code groups 'w1', 'w2' failed} when it cannot tell which of
     * several (a stuck linked run); all of them are named then.
     */
    private static final java.util.regex.Pattern NAMED =
            java.util.regex.Pattern.compile("groups? ('[^']+'(?:, '[^']+')*) failed");

    private Launcher() {}

    /**
     * The command that runs {@code group}: the template expanded around
     * {@code java [options] -cp CP -Dbbflow.job=... -Dbbflow.group=G main args}.
     *
     * @param job the job
     * @param group the group's name
     * @return the command, one argument per element
     */
    public static List<String> command(JobFile job, String group) {
        JobFile.Group g = job.groups().get(group);
        List<String> java = new ArrayList<>();
        java.add(job.java() != null ? job.java() : Path.of(System.getProperty("java.home"), "bin", "java").toString());
        java.addAll(job.jvmOptions());
        java.addAll(g.jvmOptions());
        java.add("-cp");
        java.add(job.classpath() != null ? job.classpath() : System.getProperty("java.class.path"));
        java.add("-D" + DistributedJob.JOB_PROPERTY + "=" + job.spec().toText());
        java.add("-D" + DistributedJob.GROUP_PROPERTY + "=" + group);
        // the group exits when its input ends: this launcher, or the wrapper between, is gone
        java.add("-D" + DistributedJob.EXIT_WITH_STDIN_PROPERTY + "=true");
        java.add(job.main());
        java.addAll(job.args());
        List<String> command = new ArrayList<>();
        boolean placed = false;
        for (String word : g.remote().trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (word.equals("{args}")) {
                command.addAll(java);
                placed = true;
            } else {
                if (word.contains("{cmd}")) {
                    placed = true;
                }
                command.add(word.replace("{host}", g.host()).replace("{group}", group)
                        .replace("{cmd}", String.join(" ", java.stream().map(Launcher::shellQuote).toList())));
            }
        }
        if (!placed) {
            command.addAll(java);
        }
        return command;
    }

    /**
     * The command of every group, as {@link #run} would start them (a dry run): after the same checks,
     * so a job the run refuses is refused here too, never printed with an empty host.
     *
     * @param job the job
     * @return each group's command, in group order
     * @throws IllegalStateException if a group has no host (the job is for an engine), would listen
     *     unauthenticated beyond its machine, or its command holds characters the locale cannot pass
     */
    public static Map<String, List<String>> commands(JobFile job) {
        check(job);
        Map<String, List<String>> commands = new LinkedHashMap<>();
        for (String g : job.groups().keySet()) {
            commands.put(g, command(job, g));
        }
        return commands;
    }

    /** What {@link #run} refuses before it starts anything. */
    private static void check(JobFile job) {
        java.nio.charset.Charset platform = platformCharset();
        for (String g : job.groups().keySet()) {
            if (job.groups().get(g).host().isEmpty()) {
                throw new IllegalStateException("group " + g + " has no host: the launcher starts every group on its host"
                        + " (a job file without hosts is for an engine: see the spec, slurm and kubernetes commands)");
            }
            job.spec().checkListenAllowed(g);
            if (platform != null) {
                checkEncodable(g, command(job, g), platform);
            }
        }
    }

    /**
     * The charset the JDK encodes a process's arguments in ({@code sun.jnu.encoding}, from the
     * locale), or null if unknown.
     */
    private static java.nio.charset.Charset platformCharset() {
        String name = System.getProperty("sun.jnu.encoding");
        try {
            return name == null ? null : java.nio.charset.Charset.forName(name);
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    /**
     * Refuses a command word the platform charset cannot encode: the JDK passes each such character
     * to the process as '?', so under a C/POSIX locale an argument "jöb" reached the group as "j?b"
     * (a path that does not exist, or a different argument), silently.
     */
    static void checkEncodable(String group, List<String> command, java.nio.charset.Charset charset) {
        java.nio.charset.CharsetEncoder encoder = charset.newEncoder();
        for (String word : command) {
            if (!encoder.canEncode(word)) {
                throw new IllegalStateException("group " + group + ": the command word '" + escaped(word) + "' holds"
                        + " characters this launcher's locale (" + charset + ") cannot pass to a process (they would"
                        + " arrive as '?'): run the launcher under a UTF-8 locale (e.g. LC_ALL=C.UTF-8)");
            }
        }
    }

    /** {@code word} with every character outside printable ASCII as a Java escape (the message is read under that locale). */
    private static String escaped(String word) {
        StringBuilder b = new StringBuilder();
        for (char c : word.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return b.toString();
    }

    /**
     * A command as one line a POSIX shell reads back into the same words: what a dry run prints.
     * Joined with bare spaces, the job's text ({@code -Dbbflow.job=id=...;master=m;...}) ended the
     * pasted command at its first {@code ;}, and an argument with a space became two.
     *
     * @param command the command, one argument per element
     * @return the words, each quoted for the shell where it needs it, separated by spaces
     */
    public static String shellLine(List<String> command) {
        return String.join(" ", command.stream().map(Launcher::shellQuote).toList());
    }

    /** {@code word} as one word for a POSIX shell. */
    static String shellQuote(String word) {
        if (!word.isEmpty() && word.matches("[A-Za-z0-9_./=:,@%+-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * Runs the job: checks that no group would listen unauthenticated beyond its machine (unless the
     * job allows it), starts every group, prints each line of their output as {@code [group] line},
     * and returns when all have ended. When a group fails the others get {@code grace} to end by
     * themselves, then are terminated (and killed 2 s later). A launcher ended by a signal (SIGTERM,
     * SIGHUP, Ctrl-C) terminates every group, and what its command started, before it exits.
     *
     * @param job the job
     * @param out where the merged output goes (called from several threads, one line at a time)
     * @param timeout the longest the job may run, or null for no limit
     * @param grace how long the other groups may take to end by themselves once one failed
     * @return 0 if every group succeeded (survivable groups aside), else the first failing group's exit
     *     status ({@link #TIMED_OUT} if the time limit ended the job)
     * @throws IllegalStateException if a group would listen unauthenticated beyond its machine, or its
     *     command holds characters the locale cannot pass to a process (under a C/POSIX locale)
     * @throws IllegalArgumentException if the time limit is not above 0, or it or the grace is negative or
     *     above 365 days (nothing is started)
     * @throws IOException if a group's command cannot be started
     * @throws InterruptedException if interrupted while waiting (every group is then killed)
     */
    public static int run(JobFile job, Consumer<String> out, Duration timeout, Duration grace)
            throws IOException, InterruptedException {
        if (timeout != null && (timeout.isNegative() || timeout.isZero() || timeout.compareTo(NetOptions.MAX_DURATION) > 0)) {
            throw new IllegalArgumentException("the time limit must be more than 0 and at most 365 days, got " + timeout);
        }
        if (grace.isNegative() || grace.compareTo(NetOptions.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("the grace must be from 0 to 365 days, got " + grace);
        }
        check(job);
        String master = job.spec().master();
        int width = job.groups().keySet().stream().mapToInt(String::length).max().orElse(1);
        Map<String, Process> processes = new LinkedHashMap<>();
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        List<Thread> readers = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<String> named = new java.util.concurrent.atomic.AtomicReference<>();
        // the launcher ended by a signal (kill, SIGHUP, Ctrl-C) stops what it started, as its own end does
        List<Process> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread onSignal = new Thread(() -> {
            try {
                stop(started, Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "launch-stop-on-exit");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            for (String g : job.groups().keySet()) {
                Process p = new ProcessBuilder(command(job, g)).redirectErrorStream(true).start();
                processes.put(g, p);
                started.add(p);
                String prefix = "[" + g + "]" + " ".repeat(width - g.length()) + " ";
                Thread reader = new Thread(() -> copyOutput(p, prefix, out, g.equals(master) ? named : null),
                        "launch-output-" + g);
                reader.setDaemon(true);
                reader.start();
                readers.add(reader);
                p.onExit().thenRun(() -> {
                    endInput(p); // its wrapper is gone: a group JVM it left behind sees its input end and exits
                    ended.add(g);
                });
            }
            long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
            long verdictBy = Long.MAX_VALUE; // once a group failed: how long the master may take to say why
            String failed = null;
            int failedStatus = 0;
            int status = 0;
            boolean stopped = false;
            for (int left = processes.size(); left > 0; left--) {
                long wait = Math.min(deadline, verdictBy) - System.nanoTime();
                String g = wait <= 0 ? null : ended.poll(wait, TimeUnit.NANOSECONDS);
                if (g == null) {
                    if (System.nanoTime() - deadline >= 0) {
                        out.accept("launch: the job ran past " + timeout + "; stopping every group");
                        status = status != 0 ? status : TIMED_OUT;
                    } else {
                        out.accept("launch: the master gave no verdict in time; group " + failed + " failed first");
                        status = failedStatus;
                    }
                    stop(processes.values(), Duration.ZERO);
                    stopped = true;
                    break;
                }
                int code = processes.get(g).exitValue();
                out.accept("launch: group " + g + " exited with " + code);
                if (g.equals(master)) {
                    for (Thread t : readers) {
                        t.join(200); // the master's last lines, its verdict among them
                    }
                    status = code;
                    if (code != 0) {
                        out.accept(failedLine(named.get() != null ? named.get() : master));
                    } else if (failed != null) {
                        out.accept("launch: the master completed the job; group " + failed + "'s exit " + failedStatus
                                + " came after its part was done");
                    }
                    if (!stopped && left > 1) {
                        stop(processes.values(), code == 0 ? grace.plus(job.spec().peerTimeout()) : grace);
                        stopped = true;
                    }
                } else if (code != 0 && job.groups().get(g).survivable()) {
                    out.accept("launch: group " + g + " is survivable; the job goes on without it");
                } else if (code != 0 && failed == null) {
                    failed = g;
                    failedStatus = code;
                    verdictBy = System.nanoTime() + job.spec().peerTimeout().plus(grace).toNanos();
                    out.accept("launch: group " + g + " failed; waiting for the master's verdict");
                }
            }
            for (Process p : processes.values()) {
                p.waitFor(grace.toMillis() + 3_000, TimeUnit.MILLISECONDS);
            }
            for (Thread t : readers) {
                t.join(1_000);
            }
            return status;
        } finally {
            for (Process p : processes.values()) {
                if (p.isAlive()) {
                    destroyTree(p, descendantsOf(p), true);
                }
                endInput(p);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: it stops the groups
            }
        }
    }

    /** Closes the pipe to a group's standard input: the group sees its input end (idempotent). */
    private static void endInput(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /**
     * The group or groups a line of the master's output names as the job's failure:
     * {@code group 'w2' failed} gives {@code w2}, {@code groups 'w1', 'w2' failed} (a stuck linked
     * run, which of them the master cannot tell) gives {@code w1, w2}; null if it names none.
     */
    static String namedIn(String line) {
        java.util.regex.Matcher m = NAMED.matcher(line);
        return m.find() ? m.group(1).replace("'", "") : null;
    }

    /** What the launcher says when the master failed the job, blaming {@code blamed} (one name, or several joined by {@code ", "}). */
    static String failedLine(String blamed) {
        return "launch: the job failed; the master names group" + (blamed.contains(", ") ? "s " : " ") + blamed
                + "; stopping the others";
    }

    /**
     * Copies a group's output, each line prefixed; a stack trace (a line followed by lines that start
     * with a tab, {@code Caused by:}, {@code Suppressed:} or {@code ...}) goes out as one block, so the
     * other groups' lines do not cut it. In the master's output, remembers the group (or groups) it
     * names as the cause ({@link #namedIn}).
     */
    private static void copyOutput(Process p, String prefix, Consumer<String> out,
                                   java.util.concurrent.atomic.AtomicReference<String> named) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder block = new StringBuilder();
            LineReader lines = new LineReader(r);
            for (String line; (line = lines.next()) != null; ) {
                if (named != null && named.get() == null) {
                    String n = namedIn(line);
                    if (n != null) {
                        named.set(n);
                    }
                }
                boolean continues = line.startsWith("\t") || line.startsWith("Caused by:") || line.startsWith("Suppressed:")
                        || line.trim().startsWith("... ");
                if (!continues && block.length() > 0) {
                    emit(out, block);
                }
                if (block.length() > 0) {
                    block.append('\n');
                }
                block.append(prefix).append(line);
                if (!r.ready()) {
                    emit(out, block); // nothing more yet: do not hold a line back
                }
            }
            emit(out, block);
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    /** Hands a block of lines on, under one lock, so that no other group's line lands inside it. */
    private static void emit(Consumer<String> out, StringBuilder block) {
        if (block.length() == 0) {
            return;
        }
        synchronized (Launcher.class) {
            for (String line : block.toString().split("\n", -1)) {
                out.accept(line);
            }
        }
        block.setLength(0);
    }

    /**
     * The processes a group's command started, taken while it is alive: a remote-exec template such
     * as {@code sh -c {cmd}} runs the group's JVM as a child of the shell (dash does not exec it), and
     * once the shell is gone that JVM is an orphan no longer reachable from here.
     */
    private static List<ProcessHandle> descendantsOf(Process p) {
        return p.descendants().toList();
    }

    /** Waits until {@code h} has ended or {@code deadline} (a {@link System#nanoTime()}) has passed. */
    private static boolean awaitExit(ProcessHandle h, long deadline) throws InterruptedException {
        try {
            h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !h.isAlive();
        }
    }

    /** Ends the process and what it started: descendants first (SIGTERM, or SIGKILL when forced). */
    private static void destroyTree(Process p, List<ProcessHandle> descendants, boolean force) {
        for (ProcessHandle d : descendants) {
            if (force) {
                d.destroyForcibly();
            } else {
                d.destroy();
            }
        }
        if (force) {
            p.destroyForcibly();
        } else {
            p.destroy();
        }
    }

    /**
     * Gives every live group {@code grace} to end by itself (a failure reaches every group within the
     * job's peer timeout, and each prints why it failed), then terminates those still alive, with
     * the processes their command started, and kills them if they have not ended 2 s later.
     */
    private static void stop(java.util.Collection<Process> processes, Duration grace) throws InterruptedException {
        long end = System.nanoTime() + grace.toNanos();
        for (Process p : processes) {
            p.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        Map<Process, List<ProcessHandle>> trees = new LinkedHashMap<>();
        for (Process p : processes) {
            if (p.isAlive()) {
                trees.put(p, descendantsOf(p));
                destroyTree(p, trees.get(p), false);
            }
        }
        long kill = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (Map.Entry<Process, List<ProcessHandle>> t : trees.entrySet()) {
            Process p = t.getKey();
            boolean ended = p.waitFor(Math.max(0, kill - System.nanoTime()), TimeUnit.NANOSECONDS);
            for (ProcessHandle d : t.getValue()) {
                ended &= awaitExit(d, kill);
            }
            if (!ended) {
                destroyTree(p, t.getValue(), true);
            }
        }
    }
}
