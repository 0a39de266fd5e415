package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The wire protocol. Every frame is {@code int length | byte type | body}, length counting type and body.
 *
 * <pre>
 * server -> client  CHALLENGE  int magic, byte version, byte[16] serverNonce, long serverIncarnation[, identity job]
 * client -> server  HELLO      int magic, byte version, byte[16] clientNonce, long clientIncarnation, byte macLen, mac
 *                              [, identity job, identity member]
 * server -> client  WELCOME    byte macLen, mac
 * either            ERROR      utf8 reason (connection-level, then close)
 * either            PING       (heartbeat)
 * client -> server  ATTACH     int channel, long streamId, long resumeFrom (lowest item the sender still holds)
 * server -> client  ATTACHED   int channel, long nextSeq, long windowBytes
 * server -> client  REJECT     int channel, utf8 reason
 * client -> server  DATA       int channel, long firstSeq, int count, encoded items
 * server -> client  ACK        int channel, long consumedSeq
 * client -> server  EOS        int channel, long totalItems
 * server -> client  EOS_ACK    int channel
 * client -> server  ABORT      int channel, utf8 reason (the stream will not be finished)
 * client -> server  FAILED_EOS int channel, long totalItems, unsigned short length, utf8 description
 *                              (the stream ended after totalItems items, but with a failure)
 * </pre>
 * FAILED_EOS is the end of a stream whose sending flow was cut without being cancelled (its source
 * threw a {@code StreamFailure}): like EOS it comes after every item and is acknowledged by EOS_ACK,
 * and it is sent again after a reconnect until acknowledged, so the receiver gets every item and then
 * learns the stream failed; unlike ABORT it does not drop anything. Its description (what the sending
 * flow failed with) is at most {@link #MAX_FAILURE_BYTES} bytes, cut by the sender on a character
 * boundary; a frame whose length field is larger, or does not match the rest of the frame exactly, is
 * a protocol violation that closes the connection.
 * The MACs are HMAC-SHA256 over a direction label, both nonces and both incarnations, and the job and
 * member the client names when it names one; empty when no secret is set. An incarnation is a random
 * 64-bit id of one NetClient or NetServer instance; a peer that comes back with another one has
 * restarted and lost its stream state. An identity ({@code unsigned byte length, UTF-8}, at most
 * {@link #MAX_IDENTITY} bytes) is optional at the end of both frames, read as empty when absent: the
 * job a peer belongs to ({@link NetOptions#withIdentity}), and in the HELLO which member of the job
 * (group and generation) the client is. A peer of another job is refused before the MAC is checked,
 * so the refusal names both jobs whatever the secrets.
 */
final class Wire {
    private Wire() {}

    static final int MAGIC = 0x4242464E; // "BBFN"
    /**
     * 4: the FAILED_EOS frame. A version-3 peer does not know it: as a receiver it would close the
     * connection on the first one (an unexpected frame type), and the sender would reconnect and send
     * it again until its peer timeout, failing with a misleading reason; as a sender it could never
     * tell a cut stream from a whole one. So the handshake refuses the other version at once, naming
     * both ("unsupported protocol version"). 3: a DATA frame costs its payload plus
     * {@link #FRAME_ALLOWANCE} of the window (2 counted the payload only).
     */
    static final byte VERSION = 4;
    static final int NONCE = 16;
    /** The longest job or member identity, in UTF-8 bytes. */
    static final int MAX_IDENTITY = 64;

    /** Before the handshake completes no frame may be longer than this. */
    static final int MAX_HANDSHAKE_FRAME = 256;

    static final byte CHALLENGE = 1, HELLO = 2, WELCOME = 3, ERROR = 4, PING = 5;
    static final byte ATTACH = 10, ATTACHED = 11, REJECT = 12, DATA = 13, ACK = 14, EOS = 15, EOS_ACK = 16, ABORT = 17,
            FAILED_EOS = 18;

    /**
     * The longest description a FAILED_EOS frame carries, in UTF-8 bytes: the whole frame then stays
     * within the smallest maximum frame size a peer may set (1024 bytes, {@link NetOptions#withMaxFrameBytes}).
     */
    static final int MAX_FAILURE_BYTES = 1000;

    /** Bytes of a FAILED_EOS body before its description: channel, total items, description length. */
    static final int FAILED_EOS_HEADER = 4 + 8 + 2;

    /** Start of the REJECT reason for a channel id without inlet (yet): the sender retries until the peer timeout. */
    static final String NO_INLET = "no inlet with channel id ";

    /**
     * Start of the REJECT reason for an unproven sender incarnation (no secret, no client certificate)
     * that attaches to a stream whose sender is still connected: it retries until the peer timeout,
     * and gets in only once that connection is gone.
     */
    static final String OWNED_BY_CONNECTED_SENDER = "stream owned by a connected sender: ";

    /** Bytes of a DATA frame before its payload, including the length prefix. */
    static final int DATA_HEADER = 4 + 1 + 4 + 8 + 4;

    /**
     * What a DATA frame costs in a channel's window beyond its payload, on both ends: at least what
     * an end holds per frame besides the payload (its record, buffer view and queue node, about
     * 100-150 bytes on a 64-bit JVM), so that the memory a window lets a peer pin is bounded however
     * small its frames are.
     */
    static final int FRAME_ALLOWANCE = 256;

    private static final SecureRandom RANDOM = new SecureRandom();

    static long nonZeroRandom() {
        for (;;) {
            long x = RANDOM.nextLong();
            if (x != 0) return x;
        }
    }

    static String hex(long incarnation) {
        return String.format("%016x", incarnation);
    }

    /** Runs {@code task} on {@code loop}; if the loop has shut down (its client or server closed) the task is dropped. */
    static void run(io.netty.channel.EventLoop loop, Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // nothing left to do: the connection and its state are gone
        }
    }

    /**
     * Runs {@code task} on {@code loop}, or on the calling thread if the loop has stopped (then nothing
     * else touches the state it confines: e.g. buffers are still released).
     */
    static void runOrHere(io.netty.channel.EventLoop loop, Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            task.run();
        }
    }

    static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    static long randomLong() {
        return RANDOM.nextLong();
    }

    static byte[] mac(byte[] secret, String label, byte[] first, byte[] second, long serverIncarnation,
                      long clientIncarnation) {
        if (secret == null) return new byte[0];
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            mac.update(first);
            mac.update(second);
            mac.update(java.nio.ByteBuffer.allocate(16).putLong(serverIncarnation).putLong(clientIncarnation).array());
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * The MAC as above, also over the client's job and member when it names them (without them the
     * MAC is the one of a peer that names none).
     */
    static byte[] mac(byte[] secret, String label, byte[] first, byte[] second, long serverIncarnation,
                      long clientIncarnation, String job, String member) {
        if (secret == null) return new byte[0];
        if (job.isEmpty() && member.isEmpty()) {
            return mac(secret, label, first, second, serverIncarnation, clientIncarnation);
        }
        byte[] base = mac(secret, label, first, second, serverIncarnation, clientIncarnation);
        return mac(secret, label + "+identity", base, (job + "\n" + member).getBytes(StandardCharsets.UTF_8),
                serverIncarnation, clientIncarnation);
    }

    /** Writes an identity: its UTF-8 length as one unsigned byte, then the bytes. */
    static void writeIdentity(ByteBuf out, String id) {
        byte[] b = id.getBytes(StandardCharsets.UTF_8);
        out.writeByte(b.length).writeBytes(b);
    }

    /** Bytes {@link #writeIdentity} writes. */
    static int identityBytes(String id) {
        return 1 + id.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Reads an identity, or the empty one if the frame ends here (a peer that names none). */
    static String readIdentity(ByteBuf in) {
        if (!in.isReadable()) return "";
        int n = in.readUnsignedByte();
        need(in, n, "identity");
        String s = in.readCharSequence(n, StandardCharsets.UTF_8).toString();
        return printable(s, MAX_IDENTITY);
    }

    static boolean macMatches(byte[] expected, byte[] actual) {
        return expected.length == actual.length && MessageDigest.isEqual(expected, actual);
    }

    /** Allocates a frame with its length and type written; {@code bodyBytes} is the exact body size. */
    static ByteBuf frame(ByteBufAllocator alloc, byte type, int bodyBytes) {
        ByteBuf b = alloc.buffer(5 + bodyBytes);
        b.writeInt(1 + bodyBytes).writeByte(type);
        return b;
    }

    static ByteBuf control(ByteBufAllocator alloc, byte type, int channel) {
        return frame(alloc, type, 4).writeInt(channel);
    }

    static ByteBuf control(ByteBufAllocator alloc, byte type, int channel, long a) {
        return frame(alloc, type, 12).writeInt(channel).writeLong(a);
    }

    static ByteBuf control(ByteBufAllocator alloc, byte type, int channel, long a, long b) {
        return frame(alloc, type, 20).writeInt(channel).writeLong(a).writeLong(b);
    }

    static ByteBuf text(ByteBufAllocator alloc, byte type, int channel, String reason) {
        byte[] utf = reason.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(utf.length, 200);
        ByteBuf b = frame(alloc, type, (channel >= 0 ? 4 : 0) + len);
        if (channel >= 0) b.writeInt(channel);
        return b.writeBytes(utf, 0, len);
    }

    /**
     * {@code description} as UTF-8 of at most {@link #MAX_FAILURE_BYTES} bytes: a longer one is cut on
     * a character boundary and marked {@code ...(cut)}.
     */
    static byte[] failureText(String description) {
        byte[] utf = description.getBytes(StandardCharsets.UTF_8);
        if (utf.length <= MAX_FAILURE_BYTES) return utf;
        byte[] mark = "...(cut)".getBytes(StandardCharsets.US_ASCII);
        java.nio.ByteBuffer room = java.nio.ByteBuffer.allocate(MAX_FAILURE_BYTES - mark.length);
        // the encoder stops before a character that does not fit whole: no split multi-byte sequence
        StandardCharsets.UTF_8.newEncoder().encode(java.nio.CharBuffer.wrap(description), room, true);
        byte[] cut = java.util.Arrays.copyOf(room.array(), room.position() + mark.length);
        System.arraycopy(mark, 0, cut, room.position(), mark.length);
        return cut;
    }

    /** A FAILED_EOS frame: the end of a stream of {@code total} items that failed ({@code text} from {@link #failureText}). */
    static ByteBuf failedEos(ByteBufAllocator alloc, int channel, long total, byte[] text) {
        return frame(alloc, FAILED_EOS, FAILED_EOS_HEADER + text.length).writeInt(channel).writeLong(total)
                .writeShort(text.length).writeBytes(text);
    }

    /**
     * Reads the description that ends a FAILED_EOS frame (after its channel and total), made
     * {@linkplain #printable printable}. Its length must be at most {@link #MAX_FAILURE_BYTES} and
     * exactly what is left of the frame: anything else is a protocol violation, found before a byte
     * of the description is copied.
     */
    static String readFailure(ByteBuf in) {
        need(in, 2, "FAILED_EOS");
        int n = in.readUnsignedShort();
        if (n > MAX_FAILURE_BYTES) {
            throw new ProtocolException("FAILED_EOS description of " + n + " bytes, at most " + MAX_FAILURE_BYTES);
        }
        if (in.readableBytes() != n) {
            throw new ProtocolException("FAILED_EOS frame with " + in.readableBytes() + " bytes of description, its"
                    + " length says " + n);
        }
        String s = in.readCharSequence(n, StandardCharsets.UTF_8).toString();
        return printable(s, MAX_FAILURE_BYTES);
    }

    /** Longest text from a peer (reason of ERROR, REJECT, ABORT) that is kept, in characters. */
    static final int MAX_TEXT = 200;

    /** Reads the rest of {@code in} as a peer's text, made {@linkplain #printable printable} and capped. */
    static String readText(ByteBuf in) {
        int n = in.readableBytes();
        String s = in.toString(in.readerIndex(), Math.min(n, 4 * MAX_TEXT), StandardCharsets.UTF_8);
        in.skipBytes(n);
        return printable(s, n > 4 * MAX_TEXT ? 0 : MAX_TEXT);
    }

    /**
     * Text from a peer made safe to log and show: characters other than printable ASCII become
     * {@code '?'}, and at most {@code max} are kept (0: the text was longer than allowed anyway).
     */
    static String printable(String s, int max) {
        int keep = max == 0 ? MAX_TEXT : Math.min(s.length(), max);
        boolean cut = max == 0 || s.length() > keep;
        StringBuilder b = new StringBuilder(keep + 24);
        for (int i = 0; i < keep && i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        if (cut) b.append("...(cut)");
        return b.toString();
    }

    static ByteBuf dataHeader(ByteBufAllocator alloc, int channel, long firstSeq, int count, int payloadBytes) {
        ByteBuf b = alloc.buffer(DATA_HEADER);
        return b.writeInt(DATA_HEADER - 4 + payloadBytes).writeByte(DATA).writeInt(channel).writeLong(firstSeq)
                .writeInt(count);
    }

    static void need(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes) {
            throw new ProtocolException(what + " frame too short: " + in.readableBytes() + " bytes, need " + bytes);
        }
    }

    /**
     * Splits the stream into frames (retained slices without the length prefix) and rejects bad
     * lengths. A frame kept after it is handled pins the whole buffer it was sliced from:
     * {@link #pinnedCapacity()} tells how large that is.
     */
    static final class FrameDecoder extends ByteToMessageDecoder {
        private int maxFrame = MAX_HANDSHAKE_FRAME;
        private int pinnedCapacity;

        void handshakeDone(int maxFrameBytes) {
            maxFrame = maxFrameBytes;
        }

        /** The capacity of the buffer the frames being handled were sliced from. */
        int pinnedCapacity() {
            return pinnedCapacity;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            pinnedCapacity = in.capacity(); // frames are handed on before the next call
            while (in.readableBytes() >= 4) {
                int len = in.getInt(in.readerIndex());
                if (len < 1 || len > maxFrame) {
                    throw new ProtocolException("frame length " + len + " outside 1.." + maxFrame);
                }
                if (in.readableBytes() < 4 + len) return;
                in.skipBytes(4);
                out.add(in.readRetainedSlice(len));
            }
        }
    }

    /** A violation of the protocol by the peer; closes that connection. */
    static final class ProtocolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message, null, false, false);
        }
    }
}
