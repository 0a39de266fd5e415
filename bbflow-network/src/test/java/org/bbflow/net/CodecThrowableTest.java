package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A codec may throw anything, not only a {@link RuntimeException}: an {@link Error} (an
 * {@code assert}, an {@code OutOfMemoryError} while allocating an item) or a checked exception
 * (a codec written in Kotlin, or one that rethrows an {@code IOException} unchecked by a generic
 * trick). Half an item must never reach the stream, and a decoder that fails half way through an
 * item must never leave the inlet reading from the middle of it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CodecThrowableTest {

    /** Throws {@code t} without declaring it (as a Kotlin codec may throw an IOException). */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Two longs per item; encode fails after the first long of an item whose second is negative. */
    static final class ThrowingCodec implements Codec<long[]> {
        private final Throwable onEncode;
        private final Throwable onDecode;

        ThrowingCodec(Throwable onEncode, Throwable onDecode) {
            this.onEncode = onEncode;
            this.onDecode = onDecode;
        }

        @Override
        public void encode(long[] item, ByteBuf out) {
            out.writeLong(item[0]);
            if (item[1] < 0 && onEncode != null) throw sneaky(onEncode);
            out.writeLong(item[1]);
        }

        @Override
        public long[] decode(ByteBuf in) {
            long a = in.readLong();
            if (a == 3 && onDecode != null) throw sneaky(onDecode); // half way through the item
            return new long[] {a, in.readLong()};
        }

        @Override
        public int maxEncodedSize(long[] item) {
            return 16;
        }
    }

    private static void encodeFailureLeavesNoBytes(Throwable thrown) {
        ThrowingCodec codec = new ThrowingCodec(thrown, null);
        List<long[]> got = new ArrayList<>();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<long[]> out = NetClient.outlet("127.0.0.1", server.port(), 21, codec, NetOptions.defaults())) {
            RemoteInlet<long[]> in = server.inlet(21, codec);
            out.send(new long[] {1, 2});
            Throwable t = assertThrows(Throwable.class, () -> out.send(new long[] {3, -1}));
            assertSame(thrown, t);
            out.send(new long[] {5, 6});
            out.complete();
            for (long[] x; (x = in.take()) != null; ) got.add(x);
            in.close();
        }
        assertEquals(2, got.size(), "items received");
        assertArrayEquals(new long[] {1, 2}, got.get(0));
        assertArrayEquals(new long[] {5, 6}, got.get(1));
    }

    @Test
    void anEncoderThrowingAnErrorLeavesNoBytesBehind() {
        encodeFailureLeavesNoBytes(new AssertionError("encoder assertion"));
    }

    @Test
    void anEncoderThrowingACheckedExceptionLeavesNoBytesBehind() {
        encodeFailureLeavesNoBytes(new IOException("encoder I/O"));
    }

    /**
     * Items 1, 3, 5: the decoder fails half way through item 3. The inlet must fail for good (every
     * later take throws a RemoteChannelException, never an item decoded from the middle of item 3),
     * and the sender must be told.
     */
    private static void decodeFailureFailsTheStream(Throwable thrown) {
        ThrowingCodec codec = new ThrowingCodec(null, thrown);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             RemoteOutlet<long[]> out = NetClient.outlet("127.0.0.1", server.port(), 22, codec, NetOptions.defaults())) {
            RemoteInlet<long[]> in = server.inlet(22, codec);
            out.send(new long[] {1, 2});
            out.send(new long[] {3, 4});
            out.send(new long[] {5, 6});
            out.stopSending(); // one frame of three items
            assertArrayEquals(new long[] {1, 2}, in.take());
            Throwable first = assertThrows(Throwable.class, in::take);
            assertTrue(first == thrown || first.getCause() == thrown || first.getMessage().contains(thrown.toString()),
                    "the decoder's failure is what the consumer sees, or its cause: " + first);
            for (int i = 0; i < 3; i++) {
                Throwable later = assertThrows(Throwable.class, in::take,
                        "take() after a failed decode returned an item instead of failing");
                assertInstanceOf(RemoteChannelException.class, later, "take() after a failed decode");
                assertTrue(later.getMessage().contains("malformed"), later.getMessage());
            }
            assertFalse(in.isEos());
            // the sender hears that the receiver refused the stream, instead of waiting for its end
            RemoteChannelException refused = assertThrows(RemoteChannelException.class, out::complete);
            assertTrue(refused.getMessage().contains("malformed"), refused.getMessage());
            in.close();
        }
    }

    /**
     * The receiver found a malformed item before the sender completed: the sender's complete() must
     * fail, never return as if the receiver had the stream. The loop used to read the sender's end of
     * stream before it ran the task that rejects the connection (I/O before tasks) and acknowledged
     * it: complete() returned normally in about one run out of six. Forty runs, each must be refused.
     */
    @Test
    void aSenderCompletingAfterAMalformedItemIsRefusedEveryTime() {
        for (int run = 0; run < 40; run++) {
            ThrowingCodec codec = new ThrowingCodec(null, new IllegalArgumentException("decoder refuses"));
            try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
                 RemoteOutlet<long[]> out = NetClient.outlet("127.0.0.1", server.port(), 23, codec, NetOptions.defaults())) {
                RemoteInlet<long[]> in = server.inlet(23, codec);
                out.send(new long[] {1, 2});
                out.send(new long[] {3, 4});
                out.stopSending();
                assertArrayEquals(new long[] {1, 2}, in.take());
                assertThrows(RemoteChannelException.class, in::take);
                int r = run;
                RemoteChannelException refused = assertThrows(RemoteChannelException.class, out::complete,
                        () -> "run " + r + ": complete() returned although the receiver failed the stream as malformed");
                assertTrue(refused.getMessage().contains("malformed"), refused.getMessage());
                in.close();
            }
        }
    }

    @Test
    void aDecoderThrowingAnErrorFailsTheStream() {
        decodeFailureFailsTheStream(new AssertionError("decoder assertion"));
    }

    @Test
    void aDecoderThrowingACheckedExceptionFailsTheStream() {
        decodeFailureFailsTheStream(new IOException("decoder I/O"));
    }

    @Test
    void aDecoderThrowingARuntimeExceptionFailsTheStream() {
        decodeFailureFailsTheStream(new IllegalArgumentException("decoder refuses"));
    }
}
