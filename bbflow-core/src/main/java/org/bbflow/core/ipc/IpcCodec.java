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
     * The name of the record format this codec writes and reads. The receiver records its codec's
     * name in the channel file's header, and {@link IpcSender#open} refuses (with an
     * {@link IpcFormatException}) a sender whose codec names another one, before a record is
     * written. The empty string, the default, names no format and is not checked, on either side:
     * a codec of raw bytes ({@link #bytes()}) or one that predates this method. Name a version too
     * when the layout may change ({@code "trade/v2"}); at most 64 bytes of UTF-8
     * (a longer name is an {@link IllegalArgumentException} at create and open).
     *
     * @return the format's name; "" for none
     */
    default String recordFormat() {
        return "";
    }

    /**
     * 8-byte little-endian longs; record format {@code "int64"}.
     *
     * @return the codec
     */
    static IpcCodec<Long> int64() {
        return BuiltInCodecs.INT64;
    }

    /**
     * Byte arrays, copied as they are (the record length is the array length); it names no record
     * format, so it reads and writes the records of any codec (not checked).
     *
     * @return the codec
     */
    static IpcCodec<byte[]> bytes() {
        return BuiltInCodecs.BYTES;
    }

    /**
     * Strings as UTF-8 (unpaired surrogates become '?'), encoded without a temporary array; record
     * format {@code "utf8"}.
     *
     * @return the codec
     */
    static IpcCodec<String> utf8() {
        return BuiltInCodecs.UTF8;
    }
}
