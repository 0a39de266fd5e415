package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.bbflow.core.CollectorSink;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.StreamFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stream cut by a {@link StreamFailure} in the sending flow crosses the wire as a failed end
 * (FAILED_EOS): the receiving flow gets every item and then fails without cancelling, as the sending
 * one did. Left open until now: the outlet sent a plain end of stream, and a collecting sink in the
 * receiving flow published the result of the cut stream as if it were whole.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteStreamFailureTest {
    private static final long N = 10_000;

    /** The receiving flow: the inlet, a sink that counts and sums, and a collecting sink beside it. */
    private record Receiver(Flow flow, AtomicLong count, AtomicLong sum, CollectorSink<Long, Long> collector) {
        static Receiver start(NetServer server, int channel) {
            AtomicLong count = new AtomicLong();
            AtomicLong sum = new AtomicLong();
            CollectorSink<Long, Long> collector = Nodes.collect(Collectors.summingLong((Long x) -> x));
            Flow flow = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, channel, Codec.longs()), Nodes.map((Long x) -> {
                count.incrementAndGet();
                sum.addAndGet(x);
                return x;
            }), collector).named("receiver"));
            return new Receiver(flow, count, sum, collector);
        }
    }

    @Test
    void aStreamCutInTheSendingFlowFailsTheReceivingFlowAfterEveryItem() throws Exception {
        IllegalStateException boom = new IllegalStateException("source broke after " + N + " items");
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            Receiver r = Receiver.start(server, 1);
            Flow sender = Flow.start(Pipeline.of(Nodes.<Long>source(o -> {
                for (long i = 1; i <= N; i++) o.send(i);
                throw new StreamFailure(boom);
            }), RemoteBlocks.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults())).named("sender"));
            FlowException sent = assertThrows(FlowException.class, sender::join);
            assertSame(boom, sent.getCause(), "the sending flow fails with its source's error");

            FlowException e = assertThrows(FlowException.class, r.flow()::join, "the receiving flow fails too");
            assertEquals(N, r.count().get(), "every item the sender sent reached the receiving flow's sink");
            assertEquals(N * (N + 1) / 2, r.sum().get());
            RemoteStreamFailedException cut = assertInstanceOf(RemoteStreamFailedException.class, e.getCause(), e::toString);
            assertEquals(1, cut.channelId());
            assertEquals(N, cut.items());
            assertTrue(cut.getMessage().contains("channel 1"), cut::getMessage);
            assertTrue(cut.senderFailure().contains("source broke after " + N + " items"), cut::senderFailure);
            assertTrue(cut.senderFailure().contains("sender/"), "names the sending node: " + cut.senderFailure());
            String m = assertThrows(IllegalStateException.class, r.collector()::result, "a result of a cut stream").getMessage();
            assertTrue(m.contains("no result"), m);
        }
        LeakCheck.assertNoLeaks();
    }

    /** The same pair over a whole stream: the receiving flow succeeds and the collector holds the sum. */
    @Test
    void aWholeStreamStillEndsTheReceivingFlowCleanly() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            Receiver r = Receiver.start(server, 1);
            Flow.start(Pipeline.of(Nodes.range(1, N),
                    RemoteBlocks.outlet("127.0.0.1", server.port(), 1, Codec.longs(), NetOptions.defaults()))).join();
            r.flow().join();
            assertEquals(N * (N + 1) / 2, r.collector().result());
        }
    }

    /**
     * The acknowledgement of the failed end is lost and the connection cut: the sender re-attaches and
     * sends the failed end again, which is acknowledged, and the receiver saw every item once and the
     * failure once (the exactly-once machinery of a clean end, LostEosAckTest, holds for a failed one).
     * With {@code closeInletFirst} the receiver has closed its inlet before the resend (the server
     * acknowledges from its record of finished streams); without, the resend reaches the open inlet,
     * which already has its failed end and keeps it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailedEndWhoseAcknowledgementIsLostIsSentAgainAndAcknowledged(boolean closeInletFirst) throws Exception {
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(4));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts);
            out.sendLong(0);
            assertEquals(0L, in.take()); // attached through the proxy
            proxy.loseReplies();         // from here the server's answers, the EOS acknowledgement too, are lost
            for (long i = 1; i < 1000; i++) out.sendLong(i);
            CompletableFuture<Void> completed = CompletableFuture.runAsync(() -> out.completeWithFailure("cut by the test"));
            long[] k = {1};
            RemoteStreamFailedException e = assertThrows(RemoteStreamFailedException.class, () -> {
                for (Long x; (x = in.take()) != null; k[0]++) assertEquals(k[0], x);
            });
            assertEquals(1000, k[0], "every item came before the failed end");
            assertEquals(1000, e.items());
            assertEquals("cut by the test", e.senderFailure());
            if (closeInletFirst) in.close();
            proxy.cut();  // the connection drops before the sender heard the acknowledgement
            completed.get(30, TimeUnit.SECONDS); // the sender re-attaches, sends the failed end again, is acknowledged
            assertTrue(proxy.connectionsAccepted() >= 2, "the sender reconnected");
            if (!closeInletFirst) {
                assertSame(e, assertThrows(RemoteStreamFailedException.class, in::take), "the failed end, once");
                assertTrue(in.isEos());
                in.close();
            }
        }
    }

    /**
     * The failed end itself is lost on the way (held by a frozen proxy, then the connection cut): the
     * sender re-attaches and sends it again, and the receiver gets every item and then the failed end,
     * not a clean one.
     */
    @Test
    void aFailedEndLostWithItsConnectionIsSentAgainAsAFailedEnd() throws Exception {
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(10));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             TestProxy proxy = new TestProxy(server.port())) {
            RemoteInlet<Long> in = server.inlet(1, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", proxy.port(), 1, Codec.longs(), opts);
            for (long i = 0; i < 1000; i++) out.sendLong(i);
            for (long i = 0; i < 1000; i++) assertEquals(i, in.take()); // every item arrived through the proxy
            proxy.freeze(); // from here what the sender writes is read by the proxy and held
            long before = proxy.bytesFromClients();
            String description = "cut by the test";
            int frame = 4 + 1 + Wire.FAILED_EOS_HEADER + description.length();
            CompletableFuture<Void> completed = CompletableFuture.runAsync(() -> out.completeWithFailure(description));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (proxy.bytesFromClients() - before < frame && System.nanoTime() < deadline) Thread.onSpinWait();
            assertTrue(proxy.bytesFromClients() - before >= frame, "the failed end reached the proxy");
            proxy.cutAndThaw(); // ... and is lost with the connection
            RemoteStreamFailedException e = assertThrows(RemoteStreamFailedException.class, in::take,
                    "after a reconnect the end arrives, as a failed one");
            assertEquals(1000, e.items());
            assertEquals(description, e.senderFailure());
            completed.get(30, TimeUnit.SECONDS);
            assertTrue(proxy.connectionsAccepted() >= 2, "the sender reconnected");
            in.close();
        }
    }

    /** Reads frames until the server's ERROR frame (returns its text) or the end of the connection (returns null). */
    static String errorFrom(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        try {
            for (;;) {
                int len = in.readInt();
                byte[] body = new byte[len];
                in.readFully(body);
                if (body[0] == Wire.ERROR) return new String(body, 1, len - 1, StandardCharsets.UTF_8);
            }
        } catch (EOFException closed) {
            return null;
        }
    }

    /** ATTACH of channel {@code ch} (stream 9, from item 0), then {@code tail}. */
    private static void attachThen(Socket s, int ch, byte[] tail) throws IOException {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(AbusivePeerTest.ATTACH_BYTES - 4);
        out.writeByte(Wire.ATTACH);
        out.writeInt(ch);
        out.writeLong(9);
        out.writeLong(0);
        out.write(tail);
        out.flush();
    }

    /** A FAILED_EOS frame of channel {@code ch} after 0 items, whose description length field says {@code declared}. */
    private static byte[] failedEos(int ch, int declared, int actualBytes) throws IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(b);
        out.writeInt(1 + Wire.FAILED_EOS_HEADER + actualBytes);
        out.writeByte(Wire.FAILED_EOS);
        out.writeInt(ch);
        out.writeLong(0);
        out.writeShort(declared);
        out.write(new byte[actualBytes]);
        return b.toByteArray();
    }

    @Test
    void malformedFailedEndsCloseTheConnectionWithAClearReason() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            for (int ch = 20; ch < 24; ch++) server.inlet(ch, Codec.longs());
            // a description longer than the protocol allows, though the frame itself is consistent
            try (Socket s = FuzzTest.handshake(server.port())) {
                attachThen(s, 20, failedEos(20, 60_000, 60_000));
                String reason = errorFrom(s);
                assertNotNull(reason, "the server closed without a reason");
                assertTrue(reason.contains("FAILED_EOS description of 60000 bytes, at most " + Wire.MAX_FAILURE_BYTES), reason);
            }
            // the length field promises more than the frame holds
            try (Socket s = FuzzTest.handshake(server.port())) {
                attachThen(s, 21, failedEos(21, 100, 10));
                String reason = errorFrom(s);
                assertNotNull(reason);
                assertTrue(reason.contains("FAILED_EOS frame with 10 bytes of description, its length says 100"), reason);
            }
            // and less (bytes trailing the description)
            try (Socket s = FuzzTest.handshake(server.port())) {
                attachThen(s, 22, failedEos(22, 3, 10));
                String reason = errorFrom(s);
                assertNotNull(reason);
                assertTrue(reason.contains("its length says 3"), reason);
            }
            // too short for its header
            try (Socket s = FuzzTest.handshake(server.port())) {
                java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(b);
                out.writeInt(1 + 4 + 8);
                out.writeByte(Wire.FAILED_EOS);
                out.writeInt(23);
                out.writeLong(0);
                attachThen(s, 23, b.toByteArray());
                String reason = errorFrom(s);
                assertNotNull(reason);
                assertTrue(reason.contains("FAILED_EOS frame too short"), reason);
            }
            AbusivePeerTest.honestStream(server, 1, 10_000); // the server still serves
        }
    }

    /** A peer of protocol version 3, which knows no FAILED_EOS, is refused at its HELLO, naming both versions. */
    @Test
    void aPeerOfTheVersionBeforeTheFailedEndIsRefusedAtItsHello() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(5000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] challenge = new byte[in.readInt()];
            in.readFully(challenge);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(1 + 4 + 1 + 16 + 8 + 1);
            out.writeByte(Wire.HELLO);
            out.writeInt(Wire.MAGIC);
            out.writeByte(3);
            out.write(new byte[16]);
            out.writeLong(1);
            out.writeByte(0);
            out.flush();
            String reason = errorFrom(s);
            assertNotNull(reason);
            assertTrue(reason.contains("unsupported protocol version 3, this end speaks 4"), reason);
        }
    }

    /**
     * A long description is cut so that the failed end fits the smallest maximum frame a peer may set
     * (1024 bytes): a larger frame would close the connection again on every resend, and the sender
     * would wait out its peer timeout.
     */
    @Test
    void aLongDescriptionIsCutToFitTheSmallestFrame() throws Exception {
        NetOptions small = NetOptions.defaults().withMaxFrameBytes(1024).withPeerTimeout(Duration.ofSeconds(10));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, small)) {
            RemoteInlet<Long> in = server.inlet(3, Codec.longs());
            RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 3, Codec.longs(), small);
            out.sendLong(7);
            CompletableFuture<Void> completed = CompletableFuture.runAsync(() -> out.completeWithFailure("x".repeat(5000)));
            assertEquals(7L, in.take());
            RemoteStreamFailedException e = assertThrows(RemoteStreamFailedException.class, in::take);
            assertTrue(e.senderFailure().endsWith("...(cut)"), e::senderFailure);
            assertTrue(e.senderFailure().length() <= Wire.MAX_FAILURE_BYTES, () -> e.senderFailure().length() + " chars");
            completed.get(20, TimeUnit.SECONDS);
            in.close();
        }
    }

    @Test
    void aLongDescriptionIsCutOnACharacterBoundary() {
        String d = "é".repeat(2000); // two bytes each
        byte[] cut = Wire.failureText(d);
        assertTrue(cut.length <= Wire.MAX_FAILURE_BYTES, cut.length + " bytes");
        String back = new String(cut, StandardCharsets.UTF_8);
        assertTrue(back.endsWith("...(cut)"), back);
        assertFalse(back.contains("\uFFFD"), "a split character");
        assertArrayEquals("short".getBytes(StandardCharsets.UTF_8), Wire.failureText("short"));
    }
}
