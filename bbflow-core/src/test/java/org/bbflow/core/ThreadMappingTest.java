package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pinning node threads (FastFlow's thread mapping): each node thread reads the CPUs the kernel lets
 * it run on from /proc/thread-self/status, so a mapping that pins nothing (or the wrong CPU) fails.
 */
@Timeout(60)
class ThreadMappingTest {

    /** The CPUs the calling thread may run on, as the kernel reports them. */
    private static int[] myCpus() {
        try {
            return CpuAffinity.allowedCpus(Paths.get("/proc/thread-self/status"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** source, map, sink; each records its thread's allowed CPUs under its block path. */
    private static Map<String, int[]> runRecording(FlowOptions options) {
        Map<String, int[]> seen = new ConcurrentHashMap<>();
        Source<Long> src = Nodes.source(out -> {
            seen.put("source", myCpus());
            for (long i = 0; i < 1000; i++) {
                out.send(i);
            }
        });
        Node<Long, Long> map = Nodes.map(x -> {
            seen.putIfAbsent("map", myCpus());
            return x;
        });
        Node<Long, Void> sink = Nodes.sink(x -> seen.putIfAbsent("sink", myCpus()));
        RunStats s = Pipeline.of(src, map, sink).run(options);
        assertEquals(1000, s.nodes().get(2).itemsIn());
        assertEquals(3, seen.size(), seen.keySet().toString());
        return seen;
    }

    @Test
    void roundRobinPinsNodeIToTheIthAllowedCpu() {
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        int[] allowed = CpuAffinity.ALLOWED;
        Map<String, int[]> seen = runRecording(FlowOptions.defaults().withThreadMapping(ThreadMapping.roundRobin()));
        assertArrayEquals(new int[] {allowed[0]}, seen.get("source"));
        assertArrayEquals(new int[] {allowed[1 % allowed.length]}, seen.get("map"));
        assertArrayEquals(new int[] {allowed[2 % allowed.length]}, seen.get("sink"));
    }

    @Test
    void onCpusPinsEveryNodeToItsListedCpuAlsoWithAThreadFactory() {
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        int last = CpuAffinity.ALLOWED[CpuAffinity.ALLOWED.length - 1];
        Map<String, int[]> seen = runRecording(FlowOptions.defaults()
                .withThreadFactory(r -> new Thread(r))
                .withThreadMapping(ThreadMapping.onCpus(last)));
        for (int[] cpus : seen.values()) {
            assertArrayEquals(new int[] {last}, cpus);
        }
    }

    /**
     * More node threads than CPUs, farms nested in farms (an ordered farm in a worker pipeline), and a
     * thread factory of the caller's: every node thread comes from the factory and is pinned to its
     * mapped CPU, and the result is whole.
     */
    @Test
    void nestedFarmsWithMoreNodesThanCpusAndAFactoryArePinnedAsMapped() {
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        int[] allowed = CpuAffinity.ALLOWED;
        ThreadGroup group = new ThreadGroup("mapped");
        for (ThreadMapping m : new ThreadMapping[] {ThreadMapping.roundRobin(), ThreadMapping.onCpus(allowed[0]),
                ThreadMapping.onCpus(allowed[allowed.length - 1], allowed[0])}) {
            Map<String, int[]> seen = new ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicLong sum = new java.util.concurrent.atomic.AtomicLong();
            Node<Long, Void> sink = Nodes.sink((Long x) -> sum.addAndGet(x));
            Block<?, ?> p = Pipeline.of(Nodes.range(1, 10_000), Farm.of(3, () -> Pipeline.of(Nodes.<Long>identity(),
                    Farm.of(2, () -> Nodes.<Long>identity()).ordered())).dispatch(Dispatch.onDemand()), sink);
            RunStats s = Runs.run(p, FlowOptions.defaults().withThreadMapping(m).withThreadFactory(r -> new Thread(group,
                    () -> {
                        seen.put(Thread.currentThread().getName(), new int[0]);
                        r.run();
                        seen.put(Thread.currentThread().getName(), myCpus()); // as pinned at its start
                    })));
            assertEquals(10_000L * 10_001 / 2, sum.get());
            assertEquals(s.nodes().size(), seen.size(), seen.keySet().toString());
            for (int i = 0; i < s.nodes().size(); i++) {
                assertArrayEquals(new int[] {m.cpuOf(i)}, seen.get(s.nodes().get(i).path()), s.nodes().get(i).path());
            }
        }
    }

    /**
     * A virtual thread cannot be pinned: sched_setaffinity would pin the carrier under it, a thread
     * of the JDK's scheduler pool, for the rest of its life. The pair is refused at start, before any
     * thread starts (it started and pinned carriers), and the same nodes run unpinned afterwards.
     */
    @Test
    void aFactoryOfVirtualThreadsWithAMappingThatPinsIsRefused() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        java.util.concurrent.ThreadFactory virtual = (java.util.concurrent.ThreadFactory)
                Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
        Node<Long, Long> stage = Nodes.identity();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 10), stage, Nodes.sink(x -> { })), FlowOptions.defaults().withThreadFactory(virtual)
                .withThreadMapping(ThreadMapping.roundRobin())));
        assertTrue(e.getMessage().contains("virtual thread"), e.getMessage());
        RunStats s = Pipeline.of(Nodes.range(1, 10), stage, Nodes.sink(x -> { })).run(FlowOptions.defaults()
                .withThreadFactory(virtual));
        assertEquals(10, s.nodes().get(2).itemsIn());
    }

    @Test
    void noneLeavesPlacementToTheOs() {
        // the default and none() pin nothing: every node may run on every CPU the test thread may
        int[] mine = myCpus();
        for (FlowOptions o : new FlowOptions[] {FlowOptions.defaults(),
                FlowOptions.defaults().withThreadMapping(ThreadMapping.none())}) {
            for (int[] cpus : runRecording(o).values()) {
                assertArrayEquals(mine, cpus);
            }
        }
    }

    @Test
    void aCpuTheProcessMayNotUseFailsTheFlowNamingIt() {
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        FlowOptions o = FlowOptions.defaults().withThreadMapping(new ThreadMapping(new int[] {1 << 20}));
        FlowException e = assertThrows(FlowException.class,
                () -> Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })).run(o));
        assertTrue(String.valueOf(e.getCause()).contains("CPU " + (1 << 20)), String.valueOf(e.getCause()));
    }

    @Test
    void onCpusRefusesCpusTheProcessMayNotUse() {
        assumeTrue(ThreadMapping.isSupported(), ThreadMapping.unsupportedReason());
        assertThrows(IllegalArgumentException.class, () -> ThreadMapping.onCpus());
        assertThrows(IllegalArgumentException.class, () -> ThreadMapping.onCpus(-1));
        int beyond = CpuAffinity.ALLOWED[CpuAffinity.ALLOWED.length - 1] + 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ThreadMapping.onCpus(beyond));
        assertTrue(e.getMessage().contains("CPU " + beyond), e.getMessage());
    }

    @Test
    void whereItCannotPinItSaysWhyAndRefuses() {
        assumeTrue(!ThreadMapping.isSupported(), "this JVM can pin");
        String reason = ThreadMapping.unsupportedReason();
        assertFalse(reason.isEmpty());
        int feature = Runtime.version().feature();
        if (feature == 17) {
            assertTrue(reason.contains(CpuAffinity.JDK17_FLAGS), reason);
        } else if (feature < 22) {
            assertTrue(reason.contains("JDK 22"), reason);
        }
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, ThreadMapping::roundRobin);
        assertEquals(reason, e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> ThreadMapping.onCpus(0));
    }

    @Test
    void linuxJdk22AndLaterAndJdk17WithTheIncubatorModuleCanPin() {
        // guards both reflective paths: the build runs JDK 17's tests with the incubator module
        // (profile native-access-17), so on the JVMs CI runs (Linux, JDK 17 and 25) both pin
        assumeTrue(System.getProperty("os.name").startsWith("Linux"));
        int feature = Runtime.version().feature();
        boolean incubator = ModuleLayer.boot().findModule("jdk.incubator.foreign").isPresent();
        assertEquals(feature >= 22 || feature == 17 && incubator, ThreadMapping.isSupported(),
                ThreadMapping.unsupportedReason());
    }

    @Test
    void aJdk17WithoutTheFlagsNamesThem() throws Exception {
        // a child JVM without --add-modules: the incubating API is absent, and the reason says what to add
        assumeTrue(Runtime.version().feature() == 17 && System.getProperty("os.name").startsWith("Linux"));
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                ThreadMappingPeer.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("supported=false "), out);
        assertTrue(out.contains(CpuAffinity.JDK17_FLAGS), out);
    }

    @Test
    void parsesTheKernelsCpuLists() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, CpuAffinity.parseCpuList("0-3,8,10-11"));
        assertArrayEquals(new int[] {5}, CpuAffinity.parseCpuList("5"));
        assertArrayEquals(new int[0], CpuAffinity.parseCpuList(""));
        assertArrayEquals(new int[] {0, 1}, CpuAffinity.parseCpuList("1,0,1"));
        assertThrows(IllegalArgumentException.class, () -> CpuAffinity.parseCpuList("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuAffinity.parseCpuList("a"));
        assertThrows(IllegalArgumentException.class, () -> CpuAffinity.parseCpuList("0,,1"));
    }
}
