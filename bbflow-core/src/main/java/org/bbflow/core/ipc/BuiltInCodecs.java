package org.bbflow.core.ipc;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** The built-in codecs. */
final class BuiltInCodecs {
    private BuiltInCodecs() {
    }

    static final IpcCodec<Long> INT64 = new IpcCodec<>() {
        @Override
        public int encodedLength(Long item) {
            return 8;
        }

        @Override
        public void encode(Long item, MutableDirectBuffer buffer, int offset) {
            buffer.putLong(offset, item, ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public Long decode(DirectBuffer buffer, int offset, int length) {
            if (length != 8) {
                throw new IpcException("int64 codec: record of " + length + " bytes, expected 8");
            }
            return buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public String recordFormat() {
            return "int64";
        }

        @Override
        public String toString() {
            return "int64";
        }
    };

    static final IpcCodec<byte[]> BYTES = new IpcCodec<>() {
        @Override
        public int encodedLength(byte[] item) {
            return item.length;
        }

        @Override
        public void encode(byte[] item, MutableDirectBuffer buffer, int offset) {
            buffer.putBytes(offset, item);
        }

        @Override
        public byte[] decode(DirectBuffer buffer, int offset, int length) {
            byte[] b = new byte[length];
            buffer.getBytes(offset, b);
            return b;
        }

        // recordFormat() stays "": raw bytes, whatever another codec wrote or will read

        @Override
        public String toString() {
            return "bytes";
        }
    };

    static final IpcCodec<String> UTF8 = new IpcCodec<>() {
        @Override
        public int encodedLength(String s) {
            int n = 0;
            for (int i = 0, len = s.length(); i < len; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    n += 1;
                } else if (c < 0x800) {
                    n += 2;
                } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                    n += 4;
                    i++;
                } else if (Character.isSurrogate(c)) {
                    n += 1; // '?'
                } else {
                    n += 3;
                }
            }
            return n;
        }

        @Override
        public void encode(String s, MutableDirectBuffer buffer, int offset) {
            int p = offset;
            for (int i = 0, len = s.length(); i < len; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    buffer.putByte(p++, (byte) c);
                } else if (c < 0x800) {
                    buffer.putByte(p++, (byte) (0xC0 | (c >> 6)));
                    buffer.putByte(p++, (byte) (0x80 | (c & 0x3F)));
                } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    buffer.putByte(p++, (byte) (0xF0 | (cp >> 18)));
                    buffer.putByte(p++, (byte) (0x80 | ((cp >> 12) & 0x3F)));
                    buffer.putByte(p++, (byte) (0x80 | ((cp >> 6) & 0x3F)));
                    buffer.putByte(p++, (byte) (0x80 | (cp & 0x3F)));
                } else if (Character.isSurrogate(c)) {
                    buffer.putByte(p++, (byte) '?');
                } else {
                    buffer.putByte(p++, (byte) (0xE0 | (c >> 12)));
                    buffer.putByte(p++, (byte) (0x80 | ((c >> 6) & 0x3F)));
                    buffer.putByte(p++, (byte) (0x80 | (c & 0x3F)));
                }
            }
        }

        @Override
        public String decode(DirectBuffer buffer, int offset, int length) {
            byte[] b = new byte[length];
            buffer.getBytes(offset, b);
            return new String(b, StandardCharsets.UTF_8);
        }

        @Override
        public String recordFormat() {
            return "utf8";
        }

        @Override
        public String toString() {
            return "utf8";
        }
    };
}
