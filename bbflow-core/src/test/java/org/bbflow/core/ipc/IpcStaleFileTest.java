package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A channel file whose receiver has closed (left by an earlier run) is no channel to write to: a
 * producer that opens it is refused at once, rather than writing records no one will read and
 * ending as if they were delivered.
 */
class IpcStaleFileTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aSenderOpeningAClosedReceiversFileIsRefused() {
        Path file = dir.resolve("stale.ipc");
        IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close();
        IpcPeerLostException e = assertThrows(IpcPeerLostException.class, () -> {
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                tx.send(1L);   // a few records fit the ring: without the check, nothing says they are lost
            }
        });
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    @Timeout(60)
    void aSecondFlowsSinkOnTheFirstFlowsFileFails() {
        Path file = dir.resolve("reused.ipc");
        IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close();
        Flow flow = Flow.start(Pipeline.of(Nodes.range(0, 10), IpcSink.open(file, IpcCodec.int64(), IpcOptions.defaults())));
        FlowException e = assertThrows(FlowException.class, () -> flow.join(Duration.ofSeconds(30)),
                "the flow ended normally, its ten items written to a file no receiver reads");
        assertInstanceOf(IpcPeerLostException.class, e.getCause());
    }
}
