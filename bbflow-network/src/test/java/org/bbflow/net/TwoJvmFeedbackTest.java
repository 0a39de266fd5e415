package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.StreamFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * A feedback loop across two JVMs: this one runs source, the round trip, the loop's decision and
 * the sink; a child JVM ({@link ChildLoopPath}) runs the remote path, a farm of workers.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoJvmFeedbackTest {
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));

    private static TwoJvmTest.Child child(int parentPort, int failId) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new TwoJvmTest.Child(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ChildLoopPath.class.getName(), "127.0.0.1", "127.0.0.1", String.valueOf(parentPort), String.valueOf(failId)));
    }

    private static void run(LoopItems items, NetServer server, TwoJvmTest.Child child, int failId) throws Exception {
        int childPort = child.port.get(60, TimeUnit.SECONDS);
        items.flow(RemoteBlocks.roundTrip("127.0.0.1", childPort, 1, Codec.longs(), OPTS, server, 2, Codec.longs()), failId)
                .run();
    }

    @Test
    void itemsLoopThroughTheChildJvmAndBothEndCleanly() throws Exception {
        long seed = TestSeed.current();
        System.out.println("TwoJvmFeedbackTest seed " + seed);
        LoopItems items = new LoopItems(seed, 50_000);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS); TwoJvmTest.Child child = child(server.port(), -1)) {
            run(items, server, child, -1);
            items.check();
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS), "child exits after end of stream");
            assertEquals(0, child.process.exitValue(), child.output.toString());
            child.await("DONE 0", 10);
        }
    }

    @Test
    void aFailureInTheChildFailsTheParentsLoop() throws Exception {
        LoopItems items = new LoopItems(3, 20_000);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS); TwoJvmTest.Child child = child(server.port(), 4321)) {
            FlowException e = assertThrows(FlowException.class, () -> run(items, server, child, -1));
            assertTrue(TwoJvmTest.hasRemoteCause(e), () -> "parent: " + e);
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS), "child exits");
            assertEquals(1, child.process.exitValue(), child.output.toString());
            child.await("DONE 1", 10);
            assertTrue(child.output.toString().contains("boom-child at item 4321"), child.output.toString());
        }
    }

    @Test
    void aFailureInTheParentFailsTheChild() throws Exception {
        LoopItems items = new LoopItems(4, 20_000);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS); TwoJvmTest.Child child = child(server.port(), -1)) {
            FlowException e = assertThrows(FlowException.class, () -> run(items, server, child, 4321));
            assertEquals("boom-parent at item 4321", e.getCause().getMessage());
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS), "child exits");
            assertEquals(1, child.process.exitValue(), child.output.toString());
            child.await("DONE 1", 10);
            assertTrue(child.output.toString().contains("RemoteChannelException"), child.output.toString());
        }
    }

    /**
     * The parent's source cuts its stream ({@link StreamFailure}) after its last item: every item still
     * makes its trips through the child and leaves the loop once, the parent's flow fails with its
     * source's error (not the echo of the cut in the return stream), and the child's flow, which gets
     * every item and then the failed end, fails with the cut and exits with status 1.
     */
    @Test
    void aStreamCutByTheParentsSourceEndsTheLoopAndFailsTheChildWithTheCut() throws Exception {
        long seed = TestSeed.current();
        System.out.println("TwoJvmFeedbackTest seed " + seed);
        LoopItems items = new LoopItems(seed, 20_000);
        IllegalStateException boom = new IllegalStateException("the parent's source broke");
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS); TwoJvmTest.Child child = child(server.port(), -1)) {
            int childPort = child.port.get(60, TimeUnit.SECONDS);
            Pipeline<Void, Void> loop = Pipeline.of(Nodes.<Long>source(o -> {
                        for (long i = 0; i < items.n; i++) o.send(i << 8);
                        throw new StreamFailure(boom);
                    }),
                    Pipeline.of(RemoteBlocks.roundTrip("127.0.0.1", childPort, 1, Codec.longs(), OPTS, server, 2, Codec.longs()),
                            items.decide(-1)).feedback(),
                    items.sink());
            FlowException e = assertThrows(FlowException.class, loop::run);
            assertSame(boom, e.getCause(), () -> "parent: " + e);
            assertEquals(0, boom.getSuppressed().length, () -> "a node failed after the cut: " + boom.getSuppressed()[0]);
            items.check();
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS), "child exits");
            assertEquals(1, child.process.exitValue(), child.output.toString());
            child.await("DONE 1", 10);
            String out = child.output.toString();
            assertTrue(out.contains("RemoteStreamFailedException") && out.contains("the parent's source broke"), out);
        }
    }

    @Test
    void aKilledChildFailsTheParentsLoopWithinThePeerTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        NetOptions opts = OPTS.withPeerTimeout(timeout).withHeartbeat(Duration.ofMillis(250));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts); TwoJvmTest.Child child = child(server.port(), -1)) {
            int childPort = child.port.get(60, TimeUnit.SECONDS);
            AtomicLong left = new AtomicLong();
            CompletableFuture<Void> running = new CompletableFuture<>();
            Flow loop = Flow.start(Pipeline.of(Nodes.range(0, Long.MAX_VALUE >>> 8), Nodes.map((Long i) -> i << 8),
                    Pipeline.of(RemoteBlocks.roundTrip("127.0.0.1", childPort, 1, Codec.longs(), opts, server, 2, Codec.longs()),
                            Nodes.flatMap((Long x, Outbox<Long> o) -> {
                                if (LoopItems.trips(x) < 3) o.send(x);
                                else o.sendTo(1, x);
                            })).feedback(),
                    Nodes.sink((Long x) -> {
                        if (left.incrementAndGet() == 20_000) running.complete(null);
                    })));
            running.get(60, TimeUnit.SECONDS);
            long t0 = System.nanoTime();
            child.process.destroyForcibly().waitFor();
            FlowException e = assertThrows(FlowException.class, loop::join);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(TwoJvmTest.hasRemoteCause(e), () -> "parent: " + e);
            assertTrue(ms < timeout.toMillis() + 5000, "the loop failed after " + ms + " ms");
        }
    }
}
