package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Unknown or unreachable peers, and senders that never come, fail the flow instead of hanging it. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class UnreachablePeerTest {
    private static final String NO_SUCH_HOST = "no-such-host.invalid";

    @Test
    void unknownHostFailsAtOnceNamingTheHost() {
        RemoteChannelException e = assertThrows(RemoteChannelException.class,
                () -> NetClient.connect(NO_SUCH_HOST, 7000, NetOptions.defaults()));
        assertTrue(e.getMessage().contains(NO_SUCH_HOST), e.getMessage());
        // in a flow (default 30 s peer timeout; the test's own timeout is 20 s)
        FlowException f = assertThrows(FlowException.class, () -> Pipeline.of(Nodes.range(1, 1000),
                RemoteBlocks.outlet(NO_SUCH_HOST, 7000, 1, Codec.longs(), NetOptions.defaults())).run());
        assertTrue(TwoJvmTest.hasRemoteCause(f), f::toString);
        assertTrue(String.valueOf(f).contains(NO_SUCH_HOST) || String.valueOf(f.getCause()).contains(NO_SUCH_HOST), f::toString);
    }

    private static int closedPort() {
        return org.bbflow.testing.FreePorts.next(); // this fork's own: no other test of the module binds it
    }

    @Test
    void unreachablePeerFailsTheFlowAfterThePeerTimeout() throws Exception {
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(1));
        int port = closedPort();
        long t0 = System.nanoTime();
        FlowException f = assertThrows(FlowException.class, () -> Pipeline.of(Nodes.range(1, 1_000_000),
                RemoteBlocks.outlet("127.0.0.1", port, 1, Codec.longs(), opts)).run());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(TwoJvmTest.hasRemoteCause(f), f::toString);
        Throwable c = f;
        while (!(c instanceof RemoteChannelException)) c = c.getCause();
        assertTrue(c.getMessage().contains("cannot reach 127.0.0.1:" + port), c.getMessage());
        assertTrue(ms >= 900, "failed after " + ms + " ms, before the peer timeout");
    }

    @Test
    void inletWithoutSenderFailsAfterTheFirstConnectTimeout() {
        NetOptions opts = NetOptions.defaults().withFirstConnectTimeout(Duration.ofMillis(500));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("no sender attached within 500 ms"), e.getMessage());
            Flow flow = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 2, Codec.longs()), Nodes.sink((Long x) -> { })));
            FlowException f = assertThrows(FlowException.class, flow::join);
            assertTrue(TwoJvmTest.hasRemoteCause(f), f::toString);
        }
    }

    @Test
    void aSenderArrivingInTimeCancelsTheFirstConnectTimeout() throws Exception {
        NetOptions opts = NetOptions.defaults().withFirstConnectTimeout(Duration.ofMillis(300));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts)) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 1, Codec.longs(), opts);
            out.sendLong(1);
            assertEquals(1L, in.take());
            // stays attached well past the first-connect timeout; the stream still ends normally
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(600);
            for (long i = 2; System.nanoTime() < until; i++) {
                out.sendLong(i);
                assertEquals(i, in.take());
            }
            out.complete();
            assertNull(in.take());
        }
    }
}
