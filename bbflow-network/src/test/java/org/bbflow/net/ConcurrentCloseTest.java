package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link NetServer#close()} returns once the port is free, also when another thread's close of the
 * same server is under way. It returned at once, the port still bound: a distributed group killed in
 * a {@code LocalJob} (its own thread and the kill both closing its server) and started again on its
 * address was refused with "address already in use" (CI, 2026-11-28, GroupIdentityTest).
 */
class ConcurrentCloseTest {
    @Test
    @Timeout(60)
    void aSecondCloseReturnsOnlyOnceThePortCanBeBoundAgain() throws Exception {
        int port = FreePorts.next();
        NetServer server = NetServer.bind("127.0.0.1", port, NetOptions.defaults());
        CloseRace race = new CloseRace();
        NetServer.closeHook = s -> {
            if (s == server) {
                race.holdFirst();
            }
        };
        try {
            Thread first = new Thread(server::close, "first-close");
            first.start();
            race.awaitFirstHeld();
            AtomicBoolean rebound = new AtomicBoolean();
            AtomicReference<Throwable> refused = new AtomicReference<>();
            Thread second = new Thread(() -> {
                server.close();
                try (NetServer again = NetServer.bind("127.0.0.1", port, NetOptions.defaults())) {
                    rebound.set(true);
                } catch (Throwable t) {
                    refused.set(t);
                }
            }, "second-close");
            second.start();
            CloseRace.awaitReturnedOrWaiting(second);
            race.release();
            first.join(20_000);
            second.join(20_000);
            assertNull(refused.get(), () -> "the second close returned while the port was still bound: " + refused.get());
            assertTrue(rebound.get(), "the port was not bound again");
        } finally {
            NetServer.closeHook = null;
            race.release();
        }
    }
}
