package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review: {@link NetClient#close()} with outlets still open sent no ABORT, so the receiving flow
 * waited for its whole peer timeout before failing. A clean close aborts each unfinished stream at
 * once, naming the closed client; a stream already completed stays complete.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientCloseTest {
    /** Far above the bound the receiver must fail within: waiting for it is the defect. */
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(60));
    private static final long BOUND_SECONDS = 10;

    @Test
    void closingAClientWithAnOpenOutletFailsTheReceivingFlowAtOnceNamingTheClient() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS)) {
            RemoteInlet<Long> finished = server.inlet(1, Codec.longs());
            AtomicLong received = new AtomicLong();
            Flow receiver = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 2, Codec.longs()),
                    Nodes.sink((Long x) -> received.incrementAndGet())));
            try {
                NetClient client = NetClient.connect("127.0.0.1", server.port(), OPTS);
                RemoteOutlet<Long> done = client.outlet(1, Codec.longs());
                for (long i = 0; i < 1000; i++) done.sendLong(i);
                done.complete();
                RemoteOutlet<Long> open = client.outlet(2, Codec.longs());
                for (long i = 0; i < 1000; i++) open.sendLong(i);
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (received.get() < 1 && System.nanoTime() < until) Thread.onSpinWait(); // the stream is attached
                assertTrue(received.get() > 0, "the open stream delivered nothing");

                long t0 = System.nanoTime();
                client.close(); // neither complete() nor close() on `open`
                ExecutionException e;
                try {
                    RunStats stats = receiver.completion().get(BOUND_SECONDS, TimeUnit.SECONDS);
                    throw new AssertionError("the receiving flow ended cleanly after the client closed: " + stats);
                } catch (ExecutionException failed) {
                    e = failed;
                } catch (TimeoutException slow) {
                    throw new AssertionError("the receiving flow still waits " + BOUND_SECONDS + " s after the client closed"
                            + " (peer timeout " + OPTS.peerTimeout() + ")");
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String why = String.valueOf(e.getCause());
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) why += " / " + c.getMessage();
                assertTrue(why.contains("aborted") && why.contains("client") && why.contains("closed"), why);
                System.out.println("receiver failed " + ms + " ms after the client closed: " + why);
                assertThrows(RemoteChannelException.class, () -> open.sendLong(0), "the open outlet fails on the sender too");

                long k = 0;
                for (Long x; (x = finished.take()) != null; k++) assertEquals(k, x);
                assertEquals(1000, k, "the completed stream stays complete");
            } finally {
                receiver.cancel();
                receiver.close();
            }
        }
    }
}
