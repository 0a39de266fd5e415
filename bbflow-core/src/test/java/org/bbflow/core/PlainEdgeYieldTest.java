package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which nodes yield before they wait on a plain one-to-one edge ({@link WaitStrategy#yieldsFirstOnPlainEdges()}):
 * backoff strategies that yield at all, on the plain edges only; busy-spin never gives its core away,
 * blocking parks at once, and a farm's edges keep the usual wait. Throughput is measured in the
 * perf-kit (docs/benchmarks.md), not here.
 */
@Timeout(60)
class PlainEdgeYieldTest {

    private static FlowPlan plan(Block<?, ?> block, WaitStrategy s) {
        return PlanCompiler.compile(block, FlowOptions.defaults().withWaitStrategy(s));
    }

    private static Block<?, ?> pipeline() {
        return Pipeline.of(Nodes.range(1, 3), Nodes.map((Long x) -> x), Nodes.sink(x -> { })).named("p");
    }

    @Test
    void backoffStrategiesThatYieldDoSoFirstOnPlainEdges() {
        WaitStrategy custom = WaitStrategy.backoff(8, 4, Duration.ofNanos(1_000), Duration.ofMillis(1));
        for (WaitStrategy s : new WaitStrategy[] {WaitStrategy.backoff(), custom}) {
            for (NodePlan n : plan(pipeline(), s).nodes) {
                assertEquals(n.quickSpins, n.plainEdgeYields, n + " under " + s);
                assertTrue(n.plainEdgeYields > 0, n + " under " + s);
            }
        }
    }

    @Test
    void busySpinBlockingAndBackoffWithoutYieldsNeverYieldFirst() {
        WaitStrategy noYields = WaitStrategy.backoff(64, 0, Duration.ofNanos(1_000), Duration.ofMillis(1));
        for (WaitStrategy s : new WaitStrategy[] {WaitStrategy.busySpin(), WaitStrategy.blocking(), noYields,
                WaitStrategy.of(org.agrona.concurrent.YieldingIdleStrategy::new)}) {
            for (NodePlan n : plan(pipeline(), s).nodes) {
                assertEquals(0, n.plainEdgeYields, n + " under " + s);
            }
        }
    }

    @Test
    void onlyTheRunnersOfPlainEdgesYield() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Source<Long> held = Nodes.source(out -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.send(1L);
        });
        Block<?, ?> block = Pipeline.of(held, Nodes.map((Long x) -> x), Farm.of(2, () -> Nodes.map((Long x) -> x)),
                Nodes.sink(x -> { })).named("p");
        Flow flow = Flow.start(block, FlowOptions.defaults());
        try {
            int seen = 0;
            for (NodeRunner r : flow.runners()) {
                String path = r.path();
                if (path.contains("worker")) { // fed by the emitter's dispatch: not a plain edge
                    assertEquals(0, r.plainInputYields, path);
                    seen++;
                } else if (path.endsWith("map[1]") || path.endsWith("emitter") || path.endsWith("sink[3]")) {
                    assertTrue(r.plainInputYields > 0, path);
                    assertEquals(r.quickSpins, r.plainInputYields, path);
                    seen++;
                }
            }
            assertEquals(5, seen, flow.runners().toString());
        } finally {
            release.countDown();
            flow.join(Duration.ofSeconds(30));
        }
    }
}
