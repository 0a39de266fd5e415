package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.StreamFailure;
import org.bbflow.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The IPC source and sink as blocks of core flows. */
class IpcFlowTest {
    @TempDir
    Path dir;

    static java.util.List<WaitStrategy> strategies() {
        return java.util.List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    @Timeout(60)
    void sinkFlowFeedsSourceFlow(WaitStrategy ws) {
        Path file = dir.resolve("flow");
        long n = 200_000;
        IpcSource<Long> source = IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(1 << 16)
                .withWaitStrategy(ws));
        AtomicLong sum = new AtomicLong();
        AtomicLong count = new AtomicLong();
        Flow consumer = Flow.start(Pipeline.of(source, Nodes.sink((Long x) -> {
            if (x != count.get() + 1) {
                throw new AssertionError("out of order: " + x + " after " + count.get());
            }
            count.incrementAndGet();
            sum.addAndGet(x);
        })));
        Flow producer = Flow.start(Pipeline.of(Nodes.range(1, n),
                IpcSink.open(file, IpcCodec.int64(), IpcOptions.defaults().withWaitStrategy(ws))));
        producer.join();
        consumer.join();
        assertEquals(n, count.get());
        assertEquals(n * (n + 1) / 2, sum.get());
        assertEquals(n, source.receiver().received());
    }

    @Test
    @Timeout(60)
    void cancellingAnIdleSourceFlowEndsIt() throws Exception {
        IpcSource<Long> source = IpcSource.create(dir.resolve("idle"), IpcCodec.int64(), IpcOptions.defaults());
        Flow consumer = Flow.start(Pipeline.of(source, Nodes.sink((Long x) -> { })));
        consumer.cancel(); // no producer ever attaches
        FlowException e = assertThrows(FlowException.class, () -> consumer.join(java.time.Duration.ofSeconds(30)));
        assertInstanceOf(java.util.concurrent.CancellationException.class, e.getCause());
    }

    @Test
    @Timeout(60)
    void failingProducerFlowFailsConsumerFlowWithPeerLost() {
        Path file = dir.resolve("fail");
        IpcSource<Long> source = IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults());
        Flow consumer = Flow.start(Pipeline.of(source, Nodes.sink((Long x) -> { })));
        Flow producer = Flow.start(Pipeline.of(Nodes.range(1, 1000), Nodes.map((Long x) -> {
            if (x == 500) {
                throw new IllegalStateException("boom");
            }
            return x;
        }), IpcSink.open(file, IpcCodec.int64(), IpcOptions.defaults())));
        assertThrows(FlowException.class, producer::join);
        FlowException e = assertThrows(FlowException.class, consumer::join);
        IpcPeerLostException lost = assertInstanceOf(IpcPeerLostException.class, e.getCause());
        assertTrue(lost.getMessage().contains("failed"), lost.getMessage());
    }

    /**
     * A stream its source cut with a StreamFailure cancels nothing, so the sink saw a normal end of
     * stream; the consumer must still learn the producer failed (it saw a clean end and succeeded).
     */
    @Test
    @Timeout(60)
    void aProducerStreamCutByItsSourceFailsTheConsumerFlow() {
        Path file = dir.resolve("cut");
        IpcSource<Long> source = IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults());
        AtomicLong count = new AtomicLong();
        Flow consumer = Flow.start(Pipeline.of(source, Nodes.sink((Long x) -> count.incrementAndGet())));
        Flow producer = Flow.start(Pipeline.of(Nodes.source(o -> {
            for (long i = 1; i <= 100; i++) {
                o.send(i);
            }
            throw new StreamFailure(new IllegalStateException("cut"));
        }), IpcSink.open(file, IpcCodec.int64(), IpcOptions.defaults())));
        assertThrows(FlowException.class, producer::join);
        FlowException e = assertThrows(FlowException.class, consumer::join);
        assertInstanceOf(IpcPeerLostException.class, e.getCause());
        assertEquals(100, count.get(), "the items sent before the error were delivered");
    }

    /**
     * A sink waiting for room in the ring of a consumer that is alive but does not read must still
     * end when its flow is cancelled (and end its stream as failed), not wait for the consumer.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void cancellingAFlowWhoseSinkWaitsForAFullRingEndsIt() throws Exception {
        Path file = dir.resolve("full");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(1024))) {
            Flow producer = Flow.start(Pipeline.of(Nodes.range(1, Long.MAX_VALUE - 1),
                    IpcSink.open(file, IpcCodec.int64(), IpcOptions.defaults())));
            try (IpcFile view = IpcFile.open(file)) { // wait until the ring is full: the sink waits for room
                while (view.ring.producerPosition() - view.ring.consumerPosition() < view.capacity - 64) {
                    Thread.sleep(1);
                }
            }
            producer.cancel();
            FlowException e = assertThrows(FlowException.class, () -> producer.join(java.time.Duration.ofSeconds(10)));
            assertInstanceOf(java.util.concurrent.CancellationException.class, e.getCause(), e.toString());
            IpcPeerLostException lost = assertThrows(IpcPeerLostException.class, () -> {
                while (rx.take() != null) { }
            });
            assertTrue(lost.getMessage().contains("failed"), lost.getMessage());
        }
    }
}
