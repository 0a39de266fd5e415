package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.bbflow.testing.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link NetClient#close()} and {@link NetClient#closeAbruptly()} return once the client's thread
 * (and with it its socket) is gone, also when another thread's close of the same client is under
 * way. A second close returned at once ({@code if (closed) return}) while the first still ran: a
 * group killed in a {@code LocalJob} (the kill's {@code closeAbruptly} and the group's own
 * {@code close} of its clients) ended its thread with its connections still open. The first close is
 * paused by {@link NetClient#closeHook}, so the race is certain, not timed.
 */
class ConcurrentClientCloseTest {
    @AfterEach
    void noHook() {
        NetClient.closeHook = null;
    }

    @Test
    @Timeout(60)
    void aSecondCloseReturnsOnlyOnceTheClientsThreadHasEnded() throws Exception {
        secondCloseWaitsForFirst(NetClient::close, NetClient::close);
    }

    /** LocalJob.kill's closeAbruptly first, the killed group's own close second. */
    @Test
    @Timeout(60)
    void aCloseDuringAnAbruptCloseWaitsForIt() throws Exception {
        secondCloseWaitsForFirst(NetClient::closeAbruptly, NetClient::close);
    }

    @Test
    @Timeout(60)
    void anAbruptCloseDuringACloseWaitsForIt() throws Exception {
        secondCloseWaitsForFirst(NetClient::close, NetClient::closeAbruptly);
    }

    private static void secondCloseWaitsForFirst(Consumer<NetClient> firstClose, Consumer<NetClient> secondClose)
            throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", FreePorts.next(), NetOptions.defaults())) {
            NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults());
            CloseRace race = new CloseRace();
            CountDownLatch hookCalls = new CountDownLatch(2); // counts down at most once: a second close never runs it
            NetClient.closeHook = c -> {
                if (c == client) {
                    hookCalls.countDown();
                    race.holdFirst();
                }
            };
            try {
                Thread first = new Thread(() -> firstClose.accept(client), "first-close");
                first.start();
                race.awaitFirstHeld();
                AtomicReference<Boolean> terminatedOnReturn = new AtomicReference<>();
                Thread second = new Thread(() -> {
                    secondClose.accept(client);
                    terminatedOnReturn.set(client.loop().isTerminated());
                }, "second-close");
                second.start();
                CloseRace.awaitReturnedOrWaiting(second);
                race.release();
                first.join(20_000);
                second.join(20_000);
                assertFalse(first.isAlive() || second.isAlive(), "a close did not return");
                assertEquals(Boolean.TRUE, terminatedOnReturn.get(),
                        "the second close returned while the first was still under way: the client's thread was still running");
                assertEquals(1, hookCalls.getCount(), "the client was closed twice");
            } finally {
                race.release();
            }
        }
    }
}
