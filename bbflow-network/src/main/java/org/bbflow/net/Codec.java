package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.util.Objects;
import org.bbflow.core.DoubleBatch;
import org.bbflow.core.LongBatch;

/**
 * Turns items of type {@code T} into bytes of a pooled Netty {@link ByteBuf} and back.
 *
 * <p>An outlet calls {@link #encode} on its node thread, writing straight into the batch buffer
 * that will become a frame; an inlet calls {@link #decode} on its consumer thread, reading from the
 * received frame. A codec must be stateless or confined to one thread per direction.
 *
 * <p>{@link #decode} runs on bytes from the network: it must validate lengths it reads against
 * {@code in.readableBytes()} before allocating, and throw (any exception) on malformed input.
 * The built-in codecs do so.
 *
 * <p>Built-ins: {@link #longs()}, {@link #ints()}, {@link #doubles()}, {@link #strings()},
 * {@link #bytes()}, {@link #longArrays()}, {@link #intArrays()}, {@link #doubleArrays()},
 * {@link #longBatches()} and {@link #doubleBatches()} for the unboxed stages,
 * {@link #record(Class)} for records of primitives, strings and arrays, and — only when asked for —
 * {@link #javaSerialization(ObjectInputFilter)}.
 *
 * @param <T> the item type
 */
public interface Codec<T> {

    /**
     * Appends the encoding of {@code item} to {@code out}.
     *
     * @param item the item, not null
     * @param out the buffer to append to
     */
    void encode(T item, ByteBuf out);

    /**
     * Reads one item from {@code in}, advancing its reader index past exactly the bytes written by {@link #encode}.
     *
     * @param in the buffer to read from
     * @return the item
     */
    T decode(ByteBuf in);

    /**
     * An upper bound of the bytes {@link #encode} writes for {@code item}, or {@code -1} when unknown.
     * A known bound lets the outlet encode straight into the batch buffer; an unknown one makes it
     * encode into a scratch buffer first and copy.
     *
     * @param item the item to encode
     * @return the bound in bytes, or -1
     */
    default int maxEncodedSize(T item) {
        return -1;
    }

    /**
     * The exact size of every encoded item if it is constant (lets the inlet validate frames on arrival), else {@code -1}.
     *
     * @return the size in bytes, or -1
     */
    default int fixedSize() {
        return -1;
    }

    /**
     * 8-byte big-endian {@code long}s.
     *
     * @return the codec
     */
    static Codec<Long> longs() { return BuiltinCodecs.LONG; }

    /**
     * 4-byte big-endian {@code int}s.
     *
     * @return the codec
     */
    static Codec<Integer> ints() { return BuiltinCodecs.INT; }

    /**
     * 8-byte IEEE-754 {@code double}s.
     *
     * @return the codec
     */
    static Codec<Double> doubles() { return BuiltinCodecs.DOUBLE; }

    /**
     * UTF-8 strings with a variable-length size prefix.
     *
     * @return the codec
     */
    static Codec<String> strings() { return BuiltinCodecs.STRING; }

    /**
     * Byte arrays with a variable-length size prefix.
     *
     * @return the codec
     */
    static Codec<byte[]> bytes() { return BuiltinCodecs.BYTES; }

    /**
     * {@code long[]} with a variable-length size prefix.
     *
     * @return the codec
     */
    static Codec<long[]> longArrays() { return BuiltinCodecs.LONG_ARRAY; }

    /**
     * {@code int[]} with a variable-length size prefix.
     *
     * @return the codec
     */
    static Codec<int[]> intArrays() { return BuiltinCodecs.INT_ARRAY; }

    /**
     * {@code double[]} with a variable-length size prefix.
     *
     * @return the codec
     */
    static Codec<double[]> doubleArrays() { return BuiltinCodecs.DOUBLE_ARRAY; }

    /**
     * The batches of the unboxed long stages ({@code LongNodes}): a 4-byte count, then 8-byte big-endian
     * values; one frame entry per batch, so a stream of longs crosses with no box per value.
     *
     * @return the codec
     */
    static Codec<LongBatch> longBatches() { return BuiltinCodecs.LONG_BATCH; }

    /**
     * The batches of the unboxed double stages ({@code DoubleNodes}): a 4-byte count, then the values' 8-byte
     * IEEE 754 bits (NaN payloads and -0.0 kept).
     *
     * @return the codec
     */
    static Codec<DoubleBatch> doubleBatches() { return BuiltinCodecs.DOUBLE_BATCH; }

    /**
     * A codec for a record whose components are all of a built-in kind: {@code long}, {@code int},
     * {@code double}, {@code boolean} (or their boxes, which must not be null), {@link String},
     * {@code byte[]}, {@code long[]}, {@code int[]}, {@code double[]}, or another such record.
     *
     * @param <R> the record type
     * @param type the record class
     * @return the codec
     * @throws IllegalArgumentException naming the component whose type is not supported
     */
    static <R extends Record> Codec<R> record(Class<R> type) {
        return RecordCodec.of(Objects.requireNonNull(type, "type"));
    }

    /**
     * Java serialization, for types without a better codec. Slow and, on untrusted input, dangerous;
     * therefore it is never chosen implicitly and every decode runs behind {@code filter}
     * (build one with {@link ObjectInputFilter.Config#createFilter(String)}, e.g.
     * {@code "com.example.*;java.lang.*;!*"}).
     *
     * @param <T> item type
     * @param filter decides which classes may be deserialized
     * @return the codec
     */
    static <T extends Serializable> Codec<T> javaSerialization(ObjectInputFilter filter) {
        return new SerializationCodec<>(Objects.requireNonNull(filter, "filter"));
    }

    /**
     * Java serialization allowing exactly the listed classes (plus arrays and the primitive wrappers
     * and {@link String}), rejecting everything else.
     *
     * @param <T> item type
     * @param allowed the classes that may be deserialized
     * @return the codec
     */
    static <T extends Serializable> Codec<T> javaSerialization(Class<?>... allowed) {
        return new SerializationCodec<>(SerializationCodec.allowList(allowed));
    }
}
