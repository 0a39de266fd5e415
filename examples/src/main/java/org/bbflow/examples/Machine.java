package org.bbflow.examples;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** Facts about the machine that explain timings: cores, and whether other processes compete for them. */
public final class Machine {
    private Machine() {
    }

    /** Available processors. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The one-minute system load average, or a negative number where the platform has none. */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * CPU time used so far by this whole JVM (all threads), or -1 where the platform does not say.
     * Divided by a run's wall time it tells how many cores the run actually got.
     */
    public static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /** Cores used between two {@link #processCpuNanos()} readings over {@code wallNanos}, or NaN. */
    public static double coresUsed(long cpuBefore, long cpuAfter, long wallNanos) {
        return cpuBefore < 0 || cpuAfter < 0 || wallNanos <= 0 ? Double.NaN : (double) (cpuAfter - cpuBefore) / wallNanos;
    }

    /**
     * Prints a note when the load average says other processes share the cores, since speedups
     * measured then understate what the flow achieves on an idle machine.
     */
    public static void warnIfBusy(Output out) {
        double load = loadAverage();
        if (load > cores() + 0.5) {
            out.println(String.format(Locale.ROOT, "note: load average %.1f on %d cores: other processes compete for"
                    + " the CPU, so these timings and speedups are lower than on an idle machine.", load, cores()));
        }
    }
}
