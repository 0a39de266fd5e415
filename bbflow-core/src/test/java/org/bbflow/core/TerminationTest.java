package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.bbflow.testing.TestTier;

/** Every flow with finite input ends, under every wait strategy, even with far more nodes than cores. */
@Timeout(300)
class TerminationTest {

    static Stream<Arguments> strategies() {
        return Stream.of(
                Arguments.of("backoff", WaitStrategy.backoff()),
                Arguments.of("blocking", WaitStrategy.blocking()),
                Arguments.of("busy-spin", WaitStrategy.busySpin()),
                Arguments.of("agrona-sleeping", WaitStrategy.of(() -> new org.agrona.concurrent.SleepingIdleStrategy(100_000))));
    }

    private static FlowOptions opts(WaitStrategy ws) {
        return FlowOptions.defaults().withWaitStrategy(ws).withChannels(ChannelSpec.bounded(8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void emptyAndSingleItemInputs(String name, WaitStrategy ws) {
        for (long n : new long[] {0, 1}) {
            AtomicLong seen = new AtomicLong();
            Runs.run(Pipeline.of(Nodes.range(1, n), Farm.of(3, Nodes::<Long>identity).ordered(),
                    Farm.of(2, Nodes::<Long>identity).dispatch(Dispatch.onDemand()),
                    AllToAll.of(2, Nodes::<Long>identity, 2, Nodes::<Long>identity),
                    Nodes.sink(x -> seen.incrementAndGet())), opts(ws));
            assertEquals(n, seen.get());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void sixtyFourNodesOnTwoCores(String name, WaitStrategy ws) {
        // a 30-stage pipeline, then a farm of 30 workers: 64 nodes with source, emitter, collector and sink
        // busy-spin gives the cores to whichever of the 64 spinning threads the OS picks: it ends,
        // but slowly (about 30 ms per item here), so it gets fewer items
        long items = ws == WaitStrategy.busySpin() ? 200 : 2_000;
        List<Block<?, ?>> stages = new ArrayList<>();
        stages.add(Nodes.range(1, items));
        for (int i = 0; i < 30; i++) {
            stages.add(Nodes.map((Long x) -> x + 1));
        }
        stages.add(Farm.of(30, () -> Nodes.map((Long x) -> x * 2)));
        AtomicLong sum = new AtomicLong();
        stages.add(Nodes.sink((Long x) -> sum.addAndGet(x)));
        RunStats s = Runs.run(Pipeline.of(stages.toArray(new Block<?, ?>[0])), opts(ws), Duration.ofMinutes(4));
        assertEquals(64, s.nodes().size());
        long expected = 0;
        for (long i = 1; i <= items; i++) {
            expected += (i + 30) * 2;
        }
        assertEquals(expected, sum.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void feedbackLoopsEnd(String name, WaitStrategy ws) {
        // busy-spin: 5 repetitions in the default tier (2 s), 20 in the long one
        int reps = ws == WaitStrategy.busySpin() ? TestTier.pick(5, 20) : 20;
        for (int rep = 0; rep < reps; rep++) {
            AtomicLong out = new AtomicLong();
            // each item loops (x mod 5) times through the workers before leaving forward
            Farm<Long, Long> farm = Farm.<Long, Long>of(4, () -> Nodes.<Long, Long>flatMap((x, o) -> {
                if (x % 5 != 0) {
                    o.send(x - 1);
                } else {
                    o.sendTo(1, x);
                }
            })).feedback();
            Runs.run(Pipeline.of(Nodes.range(1, 200), farm, Nodes.sink(x -> out.incrementAndGet())), opts(ws));
            assertEquals(200, out.get());
        }
    }
}
