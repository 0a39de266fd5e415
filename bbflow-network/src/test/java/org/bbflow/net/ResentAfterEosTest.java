package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sender that resends items the receiver already has (after a reconnect, or an ATTACHED reply
 * that crossed its stream) may do so after its end of stream: those frames are duplicates to drop,
 * not a protocol violation. Seen in a distributed job: a resent frame that reached a group after the
 * master's end of stream made the group reject the master's whole connection ("data after end of
 * stream"), fail its other channels and exit with "lost the master" although the job was exact.
 * New items after the end of stream are still refused.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResentAfterEosTest {
    private static final int CH = 77;

    private static ByteBuffer attach(ByteBuffer b) {
        return b.putInt(AbusivePeerTest.ATTACH_BYTES - 4).put(Wire.ATTACH).putInt(CH).putLong(9).putLong(0);
    }

    private static ByteBuffer data(ByteBuffer b, long first, long... values) {
        b.putInt(1 + 4 + 8 + 4 + 8 * values.length).put(Wire.DATA).putInt(CH).putLong(first).putInt(values.length);
        for (long v : values) b.putLong(v);
        return b;
    }

    private static ByteBuffer eos(ByteBuffer b, long total) {
        return b.putInt(1 + 4 + 8).put(Wire.EOS).putInt(CH).putLong(total);
    }

    /** ATTACH, items 10, 11, 12, and the end of stream after 3 items; room for more frames after them. */
    private static ByteBuffer endedStream() {
        ByteBuffer b = ByteBuffer.allocate(512);
        attach(b);
        data(b, 0, 10, 11, 12);
        return eos(b, 3);
    }

    /** Whether the server still holds the connection: reading its replies ends in a time-out, not an end. */
    private static boolean stillOpen(Socket s) throws Exception {
        s.setSoTimeout(500);
        InputStream in = s.getInputStream();
        try {
            for (int i = 0; i < 1 << 16; i++) {
                if (in.read() < 0) return false;      // closed by the server
            }
            return true;
        } catch (SocketTimeoutException quiet) {
            return true;
        } catch (java.io.IOException reset) {
            return false;
        }
    }

    @Test
    void itemsResentAfterTheEndOfStreamAreDroppedAsDuplicates() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket s = FuzzTest.handshake(server.port());
             RemoteInlet<Long> in = server.inlet(CH, Codec.longs())) {
            ByteBuffer b = endedStream();
            data(b, 0, 10, 11, 12);                   // the same items again, after the end
            data(b, 1, 11, 12);
            s.getOutputStream().write(b.array(), 0, b.position());
            assertEquals(10L, in.take());
            assertEquals(11L, in.take());
            assertEquals(12L, in.take());
            assertNull(in.take(), "a clean end of stream");
            assertEquals(true, stillOpen(s), "the connection was rejected for a duplicate");
        }
    }

    @Test
    void newItemsAfterTheEndOfStreamAreStillAProtocolError() throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             Socket s = FuzzTest.handshake(server.port());
             RemoteInlet<Long> in = server.inlet(CH, Codec.longs())) {
            ByteBuffer b = endedStream();
            data(b, 3, 13);                           // an item the stream never had
            s.getOutputStream().write(b.array(), 0, b.position());
            s.setSoTimeout(5000);
            InputStream is = s.getInputStream();
            assertThrows(Exception.class, () -> {
                while (is.read() >= 0) { }            // replies, then the server closes the connection
                throw new java.io.EOFException("closed by the server");
            });
        }
    }
}
