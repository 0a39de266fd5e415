package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/** A stream the receiver got completely must not fail because the acknowledgement of its end was lost. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LostEosAckTest {

    @RepeatedTest(3)
    void senderReattachingAfterALostEndOfStreamAckIsAcknowledgedAgain() throws Exception {
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(4));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts);
            out.sendLong(0);
            assertEquals(0L, in.take()); // attached through the proxy
            proxy.loseReplies();         // from here the server's answers, the EOS acknowledgement too, are lost
            for (long i = 1; i < 1000; i++) out.sendLong(i);
            CompletableFuture<Void> completed = CompletableFuture.runAsync(out::complete);
            long k = 1;
            for (Long x; (x = in.take()) != null; k++) assertEquals(k, x);
            assertEquals(1000, k, "the receiver has every item and the end of stream");
            in.close();   // the receiving side is done and its inlet gone
            proxy.cut();  // the connection drops before the sender heard the acknowledgement
            completed.get(30, TimeUnit.SECONDS); // the sender re-attaches and is acknowledged again
            assertTrue(proxy.connectionsAccepted() >= 2, "the sender reconnected");
        }
    }
}
