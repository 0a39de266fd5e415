package org.bbflow.net.dist;

import java.time.Duration;
import java.util.LinkedHashMap;
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
 * sends one line when its part has ended: {@code OK}, or {@code FAILED<TAB>node path<TAB>description}.
 * A report channel that fails before a report came (the group's process or host is gone) reads as
 * {@code LOST<TAB>description}: a failure for every farm but one that re-sends a lost worker's tasks.
 */
final class GroupReports implements AutoCloseable {
    static final String OK = "OK";
    static final String FAILED = "FAILED";
    static final String LOST = "LOST";

    private final Map<String, CompletableFuture<String>> reports = new LinkedHashMap<>();
    private final Map<String, Thread> readers = new LinkedHashMap<>();
    private final Map<String, RemoteInlet<String>> inlets = new LinkedHashMap<>();

    GroupReports(NetServer server, Map<String, Integer> controlIds) {
        controlIds.forEach((group, id) -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            RemoteInlet<String> inlet = server.inlet(id, Codec.strings());
            reports.put(group, f);
            inlets.put(group, inlet);
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
        });
        readers.values().forEach(Thread::start);
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
        for (String group : reports.keySet()) {
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

    /** Whether the report says the group's report channel failed before the group sent a report. */
    static boolean isLost(String report) {
        return report != null && report.startsWith(LOST + "\t");
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
        if (parts.length == 3 && parts[0].equals(FAILED)) {
            return new GroupFailedException(group, parts[1], parts[2], cause);
        }
        return new GroupFailedException(group, group, report, cause);
    }

    @Override
    public void close() {
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
