package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;

/** MapNode as a pipeline stage and as farm workers, against the sequential map. */
class MapNodeTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static List<long[]> arrays(Random r, int count) {
        List<long[]> l = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            l.add(r.longs(r.nextInt(5000)).toArray());
        }
        return l;
    }

    private static long[] squared(long[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * a[i] + i;
        }
        return out;
    }

    @Test
    void asAPipelineStageItMapsEachArrayInParallel() {
        Random r = Oracle.random("mapStage");
        List<long[]> in = arrays(r, 40);
        List<long[]> out = Collections.synchronizedList(new ArrayList<>());
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (Watchdog w = Watchdog.start(DEADLINE, "map stage")) {
            Pipeline.of(Nodes.fromIterable(in),
                    MapNode.of(3, (long[] a, ParallelFor pf) -> {
                        long[] b = new long[a.length];
                        pf.parallelForInt(0, a.length, 1, Schedule.dynamic(64), i -> {
                            b[i] = a[i] * a[i] + i;
                            threads.add(Thread.currentThread().getName());
                        });
                        return b;
                    }),
                    Nodes.sink((long[] a) -> out.add(a))).named("maps").run();
        }
        assertEquals(in.size(), out.size());
        for (int k = 0; k < in.size(); k++) {
            assertArrayEquals(squared(in.get(k)), out.get(k), "array " + k);
        }
        assertTrue(threads.stream().allMatch(t -> t.startsWith("maps/")), "the node's thread and its pool's: " + threads);
        assertTrue(ParallelForTest.liveThreads("maps/").isEmpty(), "no thread left: " + ParallelForTest.liveThreads("maps/"));
    }

    @Test
    void asFarmWorkersEachHasItsOwnPool() {
        Random r = Oracle.random("mapWorkers");
        List<long[]> in = arrays(r, 60);
        List<long[]> out = Collections.synchronizedList(new ArrayList<>());
        Set<String> poolThreads = ConcurrentHashMap.newKeySet();
        try (Watchdog w = Watchdog.start(DEADLINE, "map workers")) {
            Pipeline.of(Nodes.fromIterable(in),
                    Farm.of(2, () -> MapNode.of(2, (long[] a, ParallelFor pf) -> {
                        long[] b = new long[a.length];
                        pf.parallelForInt(0, a.length, 1, Schedule.staticBlocks(), i -> b[i] = a[i] * a[i] + i);
                        for (String t : ParallelForTest.liveThreads("mapfarm/")) {
                            if (t.contains("/map/")) {
                                poolThreads.add(t); // each worker's pool threads, alive while it maps
                            }
                        }
                        return b;
                    })).ordered(),
                    Nodes.sink((long[] a) -> out.add(a))).named("mapfarm").run();
        }
        for (int k = 0; k < in.size(); k++) {
            assertArrayEquals(squared(in.get(k)), out.get(k), "array " + k + " in order");
        }
        assertEquals(Set.of("mapfarm/farm[1]/worker-0/map/worker-1", "mapfarm/farm[1]/worker-1/map/worker-1"), poolThreads);
        assertTrue(ParallelForTest.liveThreads("mapfarm/").isEmpty());
    }

    @Test
    void aFailingLoopFailsTheFlowAndTheNodesPoolEnds() {
        Flow flow = Flow.start(Pipeline.of(Nodes.fromIterable(List.of(1, 2, 3)),
                MapNode.of(2, (Integer x, ParallelFor pf) -> {
                    pf.parallelFor(0, 100, i -> {
                        if (x == 2 && i == 57) {
                            throw new IllegalArgumentException("bad element");
                        }
                    });
                    return x;
                }), Nodes.sink(x -> { })).named("mapfail"));
        FlowException e = assertThrows(FlowException.class, flow::join);
        assertTrue(e.getCause() instanceof ParallelForException, e.toString());
        assertEquals(57, ((ParallelForException) e.getCause()).index());
        assertTrue(ParallelForTest.liveThreads("mapfail/").isEmpty());
    }

    @Test
    void cancellingTheFlowCancelsTheLoopAndTheNodesPoolEnds() throws Exception {
        CountDownLatch looping = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.fromIterable(List.of(1)),
                MapNode.of(2, (Integer x, ParallelFor pf) -> {
                    pf.parallelFor(0, Long.MAX_VALUE, 1, Schedule.dynamic(1000), i -> looping.countDown());
                    return x;
                }), Nodes.sink(x -> { })).named("mapcancel"));
        looping.await();
        flow.cancel();
        assertThrows(FlowException.class, flow::join);
        assertTrue(ParallelForTest.liveThreads("mapcancel/").isEmpty());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> MapNode.of(0, (Integer x, ParallelFor pf) -> x));
        assertThrows(NullPointerException.class, () -> MapNode.of(2, null));
        FlowException e = assertThrows(FlowException.class, () -> Pipeline.of(Nodes.fromIterable(List.of(1)),
                MapNode.of(2, (Integer x, ParallelFor pf) -> null), Nodes.sink(x -> { })).run());
        assertTrue(e.getMessage().contains("returned null"), e.getMessage());
    }
}
