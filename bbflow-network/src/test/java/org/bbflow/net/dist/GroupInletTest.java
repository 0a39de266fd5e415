package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group's task inlet outlives its node: a node that ends (failed or cancelled, as a failing group's
 * nodes do) must not close it, since closing refuses the sender at once, and the master counts a
 * group whose lane fails without its report as lost. The group closes it after its report. The
 * oracle is the server's registry: an inlet's channel id stays taken exactly while it is open. A
 * node that fails in the middle of a frame frees it (Netty's paranoid leak detection, see
 * {@code LeakCheck}, fails the class otherwise).
 */
@Timeout(60)
class GroupInletTest {
    private static final int CHANNEL = 42;

    @SuppressWarnings("unchecked")
    private static RemoteInlet<Object> inlet(NetServer server) {
        return (RemoteInlet<Object>) (RemoteInlet<?>) server.inlet(CHANNEL, Codec.longs());
    }

    @Test
    void staysOpenWhenItsNodeIsCancelledUntilTheGroupClosesIt() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            GroupInlet in = new GroupInlet(inlet(server));
            Flow flow = Flow.start(Pipeline.of(in, Nodes.sink((Object x) -> { })));
            flow.cancel();
            assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
            // still open: its id is still taken (closing it would have refused a sender)
            assertThrows(IllegalStateException.class, () -> inlet(server));
            in.closeAfterReport();
            inlet(server).close(); // the id is free again
            in.closeAfterReport(); // idempotent
        }
    }

    @Test
    void aNodeFailingInTheMiddleOfAFrameFreesItAndLeavesTheInletOpen() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<Long> sender = NetClient.outlet("127.0.0.1", server.port(), CHANNEL, Codec.longs(),
                     NetOptions.defaults())) {
            GroupInlet in = new GroupInlet(inlet(server));
            for (long i = 0; i < 1_000; i++) {
                sender.send(i); // one batch, so one frame: the node fails at its first item, mid-frame
            }
            Flow flow = Flow.start(Pipeline.of(in, Nodes.sink((Object x) -> {
                throw new IllegalStateException("boom at " + x);
            })));
            FlowException e = assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)));
            assertEquals("boom at 0", rootCause(e).getMessage());
            assertThrows(IllegalStateException.class, () -> inlet(server), "the inlet was closed as its node ended");
            in.closeAfterReport();
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
