package org.bbflow.core;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Which CPU each node thread of a flow runs on: FastFlow's thread mapping, for
 * {@link FlowOptions#withThreadMapping(ThreadMapping)}.
 *
 * <p>By default ({@link #none()}) the OS places node threads. On a machine with as many cores as
 * busy node threads that is sometimes poor: Linux may keep two of them on one core for a whole run
 * (measured on 2 vCPUs: a third to a half of the 1M-item runs of a two-stage pipeline, see
 * docs/benchmarks.md). Pinning each node thread to its own core, as FastFlow does by default, made
 * the generic path's two-stage pipeline 1.2-1.3 x (1M items) and 1.3-1.75 x (10M) FastFlow's speed
 * there, against 0.7-1.3 x unpinned. With more busy node threads than cores, pinning fixes which threads
 * share a core for the whole run: measure before keeping it.
 *
 * <p>Pinning needs Linux and JDK 22 or later, or JDK 17 (the JDK's foreign function API calls
 * {@code sched_setaffinity}; the library ships no native code). {@link #isSupported()} says whether
 * this JVM can pin, {@link #unsupportedReason()} why not; asking for a pinning mapping where it
 * cannot work fails at once, so no flow silently runs unpinned. On JDK 22 and later, enable native
 * access for BBFlow to avoid the JVM's one-time warning: {@code --enable-native-access=ALL-UNNAMED}
 * (class path) or {@code --enable-native-access=org.bbflow.core} (module path). On JDK 17 the API is
 * an incubating module, so two options are required:
 * {@code --add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED} (the JVM then prints
 * one line, "Using incubator modules"). JDK 18 to 21 cannot pin.
 *
 * <pre>{@code
 * FlowOptions options = ThreadMapping.isSupported()
 *         ? FlowOptions.defaults().withThreadMapping(ThreadMapping.roundRobin())
 *         : FlowOptions.defaults();
 * }</pre>
 *
 * <p>A node thread pins itself as it starts, before it runs any node code; if the kernel refuses
 * (a CPU left the process's allowed set since), that node fails and with it the flow, naming the CPU.
 * Only platform threads can be pinned: a {@link FlowOptions#withThreadFactory thread factory} that
 * makes virtual threads, with a mapping that pins, makes {@link Flow#start} throw an
 * {@link IllegalStateException} before any node thread starts.
 */
public final class ThreadMapping {
    private static final ThreadMapping NONE = new ThreadMapping(null);

    /** The CPUs nodes are pinned to, by node index modulo the length; null: not pinned. */
    private final int[] cpus;

    ThreadMapping(int[] cpus) { // package-private: tests make mappings the factories refuse
        this.cpus = cpus;
    }

    /**
     * No pinning: the OS places node threads (the default).
     *
     * @return the mapping that pins nothing
     */
    public static ThreadMapping none() {
        return NONE;
    }

    /**
     * Node {@code i} of a flow (in the flow's plan order: a pipeline's stages from its source on, a
     * farm's emitter, workers, collector) on the {@code i}-th CPU this process may run on, modulo
     * their number: FastFlow's default mapping. The allowed CPUs are read once, at the first call in
     * the JVM, from /proc/self/status (so {@code taskset} and a container's cpuset are respected).
     *
     * @return the mapping
     * @throws UnsupportedOperationException if this JVM cannot pin threads ({@link #unsupportedReason()})
     */
    public static ThreadMapping roundRobin() {
        requireSupported();
        return new ThreadMapping(CpuAffinity.ALLOWED.clone());
    }

    /**
     * Node {@code i} of a flow (in plan order, see {@link #roundRobin()}) on {@code cpus[i % cpus.length]}:
     * FastFlow's explicit mapping list.
     *
     * @param cpus the CPUs, by node; each one this process may run on; repeats allowed
     * @return the mapping
     * @throws UnsupportedOperationException if this JVM cannot pin threads
     * @throws IllegalArgumentException if {@code cpus} is empty or names a CPU the process may not run on
     */
    public static ThreadMapping onCpus(int... cpus) {
        requireSupported();
        if (cpus.length == 0) {
            throw new IllegalArgumentException("onCpus needs at least one CPU");
        }
        int[] copy = cpus.clone();
        for (int c : copy) {
            if (Arrays.binarySearch(CpuAffinity.ALLOWED, c) < 0) {
                throw new IllegalArgumentException("CPU " + c + " is not one this process may run on: "
                        + CpuAffinity.describe(CpuAffinity.ALLOWED));
            }
        }
        return new ThreadMapping(copy);
    }

    /**
     * Whether this JVM can pin threads (Linux; JDK 22 or later with native access not denied, or JDK 17
     * started with {@code --add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED}).
     *
     * @return true if {@link #roundRobin()} and {@link #onCpus(int...)} work here
     */
    public static boolean isSupported() {
        return CpuAffinity.UNSUPPORTED == null;
    }

    /**
     * Why this JVM cannot pin threads.
     *
     * @return the reason, or an empty string if it can
     */
    public static String unsupportedReason() {
        String r = CpuAffinity.UNSUPPORTED;
        return r == null ? "" : r;
    }

    private static void requireSupported() {
        if (!isSupported()) {
            throw new UnsupportedOperationException(CpuAffinity.UNSUPPORTED);
        }
    }

    /**
     * Whether t is a virtual thread (JDK 21 and later; the library is compiled for 17, so it asks by
     * reflection, once per flow that pins). A virtual thread cannot be pinned: the kernel call would
     * pin the carrier it runs on.
     */
    static boolean isVirtual(Thread t) {
        Method m = IS_VIRTUAL;
        if (m == null) {
            return false;
        }
        try {
            return (Boolean) m.invoke(t);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private static final Method IS_VIRTUAL = isVirtualMethod();

    private static Method isVirtualMethod() {
        try {
            return Thread.class.getMethod("isVirtual");
        } catch (NoSuchMethodException e) {
            return null; // before JDK 21 every thread is a platform thread
        }
    }

    /** Whether this mapping pins threads at all. */
    boolean pins() {
        return cpus != null;
    }

    /** The CPU of node {@code index}, or -1 if not pinned. */
    int cpuOf(int index) {
        return cpus == null ? -1 : cpus[index % cpus.length];
    }

    @Override
    public String toString() {
        return cpus == null ? "ThreadMapping[none]" : "ThreadMapping" + Arrays.toString(cpus);
    }
}
