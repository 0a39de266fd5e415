package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flow with more node threads than cores spins briefly before it yields and parks (the runner's
 * quick spins and the default backoff's spins); one that fits the cores keeps the full spins, and a
 * backoff the user made is kept as given. Throughput effects are measured in bbflow-bench and the
 * perf-kit, not here: this checks which settings each node gets.
 */
@Timeout(60)
class OversubscribedWaitTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** Starts a pipeline of {@code nodes} nodes whose source waits on a latch, checks it, then lets it end. */
    private static void checkPipeline(int nodes, FlowOptions options, int quickSpins, WaitStrategy expected) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<Block<?, ?>> stages = new ArrayList<>();
        stages.add(Nodes.<Long>source(out -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.send(1L);
        }));
        for (int i = 0; i < nodes - 2; i++) {
            stages.add(Nodes.map((Long x) -> x + 1));
        }
        long[] got = {0};
        stages.add(Nodes.sink((Long x) -> got[0] = x));
        Flow flow = Flow.start(Pipeline.of(stages.toArray(new Block<?, ?>[0])), options);
        try {
            assertEquals(nodes, flow.runners().size());
            for (NodeRunner r : flow.runners()) {
                assertEquals(quickSpins, r.quickSpins, r.path() + " of " + nodes + " nodes on " + CORES + " cores");
                assertSame(expected, r.strategy, r.path() + " of " + nodes + " nodes on " + CORES + " cores");
            }
        } finally {
            release.countDown();
            flow.join(Duration.ofSeconds(30));
        }
        assertEquals(nodes - 1, got[0]);
    }

    @Test
    void aFlowThatFitsTheCoresKeepsTheFullSpins() throws Exception {
        checkPipeline(Math.max(2, CORES), FlowOptions.defaults(), NodeRunner.QUICK_SPINS, WaitStrategy.backoff());
    }

    @Test
    void aFlowWithMoreNodesThanCoresSpinsBriefly() throws Exception {
        checkPipeline(CORES + 1, FlowOptions.defaults(), NodeRunner.QUICK_SPINS_OVERSUBSCRIBED,
                WaitStrategy.backoff().whenOversubscribed());
        assertEquals("backoff(spins=8, yields=16, park=1000..1000000ns)", WaitStrategy.backoff().whenOversubscribed().toString());
    }

    @Test
    void aStrategyTheUserChoseIsKeptWhenOversubscribed() throws Exception {
        WaitStrategy mine = WaitStrategy.backoff(64, 16, Duration.ofNanos(1_000), Duration.ofMillis(1));
        checkPipeline(CORES + 1, FlowOptions.defaults().withWaitStrategy(mine), NodeRunner.QUICK_SPINS_OVERSUBSCRIBED, mine);
        checkPipeline(CORES + 1, FlowOptions.defaults().withWaitStrategy(WaitStrategy.blocking()),
                NodeRunner.QUICK_SPINS_OVERSUBSCRIBED, WaitStrategy.blocking());
    }
}
