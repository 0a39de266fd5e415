package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two (or three) JVMs exchanging records over a memory-mapped channel file. */
class IpcTwoProcessTest {
    @TempDir
    Path dir;

    static Process startPeer(String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx64m", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            IpcTestPeer.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void awaitLine(Process p, String expected) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (line.startsWith(expected)) {
                return;
            }
        }
        throw new AssertionError("peer ended without printing " + expected + ", exit " + waitExit(p));
    }

    private static int waitExit(Process p) {
        try {
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void destroy(Process p) throws InterruptedException {
        if (p != null) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Checks order, checksum and exactly-once per producer. */
    static final class Checker implements org.bbflow.core.ipc.IpcRecordHandler {
        final long[] next;
        Checker(int producers) {
            next = new long[producers];
        }

        @Override
        public void onRecord(int producer, DirectBuffer buffer, int offset, int length) {
            if (length != 16) {
                throw new AssertionError("record of " + length + " bytes");
            }
            long seq = buffer.getLong(offset);
            long check = buffer.getLong(offset + 8);
            if (seq != next[producer]) {
                throw new AssertionError("producer " + producer + ": got seq " + seq + ", expected " + next[producer]);
            }
            if (check != IpcTestPeer.check(producer, seq)) {
                throw new AssertionError("producer " + producer + ": bad checksum at seq " + seq);
            }
            next[producer]++;
        }
    }

    private static void drainAll(IpcReceiver<?> rx, IpcRecordHandler h) {
        IdleStrategy idle = new BackoffIdleStrategy();
        while (!rx.isEos()) {
            if (rx.read(h, 4096) == 0) {
                idle.idle();
            } else {
                idle.reset();
            }
        }
    }

    private void exchange(int producers, long total) throws Exception {
        Path file = dir.resolve("chan-" + producers);
        long each = total / producers;
        List<Process> peers = new ArrayList<>();
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(),
                IpcOptions.defaults().withCapacity(1 << 20).withProducers(producers))) {
            for (int i = 0; i < producers; i++) {
                peers.add(startPeer("produce", file.toString(), Long.toString(each)));
            }
            Checker c = new Checker(producers);
            drainAll(rx, c);
            for (int i = 0; i < producers; i++) {
                assertEquals(each, c.next[i], "records of producer " + i);
                assertEquals(each, rx.received(i));
            }
            assertEquals(each * producers, rx.received());
            assertEquals(0, rx.lostProducers());
            for (Process p : peers) {
                assertEquals(0, waitExit(p), "producer exit code");
            }
        } finally {
            for (Process p : peers) {
                destroy(p);
            }
        }
    }

    @Test
    @Timeout(180)
    void tenMillionRecordsOneProducerInOrderExactlyOnce() throws Exception {
        exchange(1, 10_000_000L);
    }

    @Test
    @Timeout(180)
    void tenMillionRecordsTwoProducersInOrderPerProducerExactlyOnce() throws Exception {
        exchange(2, 10_000_000L);
    }

    @Test
    @Timeout(60)
    void producerKilledMidClaimOneToOneEndsWithClearError() throws Exception {
        Path file = dir.resolve("kill-1");
        Process p = null;
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(),
                IpcOptions.defaults().withPeerTimeout(Duration.ofMillis(200)))) {
            p = startPeer("claim-and-hang", file.toString(), "1000");
            awaitLine(p, "CLAIMED");
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            Checker c = new Checker(1);
            IpcPeerLostException e = assertThrows(IpcPeerLostException.class, () -> drainAll(rx, c));
            assertEquals(1000, c.next[0]);
            assertTrue(e.getMessage().contains("producer 0"), e.getMessage());
            assertTrue(e.getMessage().contains("after 1000 records"), e.getMessage());
            assertEquals(1, rx.lostProducers());
        } finally {
            destroy(p);
        }
    }

    @Test
    @Timeout(60)
    void producerKilledMidClaimManyToOneIsSkippedAndOthersDelivered() throws Exception {
        Path file = dir.resolve("kill-2");
        Process p = null;
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(),
                IpcOptions.defaults().withProducers(2).withPeerTimeout(Duration.ofMillis(200)).withEndOnProducerLoss(true))) {
            p = startPeer("claim-and-hang", file.toString(), "5000");
            awaitLine(p, "CLAIMED");
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            // The live producer writes behind the dead producer's unfinished claim.
            Thread live = new Thread(() -> {
                try (IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes())) {
                    IpcTestPeer.produce(tx, 200_000);
                }
            });
            live.start();
            Checker c = new Checker(2);
            drainAll(rx, c);
            live.join();
            assertEquals(5000, c.next[0]);
            assertEquals(200_000, c.next[1]);
            assertEquals(1, rx.lostProducers());
            assertEquals(1, rx.skippedClaims());
            assertTrue(rx.isEos());
        } finally {
            destroy(p);
        }
    }

    @Test
    @Timeout(60)
    void receiverKilledWhileProducerWaitsGivesClearError() throws Exception {
        Path file = dir.resolve("kill-rx");
        Process p = null;
        try {
            p = startPeer("consume-and-hang", file.toString(), "4096");
            awaitLine(p, "READY");
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64(),
                    IpcOptions.defaults().withPeerTimeout(Duration.ofMillis(200)))) {
                long sent = 0;
                while (tx.offer(sent)) {
                    sent++;
                }
                assertTrue(sent > 0);
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                IpcPeerLostException e = assertThrows(IpcPeerLostException.class, () -> tx.send(-1L));
                assertTrue(e.getMessage().contains("died"), e.getMessage());
            }
        } finally {
            destroy(p);
        }
    }

    /**
     * A channel file whose receiver is alive in another process is not replaced (that receiver and its
     * senders would be cut off without a word); once that process died, its file is replaced.
     */
    @Test
    @Timeout(60)
    void creatingOverAnotherProcesssLiveReceiverIsRefusedAndAfterItDiedSucceeds() throws Exception {
        Path file = dir.resolve("taken");
        Process p = null;
        try {
            p = startPeer("consume-and-hang", file.toString(), "4096");
            awaitLine(p, "READY");
            IpcException e = assertThrows(IpcException.class,
                () -> IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close());
            assertTrue(e.getMessage().contains("live receiver") && e.getMessage().contains(file.toString()),
                e.getMessage());
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close();
        } finally {
            destroy(p);
        }
    }

    /**
     * POSIX drops every lock a process holds on a file when it closes any descriptor of that file: a
     * sender closing in a JVM must not make the other endpoints of that JVM look dead to the others.
     */
    @Test
    @Timeout(60)
    void closingOneSenderDoesNotMakeItsNeighbourInTheSameJvmLookDead() throws Exception {
        Path file = dir.resolve("neighbours");
        Process p = null;
        try (IpcReceiver<byte[]> rx = IpcReceiver.create(file, IpcCodec.bytes(),
                IpcOptions.defaults().withProducers(2).withPeerTimeout(Duration.ofMillis(100)))) {
            p = startPeer("two-close-one", file.toString(), "1000");
            Checker c = new Checker(2);
            drainAll(rx, c); // today: IpcPeerLostException, the quiet second sender taken for dead
            assertEquals(1, c.next[0]);
            assertEquals(2, c.next[1]);
            assertEquals(0, rx.lostProducers());
            assertEquals(0, waitExit(p), "producer exit code");
        } finally {
            destroy(p);
        }
    }

    private static String output(Process p) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        assertEquals(0, waitExit(p), "probe exit code");
        return line;
    }

    /**
     * Neither a sender's close, nor an open on an interrupted thread (a cancelled flow's sink), nor a
     * failed open in the receiver's JVM may release the liveness locks of the other endpoints there.
     */
    @Test
    @Timeout(60)
    void endpointsOfOneJvmKeepTheirLivenessLocksWhenAnotherClosesOrFailsToOpen() throws Exception {
        Path file = dir.resolve("locks");
        int before = OpenFiles.openCount();
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withProducers(3))) {
            IpcSender.open(file, IpcCodec.int64()).close();
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                assertEquals(1, tx.producerId());
                Thread.currentThread().interrupt();
                IpcSender<Long> interrupted;
                try {
                    interrupted = IpcSender.open(file, IpcCodec.int64());
                    assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt is kept");
                } finally {
                    Thread.interrupted();
                }
                try (interrupted) {
                    IpcException full = assertThrows(IpcException.class, () -> IpcSender.open(file, IpcCodec.int64()));
                    assertTrue(full.getMessage().contains("are taken"), full.getMessage());
                    assertEquals("consumer-dead=false producer-dead=false", output(startPeer("probe", file.toString(), "1")));
                    assertEquals(before + 1, OpenFiles.openCount(), "one descriptor for the file in this JVM");
                    interrupted.send(7L);
                    tx.send(8L);
                }
            }
            assertEquals(7L, rx.take());
            assertEquals(8L, rx.take());
            assertEquals(null, rx.take());
            assertEquals(0, rx.lostProducers());
        }
        assertEquals(before, OpenFiles.openCount(), "the descriptor is closed with the last endpoint");
        assertEquals("consumer-dead=true producer-dead=true", output(startPeer("probe", file.toString(), "1")));
    }
}
