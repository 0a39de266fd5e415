package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Node threads from a factory of virtual threads with a busy-spin wait: a virtual thread is never
 * preempted, so nodes that spin keep their carriers (one per core), and with more of them than
 * carriers the nodes that would end their waits never run (a 6-node pipeline on 2 cores delivered
 * nothing in 30 s). The start refuses it; the same flow on virtual threads with the default backoff
 * (which yields and parks) runs.
 */
@Timeout(120)
class VirtualThreadSpinTest {

    private static ThreadFactory virtualThreads() throws Exception {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
    }

    private static Pipeline<?, ?> pipeline(long n, AtomicLong sum) {
        int stages = Runtime.getRuntime().availableProcessors() + 2;
        List<Block<?, ?>> blocks = new ArrayList<>();
        blocks.add(Nodes.range(1, n));
        for (int i = 0; i < stages; i++) {
            blocks.add(Nodes.<Long>identity());
        }
        blocks.add(Nodes.sink((Long x) -> sum.addAndGet(x)));
        return Pipeline.of(blocks.toArray(new Block<?, ?>[0]));
    }

    @Test
    void aBusySpinningFlowOnVirtualThreadsIsRefusedAtStart() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        FlowOptions options = FlowOptions.defaults().withThreadFactory(virtualThreads())
                .withWaitStrategy(WaitStrategy.busySpin()).withChannels(ChannelSpec.bounded(16));
        Flow started;
        try {
            started = Flow.start(pipeline(20_000, new AtomicLong()), options);
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().contains("virtual thread") && e.getMessage().contains("busy-spin"), e.getMessage());
            return;
        }
        started.cancel(); // not refused: stop its spinners (they see the cancellation) before failing
        fail("a busy-spinning flow on virtual threads was started; it can keep every carrier thread and hang");
    }

    @Test
    void theSameFlowOnVirtualThreadsWithTheDefaultBackoffRuns() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21");
        long n = 20_000;
        AtomicLong sum = new AtomicLong();
        FlowOptions options = FlowOptions.defaults().withThreadFactory(virtualThreads())
                .withChannels(ChannelSpec.bounded(16));
        Runs.run(pipeline(n, sum), options, Duration.ofSeconds(30));
        assertEquals(n * (n + 1) / 2, sum.get());
    }
}
