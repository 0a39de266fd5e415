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
    /** The exact number of bytes {@link #encode} will write for {@code item}. */
    int encodedLength(T item);

    /** Writes {@code item} at {@code offset}; exactly {@link #encodedLength} bytes. */
    void encode(T item, MutableDirectBuffer buffer, int offset);

    /** Reads an item from {@code [offset, offset + length)}. */
    T decode(DirectBuffer buffer, int offset, int length);

    /** 8-byte little-endian longs. */
    static IpcCodec<Long> int64() {
        return BuiltInCodecs.INT64;
    }

    /** Byte arrays, copied as they are (the record length is the array length). */
    static IpcCodec<byte[]> bytes() {
        return BuiltInCodecs.BYTES;
    }

    /** Strings as UTF-8 (unpaired surrogates become '?'), encoded without a temporary array. */
    static IpcCodec<String> utf8() {
        return BuiltInCodecs.UTF8;
    }
}
