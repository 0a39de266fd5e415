package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Node threads from a factory of virtual threads with a busy-spin wait: more node threads than the
 * virtual-thread scheduler has carriers (one per core). A virtual thread is never preempted, so a
 * node that spins without yielding keeps its carrier, and the nodes that would end its wait never run.
 */
@Timeout(120)
class VirtualThreadSpinTest {

    private static ThreadFactory virtualThreads() throws Exception {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
    }

    @Test
    void aBusySpinningFlowOfVirtualThreadsWithMoreNodesThanCarriersEnds() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        int stages = Runtime.getRuntime().availableProcessors() + 2;
        List<Block<?, ?>> blocks = new ArrayList<>();
        long n = 20_000;
        blocks.add(Nodes.range(1, n));
        for (int i = 0; i < stages; i++) {
            blocks.add(Nodes.<Long>identity());
        }
        AtomicLong sum = new AtomicLong();
        blocks.add(Nodes.sink((Long x) -> sum.addAndGet(x)));
        FlowOptions options = FlowOptions.defaults().withThreadFactory(virtualThreads())
                .withWaitStrategy(WaitStrategy.busySpin()).withChannels(ChannelSpec.bounded(16));
        Runs.run(Pipeline.of(blocks.toArray(new Block<?, ?>[0])), options, Duration.ofSeconds(30));
        assertEquals(n * (n + 1) / 2, sum.get());
    }
}
