package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The raw claim/commit and read paths allocate nothing per record (thread allocation counter). */
class IpcAllocationTest {
    @TempDir
    Path dir;

    static final class Sum implements IpcRecordHandler {
        long sum;
        long count;

        @Override
        public void onRecord(int producer, DirectBuffer buffer, int offset, int length) {
            sum += buffer.getLong(offset);
            count++;
        }
    }

    private static long allocated() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static void roundTrips(IpcSender<Long> tx, IpcReceiver<Long> rx, Sum h, Long boxed, int n) {
        for (int i = 0; i < n; i++) {
            int idx = tx.tryClaim(16);
            tx.buffer().putLong(idx, i);
            tx.commit(idx);
            tx.offer(boxed); // codec path with an existing user object
            rx.read(h, 4); // a read stops at the end of the ring, so allow catching up
        }
    }

    @Test
    void steadyStateSendAndReceiveAllocateNothing() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        Path file = dir.resolve("alloc");
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(1 << 16));
             IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
            Sum h = new Sum();
            Long boxed = 1234567L;
            roundTrips(tx, rx, h, boxed, 200_000); // warm-up, JIT
            long before = allocated();
            roundTrips(tx, rx, h, boxed, 200_000);
            long bytes = allocated() - before;
            assertEquals(800_000, h.count);
            assertTrue(bytes < 4096, "allocated " + bytes + " bytes for 400000 records");
        }
    }
}
