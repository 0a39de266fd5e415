package org.bbflow.core.ipc;

import org.agrona.DirectBuffer;

/**
 * Zero-copy access to received records: called with a view of the record inside the shared
 * memory, valid only during the call.
 */
@FunctionalInterface
public interface IpcRecordHandler {
    /**
     * @param producer the producer slot (0-based) that wrote the record
     * @param buffer the shared buffer; read only {@code [offset, offset + length)}
     * @param offset where the record's bytes start
     * @param length the record's length in bytes
     */
    void onRecord(int producer, DirectBuffer buffer, int offset, int length);
}
