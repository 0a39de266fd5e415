package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review: {@link IpcSender#close()} gives no delivery confirmation (the receiver may not have read the
 * last records when it returns). {@link IpcSender#awaitTaken} is that confirmation: true only once the
 * receiver has taken every record, false while some wait in the ring, an exception if the receiver is gone.
 */
@Timeout(60)
class IpcDeliveryTest {
    @TempDir
    Path dir;

    @Test
    void awaitTakenConfirmsOnlyWhatTheReceiverTook() throws Exception {
        Path file = dir.resolve("d");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096));
                IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
            assertTrue(tx.awaitTaken(Duration.ZERO), "nothing sent: nothing to wait for");
            for (long i = 0; i < 10; i++) {
                tx.send(i);
            }
            assertFalse(tx.awaitTaken(Duration.ofMillis(50)), "the receiver took nothing yet");
            for (long i = 0; i < 9; i++) {
                assertEquals(i, rx.take());
            }
            assertFalse(tx.awaitTaken(Duration.ofMillis(50)), "the last record is still in the ring");
            CompletableFuture<Long> last = CompletableFuture.supplyAsync(rx::take);
            assertTrue(tx.awaitTaken(Duration.ofSeconds(30)), "the receiver took the last record");
            assertEquals(9L, last.get(30, TimeUnit.SECONDS));
            // a timeout too long for a long of nanoseconds waits as long as it takes (toNanos() threw)
            assertTrue(tx.awaitTaken(java.time.temporal.ChronoUnit.FOREVER.getDuration()));
        }
    }

    @Test
    void awaitTakenFailsWhenTheReceiverClosedWithRecordsLeft() throws Exception {
        Path file = dir.resolve("c");
        IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096));
        try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
            tx.send(1L);
            rx.close();
            IpcPeerLostException e = assertThrows(IpcPeerLostException.class, () -> tx.awaitTaken(Duration.ofSeconds(30)));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }
}
