package org.bbflow.core;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A thread's CPU time, where the JVM can measure it ({@link ThreadMXBean}): read by a node's thread
 * when it ends, and for a live snapshot by the thread that takes it, never per item. A node's thread
 * is a new thread of its flow, so its CPU time is the node's. {@code -1} where it cannot be told:
 * thread CPU time unsupported or switched off, a virtual thread, a thread that has ended, or the bean
 * still loading.
 *
 * <p>Loading the bean costs a fresh JVM about 10 ms (the management library and its classes), so the
 * first node to start loads it on a short-lived daemon thread while its flow starts, instead of
 * making that flow wait; a node that ends before it is loaded reports wall time.
 */
final class ThreadCpu {
    private static volatile ThreadMXBean bean;
    private static final AtomicBoolean REQUESTED = new AtomicBoolean();

    private ThreadCpu() {
    }

    /** Starts loading the bean in the background, once per JVM. */
    static void prepare() {
        if (bean == null && !REQUESTED.get() && REQUESTED.compareAndSet(false, true)) {
            Thread loader = new Loader();
            loader.setDaemon(true);
            loader.start();
        }
    }

    /** The loading thread: a class of its own, not a method reference the JVM would spin a class for at a first flow's start. */
    private static final class Loader extends Thread {
        Loader() {
            super("bbflow-thread-cpu-time");
        }

        @Override
        public void run() {
            load();
        }
    }

    private static void load() {
        try {
            ThreadMXBean b = ManagementFactory.getThreadMXBean();
            if (b.isThreadCpuTimeSupported() && b.isCurrentThreadCpuTimeSupported()) {
                b.getCurrentThreadCpuTime(); // the first read initialises the native side
                bean = b;
            }
        } catch (RuntimeException | LinkageError e) {
            // a runtime without java.management: busy time stays wall time
        }
    }

    /** The current thread's CPU time in nanoseconds, or -1. */
    static long current() {
        ThreadMXBean b = bean;
        try {
            return b == null ? -1 : b.getCurrentThreadCpuTime();
        } catch (UnsupportedOperationException e) {
            return -1; // e.g. a virtual thread on some JDKs
        }
    }

    /** The CPU time of {@code t} (alive) in nanoseconds, or -1. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+, this module runs on 17
    static long of(Thread t) {
        ThreadMXBean b = bean;
        try {
            return b == null || t == null ? -1 : b.getThreadCpuTime(t.getId());
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }
}
