package org.bbflow.core;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A thread's CPU time, where the JVM can measure it ({@link ThreadMXBean}): read by a node's thread
 * when it starts and when it ends, and for a live snapshot by the thread that takes it, never per
 * item. {@code -1} where it cannot be told (thread CPU time unsupported or switched off, a virtual
 * thread, a thread that has ended).
 */
final class ThreadCpu {
    private ThreadCpu() {
    }

    /** Loaded on first use, so a JVM that runs no flow never loads {@code java.management}. */
    private static final class Bean {
        static final ThreadMXBean INSTANCE = load();

        private static ThreadMXBean load() {
            try {
                ThreadMXBean b = ManagementFactory.getThreadMXBean();
                return b.isThreadCpuTimeSupported() && b.isCurrentThreadCpuTimeSupported() ? b : null;
            } catch (RuntimeException | LinkageError e) {
                return null; // a runtime without java.management: busy time stays wall time
            }
        }
    }

    /** The current thread's CPU time in nanoseconds, or -1. */
    static long current() {
        ThreadMXBean b = Bean.INSTANCE;
        try {
            return b == null ? -1 : b.getCurrentThreadCpuTime();
        } catch (UnsupportedOperationException e) {
            return -1; // e.g. a virtual thread on some JDKs
        }
    }

    /** The CPU time of {@code t} (alive) in nanoseconds, or -1. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+, this module runs on 17
    static long of(Thread t) {
        ThreadMXBean b = Bean.INSTANCE;
        try {
            return b == null || t == null ? -1 : b.getThreadCpuTime(t.getId());
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }
}
