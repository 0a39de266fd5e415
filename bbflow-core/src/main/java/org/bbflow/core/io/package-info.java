/**
 * Bounded-memory n-buffered I/O (after the nbuf library): a {@link org.bbflow.core.io.ChunkSource}
 * reads a stream, channel or file into a fixed pool of buffers holding whole records, processing
 * nodes work on the {@link org.bbflow.core.io.Chunk}s, and a {@link org.bbflow.core.io.ChunkSink}
 * writes them (ordered or not, filtered, to several targets, or not at all) and returns the buffers.
 * {@link org.bbflow.core.io.NBufJob} builds the usual configurations from core pipelines and farms.
 */
package org.bbflow.core.io;
