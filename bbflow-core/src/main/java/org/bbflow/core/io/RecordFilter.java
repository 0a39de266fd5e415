package org.bbflow.core.io;

/**
 * Chooses the records a {@link ChunkSink} writes (nbuf's output filter). Called once per record, in
 * order; consecutive kept records are written with one call.
 */
@FunctionalInterface
public interface RecordFilter {
    /**
     * @param chunk the chunk being written
     * @param offset where the record starts in {@link Chunk#array()}
     * @param length the record length: the stride, or less for a trailing partial record
     * @return true to write the record
     */
    boolean keep(Chunk chunk, int offset, int length);
}
