package org.bbflow.bench.io;

import java.nio.file.Path;
import org.agrona.MutableDirectBuffer;
import org.bbflow.core.ipc.IpcCodec;
import org.bbflow.core.ipc.IpcSender;

/**
 * The producer process of {@link IpcBench}'s {@code ipc-process} case: writes {@code recordSize}-byte
 * records into the channel file until it is killed or the receiver goes away.
 */
public final class IpcBenchProducer {
    private IpcBenchProducer() {
    }

    /** Arguments: channel file, record size. */
    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int size = Integer.parseInt(args[1]);
        try (IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes())) {
            MutableDirectBuffer b = tx.buffer();
            byte[] payload = new byte[size];
            long seq = 0;
            for (;;) {
                int i = tx.claim(size); // throws once the receiver closed or died
                b.putBytes(i, payload);
                b.putLong(i, seq++);
                tx.commit(i);
            }
        }
    }
}
