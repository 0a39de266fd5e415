package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.bbflow.core.Comb;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group's result outlet at its node's end (the worker failed or was cancelled): it sends what its
 * node sent and frees the buffer it was filling, but neither completes nor aborts the stream, which
 * the group aborts after its report. A group killed in local mode aborts nothing: its connections
 * close under it, and the buffer of a node cancelled between two items was held for ever (CI,
 * 2026-11-27: a leak in {@code LocalJobTest}). Netty's paranoid leak detection (see
 * {@code LeakCheck}) fails the class if a buffer is not freed.
 */
@Timeout(60)
class GroupOutletTest {
    private static final int CHANNEL = 43;

    /**
     * Emits {@code n} items, then fails: combined with the outlet on one thread (as a group runs a
     * worker), the outlet's node has sent exactly those and ends without end of stream or another send.
     */
    private static Source<Object> failingAfter(int n) {
        return out -> {
            for (long i = 0; i < n; i++) {
                out.send(i);
            }
            throw new IllegalStateException("boom after " + n);
        };
    }

    @SuppressWarnings("unchecked")
    private static RemoteOutlet<Object> outlet(NetClient client) {
        return (RemoteOutlet<Object>) (RemoteOutlet<?>) client.outlet(CHANNEL, Codec.longs());
    }

    @Test
    void aFailedNodeSendsWhatItSentAndTheGroupAbortsAfterItsReport() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(CHANNEL, Codec.longs());
            GroupOutlet results = new GroupOutlet(outlet(client), "to-master");
            Flow flow = Flow.start(Pipeline.of(Comb.of(failingAfter(100), results)));
            assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
            for (long i = 0; i < 100; i++) {
                assertEquals(i, in.take()); // nothing the node sent is lost
            }
            results.abortUnlessCompleted(); // the report went first; now the stream is aborted
            RemoteChannelException e = assertThrows(RemoteChannelException.class, in::take);
            assertTrue(e.getMessage().contains("without complete()"), e.getMessage());
            in.close();
        }
    }

    @Test
    void aKilledGroupsCancelledNodeHoldsNoBuffer() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            RemoteInlet<Long> in = server.inlet(CHANNEL, Codec.longs());
            NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults());
            GroupOutlet results = new GroupOutlet(outlet(client), "to-master");
            Flow flow = Flow.start(Pipeline.of(Comb.of(failingAfter(100), results)));
            assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
            client.closeAbruptly(); // as LocalJob's kill does: no report, no abort, the connection just closes
            in.close();
        } // the buffer the node was filling: freed, or LeakCheck fails the class
    }
}
