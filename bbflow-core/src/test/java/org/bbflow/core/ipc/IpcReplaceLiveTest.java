package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IpcReceiver#create} replaced a channel file even while a live receiver owned it: that receiver
 * was orphaned without a word, and its senders' records went to the new file. A file whose receiver
 * is alive is refused now; one whose receiver closed (or died) is still replaced. The receiver in
 * another process is covered by {@code IpcTwoProcessTest}.
 */
@Timeout(60)
class IpcReplaceLiveTest {
    @TempDir
    Path dir;

    @Test
    void creatingOverAnOpenReceiverIsRefusedNamingThePath() {
        Path file = dir.resolve("live.ipc");
        try (IpcReceiver<Long> first = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults())) {
            IpcException e = assertThrows(IpcException.class,
                () -> IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close(),
                "a second receiver replaced the file of a live one");
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("live receiver"),
                e.getMessage());
            // the first receiver still owns the file: a sender reaches it
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                tx.send(42L);
            }
            assertEquals(42L, first.take());
            assertNull(first.take());
        }
        // once it closed, the file is one left by an earlier run: replaced
        try (IpcReceiver<Long> again = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults())) {
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                tx.send(7L);
            }
            assertEquals(7L, again.take());
        }
    }

    @Test
    void aFlowSourceOverAnOpenReceiverIsRefusedToo() {
        Path file = dir.resolve("source.ipc");
        IpcSource<Long> never = IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults());
        IpcException e = assertThrows(IpcException.class,
            () -> IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults()).receiver().close());
        assertTrue(e.getMessage().contains("live receiver"), e.getMessage());
        never.receiver().close(); // a source that never ran is closed through its receiver
        IpcSource.create(file, IpcCodec.int64(), IpcOptions.defaults()).receiver().close();
    }
}
