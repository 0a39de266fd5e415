package org.bbflow.bench.support;

import java.util.concurrent.TimeUnit;

/**
 * The other side of a two-thread channel benchmark: a thread started in an iteration set-up and
 * joined in its tear-down, so that no thread survives an iteration. A failure of the peer is
 * rethrown by {@link #check()} and {@link #join()}, so the benchmark fails instead of hanging.
 */
public final class PeerThread {
    private final Thread thread;
    private volatile Throwable failure;

    /** Starts {@code body} on a new daemon thread (daemon only so a failed run can still exit). */
    public PeerThread(String name, Runnable body) {
        thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure = t;
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Throws if the peer failed. */
    public void check() {
        Throwable t = failure;
        if (t != null) {
            throw new IllegalStateException("peer thread " + thread.getName() + " failed", t);
        }
    }

    /** Waits (at most 30 s) for the peer to end; throws if it failed or is still running. */
    public void join() {
        join(30);
    }

    /** Waits at most {@code seconds} for the peer to end; throws if it failed or is still running. */
    public void join(long seconds) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(seconds));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining " + thread.getName(), e);
        }
        check();
        if (thread.isAlive()) {
            throw new IllegalStateException("peer thread " + thread.getName() + " did not end within " + seconds + " s");
        }
    }
}
