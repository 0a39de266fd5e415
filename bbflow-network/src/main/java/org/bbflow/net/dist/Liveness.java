package org.bbflow.net.dist;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;

/**
 * A process's sign of life on a channel of its own, separate from the connect and peer timeouts: one
 * side sends a beat every {@code timeout / }{@value #BEATS_PER_TIMEOUT}, the other notes when it last
 * heard one and calls the peer silent once nothing came for {@code timeout}. Silence is judged only
 * after the first beat, so a slow start keeps its longer (first-connect) timeout. A beat is a
 * {@code long} on an ordinary remote channel, flushed within the channel's flush delay; the beats of
 * a live process keep coming while its other channels wait for window or for work.
 */
final class Liveness {
    static final int BEATS_PER_TIMEOUT = 8;
    private static final System.Logger LOG = System.getLogger(Liveness.class.getName());

    private Liveness() {}

    /** Sends beats on {@code out} until {@link Beats#stop}; a failing channel stops them quietly. */
    static Beats beat(RemoteOutlet<Long> out, Duration timeout, String name) {
        return new Beats(out, timeout.toNanos() / BEATS_PER_TIMEOUT, name);
    }

    /** Listens for beats on {@code in}; {@code onSilent} runs once, on the watcher's thread, when they stop. */
    static Watch watch(RemoteInlet<Long> in, Duration timeout, String peer, Runnable onSilent) {
        return new Watch(in, timeout.toNanos(), peer, onSilent);
    }

    /** The sending side: a daemon thread. */
    static final class Beats {
        private final Thread thread;
        private volatile boolean stopped;

        private Beats(RemoteOutlet<Long> out, long intervalNanos, String name) {
            thread = new Thread(() -> {
                long n = 0;
                try {
                    while (!stopped) {
                        out.send(n++);
                        LockSupport.parkNanos(this, intervalNanos);
                    }
                    out.complete();
                } catch (RuntimeException e) {
                    out.close();
                    LOG.log(Level.DEBUG, () -> name + ": beats stopped: " + e.getMessage());
                }
            }, "bbflow-beats-" + name);
            thread.setDaemon(true);
            thread.start();
        }

        /** Ends the beats (the stream completes, so the other side sees a clean end, not a silence). */
        void stop() {
            stopped = true;
            LockSupport.unpark(thread);
        }

        /** Ends the beats and waits at most {@code millis} for the stream's end to be delivered. */
        void stop(long millis) throws InterruptedException {
            stop();
            thread.join(millis);
        }
    }

    /** The listening side: a reader thread and a check every tenth of the timeout. */
    static final class Watch {
        private final RemoteInlet<Long> in;
        private final long timeoutNanos;
        private final String peer;
        private final Runnable onSilent;
        private final Thread reader;
        private final Thread judge;
        private volatile long lastBeat;
        private volatile boolean ended;
        private volatile boolean silent;
        private volatile boolean closed;

        private Watch(RemoteInlet<Long> in, long timeoutNanos, String peer, Runnable onSilent) {
            this.in = in;
            this.timeoutNanos = timeoutNanos;
            this.peer = peer;
            this.onSilent = onSilent;
            reader = new Thread(this::read, "bbflow-liveness-" + peer);
            reader.setDaemon(true);
            judge = new Thread(this::judge, "bbflow-liveness-check-" + peer);
            judge.setDaemon(true);
            reader.start();
            judge.start();
        }

        private void read() {
            try {
                while (in.take() != null) {
                    lastBeat = System.nanoTime();
                }
                ended = true; // a clean end: the peer stopped its beats on purpose
            } catch (RemoteChannelException | org.bbflow.net.RemoteStreamFailedException e) {
                // the channel failed (or a peer ended the beats with a failure, which ours never do): the
                // beats stopped, and the judge will tell once the timeout has passed
            }
        }

        private void judge() {
            long step = Math.max(TimeUnit.MILLISECONDS.toNanos(5), timeoutNanos / 10);
            while (!closed && !ended) {
                LockSupport.parkNanos(this, step);
                long last = lastBeat;
                if (last != 0 && !ended && !closed && System.nanoTime() - last > timeoutNanos) {
                    silent = true;
                    LOG.log(Level.WARNING, () -> peer + ": no sign of life for "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - last) + " ms (liveness timeout "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms)");
                    onSilent.run();
                    return;
                }
            }
        }

        /** Whether a beat came at least once. */
        boolean started() {
            return lastBeat != 0;
        }

        /** Whether the beats ended cleanly: the peer stopped them on purpose (its part is over). */
        boolean ended() {
            return ended;
        }

        /** Whether the beats stopped without an end for longer than the timeout (judged once). */
        boolean silent() {
            return silent;
        }

        /** Milliseconds since the last beat, or -1 before the first. */
        long sinceLastMillis() {
            long last = lastBeat;
            return last == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - last);
        }

        /** Stops watching and closes the channel. */
        void close() {
            closed = true;
            LockSupport.unpark(judge);
            reader.interrupt();
            in.close();
        }
    }
}
