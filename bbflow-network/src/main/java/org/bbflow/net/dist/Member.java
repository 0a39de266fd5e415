package org.bbflow.net.dist;

import java.time.Duration;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;

/**
 * The master's link to one generation of one group's process: the connection to it, the admission
 * that told it its generation, the verdict channel, the beats both ways ({@link Liveness}). A
 * process restarted after its group was lost is a new member of a newer generation; the old one is
 * fenced (its connections to the master refused) and closed.
 */
final class Member {
    final String group;
    final long generation;
    final NetClient client;
    final RemoteOutlet<String> verdict;
    private final java.util.concurrent.CompletableFuture<Void> admitted = new java.util.concurrent.CompletableFuture<>();
    private final Liveness.Beats pulse;
    private final Liveness.Watch watch;
    private volatile boolean lost;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Connects to {@code group}'s process and tells it its generation; its report and beats are
     * expected on the master's {@code server} from now on ({@code onSilent} runs when its beats stop).
     * Returns at once: the admission is delivered in the background (see {@link #awaitAdmitted}).
     */
    Member(String group, long generation, String host, int port, NetOptions options, NetServer server,
           GroupReports reports, Duration liveness, Duration connectTimeout, Runnable onSilent) {
        this.group = group;
        this.generation = generation;
        reports.expect(group, ChannelIds.idOf(ChannelIds.report(group), generation));
        RemoteInlet<Long> beats = server.inlet(ChannelIds.idOf(ChannelIds.beats(group), generation), Codec.longs());
        NetClient c;
        try {
            c = connect(host, port, options, connectTimeout);
        } catch (RuntimeException e) {
            beats.close();
            throw e;
        }
        this.client = c;
        RemoteOutlet<Long> admission = client.outlet(ChannelIds.idOf(ChannelIds.admission(group)), Codec.longs());
        admission.send(generation);
        Thread t = new Thread(() -> {
            try {
                admission.complete();
                admitted.complete(null);
            } catch (RuntimeException e) {
                admitted.completeExceptionally(e);
            }
        }, "bbflow-admit-" + group + "#" + generation);
        t.setDaemon(true);
        t.start();
        this.verdict = client.outlet(ChannelIds.idOf(ChannelIds.verdict(group), generation), Codec.strings());
        this.pulse = Liveness.beat(client.outlet(ChannelIds.idOf(ChannelIds.pulse(group), generation), Codec.longs()),
                liveness, "to-" + group);
        this.watch = Liveness.watch(beats, liveness, "group " + group + " (generation " + generation + ")", onSilent);
    }

    /**
     * A client to {@code host}, retrying while the name does not resolve (a Kubernetes pod's DNS name
     * appears only once the pod runs) until {@code timeout}, as a refused connection is retried.
     */
    static NetClient connect(String host, int port, NetOptions options, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = 20;
        while (true) {
            try {
                return NetClient.connect(host, port, options);
            } catch (RemoteChannelException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new RemoteChannelException("cannot reach " + host + ":" + port + " within " + timeout.toMillis()
                            + " ms: " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException i) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                backoff = Math.min(500, backoff * 2);
            }
        }
    }

    /** Waits until the process has its generation (or the channel fails: no such process within the peer timeout). */
    void awaitAdmitted() {
        try {
            admitted.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteChannelException("interrupted while admitting group " + group);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RemoteChannelException(e.getCause().toString());
        }
    }

    /** Whether this member's beats stopped for longer than the liveness timeout. */
    boolean silent() {
        return watch.silent();
    }

    /**
     * Whether this member ended its beats (cleanly): its part is over, and it listens for nothing
     * more from the master, a verdict included.
     */
    boolean beatsEnded() {
        return watch.ended();
    }

    /** Whether a beat of this member came at least once (it runs, and knows its generation). */
    boolean beating() {
        return watch.started();
    }

    /** Milliseconds since its last beat, or -1 before the first. */
    long sinceLastBeatMillis() {
        return watch.sinceLastMillis();
    }

    /** Marks the member lost; false if it was already. */
    synchronized boolean markLost() {
        if (lost) {
            return false;
        }
        lost = true;
        return true;
    }

    boolean lost() {
        return lost;
    }

    /**
     * Ends the beats (cleanly, unless {@code abrupt}) and closes the connection: its outlets fail.
     * An abrupt close returns at once and lets the connection close in the background. Once only: a
     * lost member (closed abruptly) is still in the master's table when the job ends, and closing it
     * again there would wait for that background close (a second {@link NetClient#close()} waits for
     * the one under way), which nobody should wait for.
     */
    void close(boolean abrupt) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (!abrupt) {
            try {
                pulse.stop(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            watch.close();
            client.close();
            return;
        }
        pulse.stop();
        watch.close();
        // its outlets fail at once (a send waiting for its window returns); the close itself may wait
        // for a stopped process's side of the connection, which nobody here should wait for
        Thread t = new Thread(client::close, "bbflow-close-" + group + "#" + generation);
        t.setDaemon(true);
        t.start();
    }
}
