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
