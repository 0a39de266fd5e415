package org.bbflow.net.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Every group of a distributed job in one JVM, for a user's tests (as Flink's mini cluster or Jet's
 * embedded member): each group runs the same program on a thread of its own, with its own server on
 * loopback and the same channels, reports, liveness and failure handling as in separate processes.
 * {@link #kill} stops a group as {@code kill -9} stops a process (no report, no end of stream, its
 * sockets closed), so a test can check what its job does when a worker group is lost.
 *
 * <pre>{@code
 * JobSpec spec = LocalJob.spec("m", "w1", "w2").build();
 * try (LocalJob local = LocalJob.start(spec, job -> MyJob.run(job, 100_000))) {
 *     local.kill("w1");                    // a RESEND_TASKS farm goes on without it
 *     Result r = local.result("m");        // the master's return value, or its exception
 * }
 * }</pre>
 *
 * @param <R> what the program returns
 */
public final class LocalJob<R> implements AutoCloseable {
    private final JobSpec spec;
    private final Map<String, DistributedJob> parts = new LinkedHashMap<>();
    private final Map<String, CompletableFuture<R>> results = new LinkedHashMap<>();
    /** The longest timeout that fits a long of nanoseconds: a longer one means "no limit". */
    private static final Duration LONGEST_WAIT = Duration.ofNanos(Long.MAX_VALUE);
    private final Map<String, Thread> threads = new LinkedHashMap<>();

    private LocalJob(JobSpec spec, BiFunction<DistributedJob, LocalJob<R>, R> program) {
        this.spec = spec;
        for (String g : spec.groups()) {
            DistributedJob part = DistributedJob.of(spec, g);
            CompletableFuture<R> result = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    result.complete(program.apply(part, this));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            }, "bbflow-local-" + g);
            t.setDaemon(true);
            parts.put(g, part);
            results.put(g, result);
            threads.put(g, t);
        }
        threads.values().forEach(Thread::start);
    }

    /**
     * A job of the given groups on loopback, each on a free port of its own (all chosen together, so
     * no two groups share one), the first group the master; add
     * options (peer and liveness timeouts, a secret) before {@code build()}.
     *
     * @param groups the groups, the master first
     * @return a builder of the job
     * @throws UncheckedIOException if no free port can be found
     */
    public static JobSpec.Builder spec(String... groups) {
        JobSpec.Builder b = JobSpec.builder();
        // Every socket stays bound until each group has its port: closed one by one, the kernel
        // may hand the next group the port just released (two groups on one address).
        java.util.List<ServerSocket> held = new java.util.ArrayList<>(groups.length);
        try {
            for (String g : groups) {
                ServerSocket s;
                try {
                    s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                } catch (IOException e) {
                    throw new UncheckedIOException("no free port for group " + g, e);
                }
                held.add(s);
                b.group(g, "127.0.0.1", s.getLocalPort());
            }
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a bound, never-accepting socket: nothing to release beyond the port
                }
            }
        }
        return b;
    }

    /**
     * Starts every group of {@code spec} in this JVM, each on its own thread running
     * {@code program} with its part of the job (the program declares the job's farms and stages and
     * calls {@link DistributedJob#run} as it would in a process of its own).
     *
     * @param <R> what the program returns
     * @param spec the job; every group's host must be this machine
     * @param program the job's program
     * @return the running job
     */
    public static <R> LocalJob<R> start(JobSpec spec, Function<DistributedJob, R> program) {
        Objects.requireNonNull(program, "program");
        return new LocalJob<>(Objects.requireNonNull(spec, "spec"), (job, local) -> program.apply(job));
    }

    /**
     * As {@link #start(JobSpec, Function)}, the program also given the running job, e.g. to
     * {@linkplain #kill kill} a group at a chosen point of the master's flow.
     *
     * @param <R> what the program returns
     * @param spec the job; every group's host must be this machine
     * @param program the job's program, given its part and the running job
     * @return the running job
     */
    public static <R> LocalJob<R> start(JobSpec spec, BiFunction<DistributedJob, LocalJob<R>, R> program) {
        return new LocalJob<>(Objects.requireNonNull(spec, "spec"), Objects.requireNonNull(program, "program"));
    }

    /**
     * The part of {@code group} (its {@link DistributedJob#lostGroups()} and
     * {@link DistributedJob#resentTasks()} in the master).
     *
     * @param group a group of the job
     * @return its part
     */
    public DistributedJob part(String group) {
        return parts.get(spec.check(group));
    }

    /**
     * Stops {@code group} as a crash of its process would: no report, no end of stream, its server and
     * connections closed at once, its flow cancelled. The other groups learn it as they would learn a
     * lost process (by its silence). A group other than the master is killed once it has joined the
     * job (its first sign of life reached the master, at most the peer timeout), so that the kill is
     * of a running process, not of one still starting (which the job would wait for as a slow start).
     * Safe from any thread, also while the group still connects to the groups its stages link to
     * (a connection it makes after the kill is closed abruptly at once); when this returns, the
     * group's server and connections are closed, not only being closed. Killing the master cancels
     * its flow too (it once ran on, a node of it waiting for ever): its run ends with no verdict to
     * the groups, and its connections to them close as that run ends, just after this returns.
     *
     * @param group a group of the job
     */
    public void kill(String group) {
        spec.check(group);
        DistributedJob master = parts.get(spec.master());
        long end = System.nanoTime() + spec.peerTimeout().toNanos();
        while (!group.equals(spec.master()) && !master.beating(group) && threads.get(spec.master()).isAlive()
                && System.nanoTime() - end < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        parts.get(group).crash();
    }

    /**
     * What {@code group}'s program returned, waiting for it at most {@code timeout}.
     *
     * @param group a group of the job
     * @param timeout the longest to wait (one beyond what a {@code long} of nanoseconds holds, about
     *     292 years, such as {@code ChronoUnit.FOREVER}'s, waits as long as it takes)
     * @return its program's result
     * @throws RuntimeException what the program threw (an {@link Error} is rethrown as is)
     * @throws IllegalStateException if it has not ended within {@code timeout}
     */
    public R result(String group, Duration timeout) {
        try {
            CompletableFuture<R> result = results.get(spec.check(group));
            // a timeout beyond a long of nanoseconds (292 years, ChronoUnit.FOREVER) waits as long as it takes
            long nanos = timeout.compareTo(LONGEST_WAIT) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
            return result.get(nanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        } catch (TimeoutException e) {
            throw new IllegalStateException("group " + group + " did not end within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for group " + group, e);
        }
    }

    /**
     * What {@code group}'s program returned, waiting for it at most twice the job's peer timeout.
     *
     * @param group a group of the job
     * @return its program's result
     * @throws RuntimeException what the program threw
     */
    public R result(String group) {
        return result(group, spec.peerTimeout().multipliedBy(2).plusSeconds(10));
    }

    /** Kills every group still running and waits (at most 10 s) for their threads. */
    @Override
    public void close() {
        threads.forEach((g, t) -> {
            if (t.isAlive()) {
                parts.get(g).crash();
            }
        });
        for (Thread t : threads.values()) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
