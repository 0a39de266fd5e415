package org.bbflow.core;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
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
 * through the JDK's foreign function API: {@code java.lang.foreign} (final in JDK 22), or on JDK 17
 * its incubating form {@code jdk.incubator.foreign}.
 *
 * <p>The library is compiled for Java 17 and ships no native code, so the API is reached by
 * reflection, once, when pinning is first asked for: a JVM of 18 to 21 (whose forms of the API are
 * incubating or preview ones that changed each release), another OS, a JDK 17 without the incubator
 * module, or a JVM that denies native access makes {@link #UNSUPPORTED} say why, and nothing here is
 * loaded on a flow that does not pin. On JDK 22 and later the JVM prints a warning the first time a
 * library calls a restricted method unless native access is enabled for it
 * ({@code --enable-native-access=ALL-UNNAMED} on the class path, {@code =org.bbflow.core} on the module
 * path); on JDK 17 the same option is required, with {@code --add-modules jdk.incubator.foreign}
 * (docs/core.md says so). Decision: JDK 17 is the oldest JDK the library runs on and an LTS, and the
 * incubating API of 17 is fixed, so it is worth its dozen reflective lines; 18-21 are not.
 *
 * <p>Per pinned thread the cost is one downcall at the thread's start; each CPU's mask is built
 * once, in memory that lives as long as the JVM (a few hundred bytes), and only read by the kernel.
 */
final class CpuAffinity {
    /** Why pinning cannot work in this JVM, or null when it can. */
    static final String UNSUPPORTED;
    /** The CPUs this process may run on ({@code Cpus_allowed_list} of /proc/self/status), ascending. */
    static final int[] ALLOWED;
    /** The flags a JDK 17 needs to pin (named in {@link #UNSUPPORTED} when they are missing). */
    static final String JDK17_FLAGS = "--add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED";

    /** sched_setaffinity and its masks, linked through this JDK's form of the API; null when unsupported. */
    private static final Linked NATIVE;
    /** Bytes of every mask: glibc's cpu_set_t (1,024 CPUs) or more, for a machine with more. */
    private static final int MASK_BYTES;
    /** One mask per CPU, made on first use; guarded by the class (see {@link #mask}). */
    private static final Object[] MASKS;

    static {
        int[] allowed = new int[0];
        String unsupported = null;
        Linked linked = null;
        String os = System.getProperty("os.name", "?");
        int feature = Runtime.version().feature();
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            unsupported = "pinning threads needs Linux (sched_setaffinity); this JVM runs on " + os;
        } else if (feature > 17 && feature < 22) {
            unsupported = "pinning threads needs JDK 22 or later, or JDK 17 (the foreign function API); this JVM is "
                    + Runtime.version();
        } else if (!"64".equals(System.getProperty("sun.arch.data.model", "64"))) {
            unsupported = "pinning threads needs a 64-bit JVM (size_t as a long)";
        } else {
            try {
                allowed = allowedCpus(Paths.get("/proc/self/status"));
                linked = feature >= 22 ? linkForeign() : linkIncubatorForeign();
            } catch (InvocationTargetException e) {
                // e.g. IllegalCallerException: native access denied (--illegal-native-access=deny)
                unsupported = "pinning threads is not possible in this JVM: " + e.getCause() + jdk17Hint(feature);
            } catch (ReflectiveOperationException | RuntimeException | IOException | LinkageError e) {
                unsupported = "pinning threads is not possible in this JVM: " + e + jdk17Hint(feature);
            }
        }
        if (unsupported == null && allowed.length == 0) {
            unsupported = "pinning threads is not possible: /proc/self/status lists no allowed CPU";
        }
        int maxCpu = allowed.length == 0 ? 0 : allowed[allowed.length - 1];
        UNSUPPORTED = unsupported;
        ALLOWED = allowed;
        NATIVE = unsupported == null ? linked : null;
        MASK_BYTES = Math.max(128, ((maxCpu >>> 6) + 1) * 8);
        MASKS = new Object[maxCpu + 1];
    }

    /**
     * The method handles the pin path calls, the same for both forms of the API.
     *
     * @param setAffinity {@code (int pid, long size, Object mask) -> int}: sched_setaffinity, the mask as
     *        {@code maskArgument} gives it
     * @param allocate {@code (long bytes) -> Object}: zeroed native memory that lives as long as the JVM
     *        (a MemorySegment)
     * @param asByteBuffer {@code (Object segment) -> ByteBuffer}: the segment's bytes
     * @param maskArgument {@code (Object segment) -> Object}: what the downcall takes for a pointer (the
     *        segment, or on JDK 17 its address)
     */
    private record Linked(MethodHandle setAffinity, MethodHandle allocate, MethodHandle asByteBuffer,
            MethodHandle maskArgument) {
    }

    private static String jdk17Hint(int feature) {
        return feature == 17 ? " (JDK 17 pins with " + JDK17_FLAGS + ")" : "";
    }

    /** JDK 22+: {@code java.lang.foreign}. */
    private static Linked linkForeign() throws ReflectiveOperationException {
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
        Object symbol = found(lookupClass.getMethod("find", String.class).invoke(libc, "sched_setaffinity"));
        Object descriptor = descriptor(descriptorClass, layoutClass,
                valueLayoutClass.getField("JAVA_INT").get(null), valueLayoutClass.getField("JAVA_LONG").get(null),
                valueLayoutClass.getField("ADDRESS").get(null));
        Object noOptions = Array.newInstance(optionClass, 0);
        MethodHandle downcall = (MethodHandle) linkerClass
                .getMethod("downcallHandle", segmentClass, descriptorClass, noOptions.getClass())
                .invoke(linker, symbol, descriptor, noOptions);
        Object arena = arenaClass.getMethod("global").invoke(null);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        return new Linked(
                downcall.asType(MethodType.methodType(int.class, int.class, long.class, Object.class)),
                lookup.unreflect(arenaClass.getMethod("allocate", long.class)).bindTo(arena)
                        .asType(MethodType.methodType(Object.class, long.class)),
                lookup.unreflect(segmentClass.getMethod("asByteBuffer"))
                        .asType(MethodType.methodType(ByteBuffer.class, Object.class)),
                MethodHandles.identity(Object.class));
    }

    /** JDK 17: {@code jdk.incubator.foreign} (resolved only with --add-modules); as {@link #linkForeign}. */
    private static Linked linkIncubatorForeign() throws ReflectiveOperationException {
        String p = "jdk.incubator.foreign.";
        Class<?> linkerClass = Class.forName(p + "CLinker");
        Class<?> lookupClass = Class.forName(p + "SymbolLookup");
        Class<?> layoutClass = Class.forName(p + "MemoryLayout");
        Class<?> descriptorClass = Class.forName(p + "FunctionDescriptor");
        Class<?> segmentClass = Class.forName(p + "MemorySegment");
        Class<?> addressClass = Class.forName(p + "MemoryAddress");
        Class<?> addressableClass = Class.forName(p + "Addressable");
        Class<?> scopeClass = Class.forName(p + "ResourceScope");
        Object linker = linkerClass.getMethod("getInstance").invoke(null);
        Object libc = linkerClass.getMethod("systemLookup").invoke(null);
        Object symbol = found(lookupClass.getMethod("lookup", String.class).invoke(libc, "sched_setaffinity"));
        Object descriptor = descriptor(descriptorClass, layoutClass, linkerClass.getField("C_INT").get(null),
                linkerClass.getField("C_LONG").get(null), linkerClass.getField("C_POINTER").get(null));
        MethodHandle downcall = (MethodHandle) linkerClass
                .getMethod("downcallHandle", addressableClass, MethodType.class, descriptorClass)
                .invoke(linker, symbol, MethodType.methodType(int.class, int.class, long.class, addressClass), descriptor);
        Object global = scopeClass.getMethod("globalScope").invoke(null);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle allocate = lookup.unreflect(segmentClass.getMethod("allocateNative", long.class, scopeClass));
        return new Linked(
                downcall.asType(MethodType.methodType(int.class, int.class, long.class, Object.class)),
                MethodHandles.insertArguments(allocate, 1, global).asType(MethodType.methodType(Object.class, long.class)),
                lookup.unreflect(segmentClass.getMethod("asByteBuffer"))
                        .asType(MethodType.methodType(ByteBuffer.class, Object.class)),
                lookup.unreflect(segmentClass.getMethod("address")).asType(MethodType.methodType(Object.class, Object.class)));
    }

    private static Object found(Object optionalSymbol) {
        Optional<?> symbol = (Optional<?>) optionalSymbol;
        if (symbol.isEmpty()) {
            throw new IllegalStateException("the C library has no sched_setaffinity");
        }
        return symbol.get();
    }

    /** {@code FunctionDescriptor.of(int, int, long, pointer)} from the three layouts given. */
    private static Object descriptor(Class<?> descriptorClass, Class<?> layoutClass, Object cInt, Object cLong,
            Object cPointer) throws ReflectiveOperationException {
        Object args = Array.newInstance(layoutClass, 3);
        Array.set(args, 0, cInt);
        Array.set(args, 1, cLong);
        Array.set(args, 2, cPointer);
        return descriptorClass.getMethod("of", layoutClass, args.getClass()).invoke(null, cInt, args);
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
            rc = (int) NATIVE.setAffinity().invokeExact(0, (long) MASK_BYTES, mask(cpu));
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity to CPU " + cpu + " failed: " + t, t);
        }
        if (rc != 0) {
            throw new IllegalStateException("sched_setaffinity to CPU " + cpu + " returned " + rc
                    + " (the CPU may have left this process's allowed set: " + describe(ALLOWED) + ")");
        }
    }

    /** Synchronized: node threads start at once, and a mask must be published whole (once per CPU). */
    private static synchronized Object mask(int cpu) throws Throwable {
        Object m = MASKS[cpu];
        if (m == null) {
            Object segment = (Object) NATIVE.allocate().invokeExact((long) MASK_BYTES); // zeroed
            ByteBuffer b = (ByteBuffer) NATIVE.asByteBuffer().invokeExact(segment);
            b.put(cpu >>> 3, (byte) (1 << (cpu & 7))); // cpu_set_t: bit cpu % 8 of byte cpu / 8
            m = (Object) NATIVE.maskArgument().invokeExact(segment);
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
