package org.bbflow.core.par;

import java.time.Duration;
import java.util.Map;

/**
 * Test support: a deadline for a block of test code. If it passes, every thread's stack is printed
 * (the hang's evidence) and the test thread is interrupted, which ends a waiting loop with an error.
 */
final class Watchdog implements AutoCloseable {
    private final Thread watcher;
    private volatile boolean fired;

    private Watchdog(Duration deadline, String what) {
        Thread test = Thread.currentThread();
        watcher = new Thread(() -> {
            try {
                Thread.sleep(deadline.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            fired = true;
            StringBuilder dump = new StringBuilder("HANG: " + what + " still running after " + deadline + "\n");
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                dump.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
                for (StackTraceElement s : e.getValue()) {
                    dump.append("    at ").append(s).append('\n');
                }
            }
            System.err.println(dump);
            test.interrupt();
        }, "watchdog");
        watcher.setDaemon(true);
        watcher.start();
    }

    static Watchdog start(Duration deadline, String what) {
        return new Watchdog(deadline, what);
    }

    @Override
    public void close() {
        watcher.interrupt();
        if (fired) {
            Thread.interrupted();
            throw new AssertionError("deadline passed (thread dump on stderr)");
        }
    }
}
