package org.bbflow.core;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Pins the calling thread to one CPU: Linux's {@code sched_setaffinity(0, size, mask)}, called
 * through the JDK's foreign function API (final in JDK 22).
 *
 * <p>The library is compiled for Java 17 and ships no native code, so the API is reached by
 * reflection, once, when pinning is first asked for: a JVM older than 22, another OS or a JVM that
 * denies native access makes {@link #UNSUPPORTED} say why, and nothing here is loaded on a flow
 * that does not pin. On JDK 22 and later the JVM prints a warning the first time a library calls a
 * restricted method unless native access is enabled for it ({@code --enable-native-access=ALL-UNNAMED}
 * on the class path, {@code =org.bbflow.core} on the module path); docs/core.md says so.
 *
 * <p>Per pinned thread the cost is one downcall at the thread's start; each CPU's mask is built
 * once, in memory that lives as long as the JVM (a few hundred bytes), and only read by the kernel.
 */
final class CpuAffinity {
    /** Why pinning cannot work in this JVM, or null when it can. */
    static final String UNSUPPORTED;
    /** The CPUs this process may run on ({@code Cpus_allowed_list} of /proc/self/status), ascending. */
    static final int[] ALLOWED;

    /** {@code (int pid, long size, Object mask) -> int}: sched_setaffinity, the mask a MemorySegment. */
    private static final MethodHandle SET_AFFINITY;
    private static final Method ALLOCATE;
    private static final Method AS_BYTE_BUFFER;
    private static final Object ARENA;
    /** Bytes of every mask: glibc's cpu_set_t (1,024 CPUs) or more, for a machine with more. */
    private static final int MASK_BYTES;
    /** One mask per CPU, made on first use; guarded by the class (see {@link #mask}). */
    private static final Object[] MASKS;

    static {
        int[] allowed = new int[0];
        String unsupported = null;
        MethodHandle set = null;
        Method allocate = null;
        Method asByteBuffer = null;
        Object arena = null;
        String os = System.getProperty("os.name", "?");
        int feature = Runtime.version().feature();
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            unsupported = "pinning threads needs Linux (sched_setaffinity); this JVM runs on " + os;
        } else if (feature < 22) {
            unsupported = "pinning threads needs JDK 22 or later (the foreign function API); this JVM is "
                    + Runtime.version();
        } else if (!"64".equals(System.getProperty("sun.arch.data.model", "64"))) {
            unsupported = "pinning threads needs a 64-bit JVM (size_t as a long)";
        } else {
            try {
                allowed = allowedCpus(Paths.get("/proc/self/status"));
                Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
                Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
                Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
                Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
                Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
                Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
                Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
                Class<?> arenaClass = Class.forName("java.lang.foreign.Arena");
                Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
                Object libc = linkerClass.getMethod("defaultLookup").invoke(linker);
                Optional<?> symbol = (Optional<?>) lookupClass.getMethod("find", String.class)
                        .invoke(libc, "sched_setaffinity");
                if (symbol.isEmpty()) {
                    throw new IllegalStateException("the C library has no sched_setaffinity");
                }
                Object args = Array.newInstance(layoutClass, 3);
                Array.set(args, 0, valueLayoutClass.getField("JAVA_INT").get(null));
                Array.set(args, 1, valueLayoutClass.getField("JAVA_LONG").get(null));
                Array.set(args, 2, valueLayoutClass.getField("ADDRESS").get(null));
                Object descriptor = descriptorClass.getMethod("of", layoutClass, args.getClass())
                        .invoke(null, valueLayoutClass.getField("JAVA_INT").get(null), args);
                MethodHandle downcall = (MethodHandle) linkerClass
                        .getMethod("downcallHandle", segmentClass, descriptorClass, Array.newInstance(optionClass, 0).getClass())
                        .invoke(linker, symbol.get(), descriptor, Array.newInstance(optionClass, 0));
                set = downcall.asType(MethodType.methodType(int.class, int.class, long.class, Object.class));
                arena = arenaClass.getMethod("global").invoke(null);
                allocate = arenaClass.getMethod("allocate", long.class);
                asByteBuffer = segmentClass.getMethod("asByteBuffer");
            } catch (InvocationTargetException e) {
                // e.g. IllegalCallerException: native access denied (--illegal-native-access=deny)
                unsupported = "pinning threads is not possible in this JVM: " + e.getCause();
            } catch (ReflectiveOperationException | RuntimeException | IOException | LinkageError e) {
                unsupported = "pinning threads is not possible in this JVM: " + e;
            }
        }
        if (unsupported == null && allowed.length == 0) {
            unsupported = "pinning threads is not possible: /proc/self/status lists no allowed CPU";
        }
        int maxCpu = allowed.length == 0 ? 0 : allowed[allowed.length - 1];
        UNSUPPORTED = unsupported;
        ALLOWED = allowed;
        SET_AFFINITY = set;
        ALLOCATE = allocate;
        AS_BYTE_BUFFER = asByteBuffer;
        ARENA = arena;
        MASK_BYTES = Math.max(128, ((maxCpu >>> 6) + 1) * 8);
        MASKS = new Object[maxCpu + 1];
    }

    private CpuAffinity() {
    }

    /**
     * Pins the calling thread to {@code cpu}.
     *
     * @param cpu one of {@link #ALLOWED}
     * @throws IllegalStateException if pinning is unsupported or the kernel refused the CPU
     */
    static void pinCurrentThread(int cpu) {
        if (UNSUPPORTED != null) {
            throw new IllegalStateException(UNSUPPORTED);
        }
        if (cpu < 0 || cpu >= MASKS.length) {
            throw new IllegalStateException("CPU " + cpu + " is not one this process may run on: " + describe(ALLOWED));
        }
        int rc;
        try {
            rc = (int) SET_AFFINITY.invokeExact(0, (long) MASK_BYTES, mask(cpu));
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity to CPU " + cpu + " failed: " + t, t);
        }
        if (rc != 0) {
            throw new IllegalStateException("sched_setaffinity to CPU " + cpu + " returned " + rc
                    + " (the CPU may have left this process's allowed set: " + describe(ALLOWED) + ")");
        }
    }

    /** Synchronized: node threads start at once, and a mask must be published whole (once per CPU). */
    private static synchronized Object mask(int cpu) throws ReflectiveOperationException {
        Object m = MASKS[cpu];
        if (m == null) {
            m = ALLOCATE.invoke(ARENA, (long) MASK_BYTES); // zeroed
            ByteBuffer b = (ByteBuffer) AS_BYTE_BUFFER.invoke(m);
            b.put(cpu >>> 3, (byte) (1 << (cpu & 7))); // cpu_set_t: bit cpu % 8 of byte cpu / 8
            MASKS[cpu] = m;
        }
        return m;
    }

    /**
     * The CPUs a {@code Cpus_allowed_list} line of a /proc status file lists ("0-3,8,10-11").
     *
     * @param status the status file
     * @return the CPUs, ascending
     * @throws IOException if the file cannot be read or has no such line
     */
    static int[] allowedCpus(Path status) throws IOException {
        List<String> lines = Files.readAllLines(status, StandardCharsets.US_ASCII);
        for (String line : lines) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return parseCpuList(line.substring("Cpus_allowed_list:".length()).trim());
            }
        }
        throw new IOException(status + " has no Cpus_allowed_list line");
    }

    /**
     * Parses the kernel's CPU list format: ranges and single CPUs separated by commas.
     *
     * @param list e.g. "0-3,8"
     * @return the CPUs, ascending, without repeats
     * @throws IllegalArgumentException if the list is malformed
     */
    static int[] parseCpuList(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        if (!list.isEmpty()) {
            for (String part : list.split(",", -1)) {
                int dash = part.indexOf('-');
                try {
                    int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                    int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                    if (from < 0 || to < from || to - from > 1 << 16) {
                        throw new IllegalArgumentException("bad CPU range '" + part + "' in '" + list + "'");
                    }
                    for (int c = from; c <= to; c++) {
                        cpus.add(c);
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad CPU list '" + list + "'", e);
                }
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }

    static String describe(int[] cpus) {
        return "CPUs " + Arrays.toString(cpus);
    }
}
