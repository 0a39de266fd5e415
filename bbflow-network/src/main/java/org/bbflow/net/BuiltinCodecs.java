package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import org.bbflow.core.DoubleBatch;
import org.bbflow.core.LongBatch;

/** The built-in codecs: primitives written straight into the buffer, arrays and strings with an int length prefix. */
final class BuiltinCodecs {
    private BuiltinCodecs() {}

    static final Codec<Long> LONG = new Codec<>() {
        @Override public void encode(Long item, ByteBuf out) { out.writeLong(item); }
        @Override public Long decode(ByteBuf in) { return in.readLong(); }
        @Override public int maxEncodedSize(Long item) { return 8; }
        @Override public int fixedSize() { return 8; }
        @Override public String toString() { return "Codec.longs()"; }
    };

    static final Codec<Integer> INT = new Codec<>() {
        @Override public void encode(Integer item, ByteBuf out) { out.writeInt(item); }
        @Override public Integer decode(ByteBuf in) { return in.readInt(); }
        @Override public int maxEncodedSize(Integer item) { return 4; }
        @Override public int fixedSize() { return 4; }
        @Override public String toString() { return "Codec.ints()"; }
    };

    static final Codec<Double> DOUBLE = new Codec<>() {
        @Override public void encode(Double item, ByteBuf out) { out.writeDouble(item); }
        @Override public Double decode(ByteBuf in) { return in.readDouble(); }
        @Override public int maxEncodedSize(Double item) { return 8; }
        @Override public int fixedSize() { return 8; }
        @Override public String toString() { return "Codec.doubles()"; }
    };

    static final Codec<String> STRING = new Codec<>() {
        @Override public void encode(String item, ByteBuf out) {
            int at = out.writerIndex();
            out.writeInt(0);
            int n = ByteBufUtil.writeUtf8(out, item);
            out.setInt(at, n);
        }
        @Override public String decode(ByteBuf in) {
            int n = length(in, 1);
            String s = in.toString(in.readerIndex(), n, StandardCharsets.UTF_8);
            in.skipBytes(n);
            return s;
        }
        @Override public int maxEncodedSize(String item) { return 4 + ByteBufUtil.utf8MaxBytes(item); }
        @Override public String toString() { return "Codec.strings()"; }
    };

    static final Codec<byte[]> BYTES = new Codec<>() {
        @Override public void encode(byte[] item, ByteBuf out) { out.writeInt(item.length).writeBytes(item); }
        @Override public byte[] decode(ByteBuf in) {
            byte[] a = new byte[length(in, 1)];
            in.readBytes(a);
            return a;
        }
        @Override public int maxEncodedSize(byte[] item) { return 4 + item.length; }
        @Override public String toString() { return "Codec.bytes()"; }
    };

    static final Codec<long[]> LONG_ARRAY = new Codec<>() {
        @Override public void encode(long[] item, ByteBuf out) {
            out.writeInt(item.length);
            for (long v : item) out.writeLong(v);
        }
        @Override public long[] decode(ByteBuf in) {
            long[] a = new long[length(in, 8)];
            for (int i = 0; i < a.length; i++) a[i] = in.readLong();
            return a;
        }
        @Override public int maxEncodedSize(long[] item) { return 4 + 8 * item.length; }
        @Override public String toString() { return "Codec.longArrays()"; }
    };

    static final Codec<int[]> INT_ARRAY = new Codec<>() {
        @Override public void encode(int[] item, ByteBuf out) {
            out.writeInt(item.length);
            for (int v : item) out.writeInt(v);
        }
        @Override public int[] decode(ByteBuf in) {
            int[] a = new int[length(in, 4)];
            for (int i = 0; i < a.length; i++) a[i] = in.readInt();
            return a;
        }
        @Override public int maxEncodedSize(int[] item) { return 4 + 4 * item.length; }
        @Override public String toString() { return "Codec.intArrays()"; }
    };

    static final Codec<double[]> DOUBLE_ARRAY = new Codec<>() {
        @Override public void encode(double[] item, ByteBuf out) {
            out.writeInt(item.length);
            for (double v : item) out.writeDouble(v);
        }
        @Override public double[] decode(ByteBuf in) {
            double[] a = new double[length(in, 8)];
            for (int i = 0; i < a.length; i++) a[i] = in.readDouble();
            return a;
        }
        @Override public int maxEncodedSize(double[] item) { return 4 + 8 * item.length; }
        @Override public String toString() { return "Codec.doubleArrays()"; }
    };

    /** Reads an element count and checks that that many elements of {@code width} bytes are present. */
    /** A {@link LongBatch} as a long array: int count, then the values. */
    static final Codec<LongBatch> LONG_BATCH = new Codec<>() {
        @Override public void encode(LongBatch item, ByteBuf out) {
            int n = item.size();
            out.writeInt(n);
            for (int i = 0; i < n; i++) out.writeLong(item.get(i));
        }
        @Override public LongBatch decode(ByteBuf in) {
            long[] a = new long[length(in, 8)];
            for (int i = 0; i < a.length; i++) a[i] = in.readLong();
            return LongBatch.of(a);
        }
        @Override public int maxEncodedSize(LongBatch item) { return 4 + 8 * item.size(); }
        @Override public String toString() { return "Codec.longBatches()"; }
    };

    /** A {@link DoubleBatch} as a double array: int count, then the values (bit for bit). */
    static final Codec<DoubleBatch> DOUBLE_BATCH = new Codec<>() {
        @Override public void encode(DoubleBatch item, ByteBuf out) {
            int n = item.size();
            out.writeInt(n);
            for (int i = 0; i < n; i++) out.writeLong(Double.doubleToRawLongBits(item.get(i)));
        }
        @Override public DoubleBatch decode(ByteBuf in) {
            double[] a = new double[length(in, 8)];
            for (int i = 0; i < a.length; i++) a[i] = Double.longBitsToDouble(in.readLong());
            return DoubleBatch.of(a);
        }
        @Override public int maxEncodedSize(DoubleBatch item) { return 4 + 8 * item.size(); }
        @Override public String toString() { return "Codec.doubleBatches()"; }
    };

    static int length(ByteBuf in, int width) {
        int n = in.readInt();
        if (n < 0 || (long) n * width > in.readableBytes()) {
            throw new IllegalArgumentException("malformed item: length " + n + " with only "
                    + in.readableBytes() + " bytes left in the frame");
        }
        return n;
    }
}
