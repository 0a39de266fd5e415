package org.bbflow.net.dist;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bbflow.net.Codec;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteInlet;

/**
 * The master's side of the groups' reports: one control channel per other group, on which the group
 * sends one line when its part has ended: {@code OK}, or {@code FAILED<TAB>node path<TAB>description},
 * or {@code LINK<TAB>node path<TAB>description} when it failed because its channel to or from another
 * group of a linked run of stages failed (that group's report then says what went wrong first), or
 * because the stream it received was cut (ended with a failure, {@code RemoteStreamFailedException}:
 * the master's source threw a {@code StreamFailure}, a cause the master's flow holds itself).
 * A report channel that fails before a report came (the group's process or host is gone) reads as
 * {@code LOST<TAB>description}: a failure for every farm but one that re-sends a lost worker's tasks.
 */
final class GroupReports implements AutoCloseable {
    static final String OK = "OK";
    static final String FAILED = "FAILED";
    static final String LOST = "LOST";
    static final String LINK = "LINK";

    private final NetServer server;
    private final Map<String, CompletableFuture<String>> reports = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, Thread> readers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, RemoteInlet<String>> inlets = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.List<java.util.function.Consumer<GroupFailedException>> onFailure =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    GroupReports(NetServer server, Map<String, Integer> controlIds) {
        this.server = server;
        controlIds.forEach(this::expect);
    }

    /**
     * Reads {@code group}'s report on channel {@code id} from now on: the one of a new generation of
     * its process, replacing what an older one would still send (its channel is closed).
     */
    synchronized void expect(String group, int id) {
        forget(group);
        CompletableFuture<String> f = new CompletableFuture<>();
        RemoteInlet<String> inlet = server.inlet(id, Codec.strings());
        reports.put(group, f);
        inlets.put(group, inlet);
        for (java.util.function.Consumer<GroupFailedException> action : onFailure) {
            hand(group, f, action);
        }
        Thread t = new Thread(() -> {
            try {
                String r = inlet.take();
                f.complete(r == null ? FAILED + "\t" + group + "\tended its report channel without a report" : r);
                while (inlet.take() != null) {
                    // the end of the report stream
                }
            } catch (RuntimeException e) {
                f.complete(LOST + "\t" + e.getMessage());
            }
        }, "bbflow-report-" + group);
        t.setDaemon(true);
        readers.put(group, t);
        t.start();
    }

    /** Stops reading {@code group}'s report (its process was fenced); its report reads as lost. */
    synchronized void forget(String group) {
        Thread t = readers.remove(group);
        RemoteInlet<String> in = inlets.remove(group);
        CompletableFuture<String> f = reports.get(group);
        if (f != null) {
            f.complete(LOST + "\tfenced: its process was declared lost");
        }
        if (t != null) {
            t.interrupt();
        }
        if (in != null) {
            in.close();
        }
    }

    /** The report of {@code group}, waiting at most {@code wait}; null if none came. */
    String await(String group, Duration wait) {
        CompletableFuture<String> f = reports.get(group);
        if (f == null) {
            return null;
        }
        try {
            return f.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }

    /**
     * Throws the first group's failure, waiting for every report until {@code deadlineNanos}; the
     * {@code lost} groups (whose tasks were re-sent elsewhere) are not asked. A {@code survivable}
     * group (one that runs only workers of farms that re-send a lost worker's tasks) that is gone
     * without a report, or sends none in time, joins {@code lost} instead: the flow ended, so its
     * results are all in, and nothing of it can fail the job any more.
     */
    void checkAll(long deadlineNanos, Set<String> lost, Set<String> survivable) {
        for (String group : new java.util.ArrayList<>(reports.keySet())) {
            if (lost.contains(group)) {
                continue;
            }
            String r = await(group, Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())));
            if ((r == null || isLost(r)) && survivable.contains(group)) {
                lost.add(group);
                System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING, "group " + group
                        + " was lost after its last result (" + (r == null ? "no report before the peer timeout"
                        : r.substring(LOST.length() + 1)) + "); its farms re-send a lost worker's tasks, so the job "
                        + "stands");
                continue;
            }
            if (r == null) {
                throw new GroupFailedException(group, group, "sent no report before the peer timeout", null);
            }
            GroupFailedException e = failure(group, r, null);
            if (e != null) {
                throw e;
            }
        }
    }

    /**
     * Hands {@code action} (on the thread that read it) the failure of each group that reports that a
     * node of it failed by itself ({@link #FAILED}). Not a broken link ({@link #LINK}: its cause is
     * the group at the other end, which reports its own failure or is lost) and not a lost group (the
     * ledgers' and the peer timeout's to judge).
     */
    synchronized void whenAnyFails(java.util.function.Consumer<GroupFailedException> action) {
        onFailure.add(action);
        reports.forEach((group, f) -> hand(group, f, action));
    }

    private static void hand(String group, CompletableFuture<String> f, java.util.function.Consumer<GroupFailedException> action) {
        f.thenAccept(r -> {
            if (isNodeFailure(r)) {
                action.accept(failure(group, r, null));
            }
        });
    }

    /**
     * The cause among the reports of {@code groups}, waiting up to {@code wait} for each in turn: the
     * first group whose node failed by itself, else the
     * first lost, else the first whose link to another group failed (a group reports a broken link
     * only after the group at its other end failed or was lost); null if none of them failed.
     */
    GroupFailedException rootFailure(Iterable<String> groups, Duration wait, Throwable cause) {
        String lost = null;
        String link = null;
        for (String g : groups) {
            String r = await(g, wait);
            if (isNodeFailure(r)) {
                return failure(g, r, cause);
            }
            if (lost == null && isLost(r)) {
                lost = g;
            }
            if (link == null && isLinkFailure(r)) {
                link = g;
            }
        }
        String g = lost != null ? lost : link;
        return g == null ? null : failure(g, await(g, Duration.ZERO), cause);
    }

    /**
     * By group, the groups of the linked runs it takes part in, in run order (set once by the job
     * before its flow starts; see {@link #failureOf}).
     */
    private volatile Map<String, List<String>> linkedRuns = Map.of();

    /** Sets, by group, the groups of the linked runs it takes part in (before the flow starts). */
    void linkedRuns(Map<String, List<String>> byGroup) {
        this.linkedRuns = Map.copyOf(byGroup);
    }

    /**
     * The failure {@code group}'s {@code report} describes, or null if it says OK. A group that takes
     * part in a linked run and reports {@code LINK} failed because its link to another group of a run
     * broke: the cause is then the group that failed or was lost first along its runs
     * ({@link #rootFailure}, waiting up to {@code wait} for each report), whichever block of that
     * group (a stage of the run, a farm's worker, another stage, a member) the caller stands in for:
     * the group's whole flow fails on a broken link, so any of them may hear of it first (before, only
     * the run's own stand-ins traced it, and a farm worker's stand-in in the run's first group named
     * that group, not the killed next one: RandomJobTest, LinkedFailureTest).
     */
    GroupFailedException failureOf(String group, String report, Duration wait, Throwable cause) {
        List<String> linked = linkedRuns.get(group);
        if (linked != null && isLinkFailure(report)) {
            return rootFailure(linked, wait, cause);
        }
        return failure(group, report, cause);
    }

    /** Whether {@code group}'s report is in and is not {@code OK}; does not wait. */
    boolean reportedFailure(String group) {
        CompletableFuture<String> f = reports.get(group);
        String r = f == null ? null : f.getNow(null);
        return r != null && !r.equals(OK);
    }

    /** Whether {@code group}'s report is in and says {@code OK}; does not wait. */
    boolean reportedOk(String group) {
        CompletableFuture<String> f = reports.get(group);
        return f != null && OK.equals(f.getNow(null));
    }

    /** Whether the report says the group's report channel failed before the group sent a report. */
    static boolean isLost(String report) {
        return report != null && report.startsWith(LOST + "\t");
    }

    /** Whether the report says the group failed because a link to or from another group failed. */
    static boolean isLinkFailure(String report) {
        return report != null && report.startsWith(LINK + "\t");
    }

    /** Whether the report says a node of the group failed by itself (not a link, not a lost process). */
    static boolean isNodeFailure(String report) {
        return report != null && report.startsWith(FAILED + "\t");
    }

    /** The failure a report describes, or null if it says OK. */
    static GroupFailedException failure(String group, String report, Throwable cause) {
        if (report == null || report.equals(OK)) {
            return null;
        }
        if (isLost(report)) {
            return new GroupFailedException(group, group, "lost: " + report.substring(LOST.length() + 1), cause);
        }
        String[] parts = report.split("\t", 3);
        if (parts.length == 3 && (parts[0].equals(FAILED) || parts[0].equals(LINK))) {
            return new GroupFailedException(group, parts[1], parts[2], cause);
        }
        return new GroupFailedException(group, group, report, cause);
    }

    @Override
    public synchronized void close() {
        for (Thread t : readers.values()) {
            t.interrupt();
        }
        for (Thread t : readers.values()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        inlets.values().forEach(RemoteInlet::close);
    }
}
