package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Pipeline;
import org.bbflow.core.StreamFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * A feedback loop whose path crosses a remote edge and comes back, with both "JVMs" in this one
 * (two servers on loopback): it ends exactly when its upstream has ended and no item is out, on
 * either side of the wire, and a failure on either side fails both.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteFeedbackTest {
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));

    /** Server a hosts the return inlet (channel 2), server b the remote path's inlet (channel 1). */
    private static Flow remotePath(NetServer a, NetServer b, int failId) {
        return Flow.start(Pipeline.of(RemoteBlocks.inlet(b, 1, Codec.longs()), LoopItems.workers(3, failId),
                RemoteBlocks.outlet("127.0.0.1", a.port(), 2, Codec.longs(), OPTS)));
    }

    private static Pipeline<Void, Void> loop(LoopItems items, NetServer a, NetServer b, int failId) {
        return items.flow(RemoteBlocks.roundTrip("127.0.0.1", b.port(), 1, Codec.longs(), OPTS, a, 2, Codec.longs()), failId);
    }

    @Test
    void everyItemLeavesOnceAfterItsTripsAndBothSidesEndCleanly() throws Exception {
        long base = TestSeed.current();
        for (int rep = 0; rep < 5; rep++) {
            long seed = base + rep;
            System.out.println("RemoteFeedbackTest seed " + seed);
            LoopItems items = new LoopItems(seed, 10_000);
            try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
                Flow remote = remotePath(a, b, -1);
                loop(items, a, b, -1).run();
                remote.join(); // the local flow ended after the remote one's clean end of its return stream
                items.check();
            }
        }
    }

    @Test
    void aClientConnectionCarriesTheForwardStream() throws Exception {
        long seed = TestSeed.current();
        System.out.println("RemoteFeedbackTest seed " + seed);
        LoopItems items = new LoopItems(seed, 1000);
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS);
             NetClient client = NetClient.connect("127.0.0.1", b.port(), OPTS)) {
            Flow remote = remotePath(a, b, -1);
            items.flow(RemoteBlocks.roundTrip(client, 1, Codec.longs(), a, 2, Codec.longs()), -1).run();
            remote.join();
            items.check();
        }
    }

    @Test
    void aFailureOnTheRemoteSideFailsTheLoop() throws Exception {
        LoopItems items = new LoopItems(1, 2000);
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
            Flow remote = remotePath(a, b, 700);
            FlowException local = assertThrows(FlowException.class, () -> loop(items, a, b, -1).run());
            FlowException far = assertThrows(FlowException.class, remote::join);
            assertTrue(TwoJvmTest.hasRemoteCause(local), () -> "local side: " + local);
            // Either half of the round trip may learn of the far failure first: the return stream's
            // ABORT, or the forward stream refused because the far inlet is gone. Both name a
            // round-trip node and carry a RemoteChannelException; neither is a clean end.
            assertTrue(local.getMessage().contains("round-trip-return")
                    || local.getMessage().contains("round-trip-out"), local.getMessage());
            assertEquals("boom-child at item 700", far.getCause().getMessage());
        }
    }

    @Test
    void aFailureInTheLoopFailsTheRemoteSide() throws Exception {
        LoopItems items = new LoopItems(2, 2000);
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
            Flow remote = remotePath(a, b, -1);
            FlowException local = assertThrows(FlowException.class, () -> loop(items, a, b, 900).run());
            FlowException far = assertThrows(FlowException.class, remote::join);
            assertEquals("boom-parent at item 900", local.getCause().getMessage());
            assertTrue(TwoJvmTest.hasRemoteCause(far), () -> "remote side: " + far);
        }
    }

    @Test
    void outsideALoopTheRoundTripIsARemoteStage() throws Exception {
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
            Flow remote = remotePath(a, b, -1);
            long[] sum = new long[1];
            Pipeline.of(Nodes.range(0, 9_999), Nodes.map((Long i) -> i << 8),
                    RemoteBlocks.roundTrip("127.0.0.1", b.port(), 1, Codec.longs(), OPTS, a, 2, Codec.longs()),
                    Nodes.sink((Long x) -> sum[0] += x)).run();
            remote.join();
            assertEquals((9_999L * 10_000 / 2 << 8) + 10_000, sum[0]); // every item back once, with one trip
        }
    }

    @Test
    void aRemotePathThatAnswersTwiceFailsInsteadOfEndingCleanly() throws Exception {
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
            Flow remote = Flow.start(Pipeline.of(RemoteBlocks.inlet(b, 1, Codec.longs()),
                    Nodes.flatMap((Long x, Outbox<Long> o) -> {
                        o.send(x + 1);
                        if (x == 5) o.send(x + 1);
                    }),
                    RemoteBlocks.outlet("127.0.0.1", a.port(), 2, Codec.longs(), OPTS)));
            Pipeline<Void, Void> p = Pipeline.of(Nodes.range(0, 9),
                    Pipeline.of(RemoteBlocks.roundTrip("127.0.0.1", b.port(), 1, Codec.longs(), OPTS, a, 2, Codec.longs()),
                            Nodes.flatMap((Long x, Outbox<Long> o) -> o.sendTo(1, x))).feedback(),
                    Nodes.sink((Long x) -> { }));
            FlowException e = assertThrows(FlowException.class, p::run);
            assertTrue(e.getCause().getMessage().contains("more items than it received"), e.toString());
            try {
                remote.join(); // ends either way: its end of stream may be acknowledged, or refused as the inlet closed
            } catch (FlowException refused) {
                assertTrue(TwoJvmTest.hasRemoteCause(refused), refused::toString);
            }
        }
    }

    /**
     * The source of the loop's flow ends its stream with a {@link StreamFailure} after sending every
     * item: the cut cancels nothing, so every item still makes its trips through the remote path and
     * leaves the loop once; then the loop ends, the round trip ends the forward stream with the cut
     * (a failed end), the remote flow gets every item, fails with that cut and ends its return stream
     * failed in turn, and the round trip takes that echo as the end of the return stream. The loop's
     * flow fails with the source's own error, not the echo, and neither side hangs.
     */
    @Test
    void aStreamCutByTheLoopsSourceEndsBothSidesAfterEveryAnswerWithTheSourcesError() throws Exception {
        long seed = TestSeed.current();
        System.out.println("RemoteFeedbackTest seed " + seed);
        LoopItems items = new LoopItems(seed, 5_000);
        IllegalStateException boom = new IllegalStateException("the loop's source broke");
        AtomicLong arrived = new AtomicLong();
        AtomicInteger endsSeenFailed = new AtomicInteger(-1); // the remote path's node at its end: 1 if its flow failed
        try (NetServer a = NetServer.bind("127.0.0.1", 0, OPTS); NetServer b = NetServer.bind("127.0.0.1", 0, OPTS)) {
            Flow remote = Flow.start(Pipeline.of(RemoteBlocks.inlet(b, 1, Codec.longs()), LoopItems.workers(3, -1),
                    new Node<Long, Long>() {
                        private NodeContext ctx;

                        @Override
                        public void init(NodeContext context) {
                            ctx = context;
                        }

                        @Override
                        public void onItem(Long x, Outbox<Long> o) {
                            arrived.incrementAndGet();
                            o.send(x);
                        }

                        /** What a collecting sink here asks before it publishes: whether the flow failed. */
                        @Override
                        public void onEos(Outbox<Long> o) {
                            endsSeenFailed.set(ctx.flowFailed() ? 1 : 0);
                        }
                    },
                    RemoteBlocks.outlet("127.0.0.1", a.port(), 2, Codec.longs(), OPTS)).named("far"));
            Pipeline<Void, Void> loop = Pipeline.of(Nodes.<Long>source(o -> {
                        for (long i = 0; i < items.n; i++) o.send(i << 8);
                        throw new StreamFailure(boom);
                    }),
                    Pipeline.of(RemoteBlocks.roundTrip("127.0.0.1", b.port(), 1, Codec.longs(), OPTS, a, 2, Codec.longs()),
                            items.decide(-1)).feedback(),
                    items.sink());
            FlowException local = assertThrows(FlowException.class, loop::run);
            assertSame(boom, local.getCause(), () -> "the loop's flow fails with its source's error: " + local);
            assertArrayEquals(new Throwable[0], boom.getSuppressed(), () -> "no node failed after the cut: "
                    + java.util.Arrays.toString(boom.getSuppressed()));
            items.check(); // every item made all its trips and left the loop once

            FlowException far = assertThrows(FlowException.class, remote::join, "the remote path fails with the cut");
            RemoteStreamFailedException cut = assertInstanceOf(RemoteStreamFailedException.class, far.getCause(), far::toString);
            assertTrue(cut.senderFailure().contains("the loop's source broke"), cut::senderFailure);
            long trips = 0;
            for (int r : items.rounds) trips += r;
            assertEquals(trips, arrived.get(), "every trip passed through the remote path once");
            assertEquals(1, endsSeenFailed.get(), "the remote path's flow ended failed: a collector there publishes nothing");
        }
        LeakCheck.assertNoLeaks();
    }
}
