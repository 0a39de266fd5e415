package org.bbflow.core.ipc;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes items of type {@code T} into the shared memory of an inter-process channel and decodes
 * them on the other side. The sender asks for {@link #encodedLength} first, claims exactly that many
 * bytes in the ring and encodes in place, so no intermediate copy is made.
 *
 * @param <T> the item type
 */
public interface IpcCodec<T> {
    /**
     * The exact number of bytes {@link #encode} will write for {@code item}.
     *
     * @param item the item
     * @return its encoded length in bytes
     */
    int encodedLength(T item);

    /**
     * Writes {@code item} at {@code offset}; exactly {@link #encodedLength} bytes.
     *
     * @param item the item
     * @param buffer the ring's buffer
     * @param offset where the record starts
     */
    void encode(T item, MutableDirectBuffer buffer, int offset);

    /**
     * Reads an item from {@code [offset, offset + length)}.
     *
     * @param buffer the ring's buffer
     * @param offset where the record starts
     * @param length the record's length in bytes
     * @return the item
     */
    T decode(DirectBuffer buffer, int offset, int length);

    /**
     * 8-byte little-endian longs.
     *
     * @return the codec
     */
    static IpcCodec<Long> int64() {
        return BuiltInCodecs.INT64;
    }

    /**
     * Byte arrays, copied as they are (the record length is the array length).
     *
     * @return the codec
     */
    static IpcCodec<byte[]> bytes() {
        return BuiltInCodecs.BYTES;
    }

    /**
     * Strings as UTF-8 (unpaired surrogates become '?'), encoded without a temporary array.
     *
     * @return the codec
     */
    static IpcCodec<String> utf8() {
        return BuiltInCodecs.UTF8;
    }
}
