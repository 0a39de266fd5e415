package org.bbflow.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Where a {@link ChunkSource} reads from: the few calls it needs of a stream, channel or file. */
abstract class ByteInput implements AutoCloseable {
    /** Reads up to {@code len} bytes; -1 at end of input; may return fewer than asked. */
    abstract int read(byte[] array, int off, int len) throws IOException;

    @Override
    public abstract void close() throws IOException;

    abstract String describe();

    static ByteInput of(InputStream in) {
        return new ByteInput() {
            @Override
            int read(byte[] array, int off, int len) throws IOException {
                return in.read(array, off, len);
            }

            @Override
            public void close() throws IOException {
                in.close();
            }

            @Override
            String describe() {
                return "input stream " + in.getClass().getSimpleName();
            }
        };
    }

    static ByteInput of(ReadableByteChannel ch, String description) {
        return new ByteInput() {
            private byte[] lastArray;
            private ByteBuffer view;

            @Override
            int read(byte[] array, int off, int len) throws IOException {
                if (array != lastArray) { // one view per pooled buffer, made once
                    lastArray = array;
                    view = ByteBuffer.wrap(array);
                }
                view.limit(off + len).position(off);
                int n = ch.read(view);
                // A non-blocking channel may return 0: treat as "no progress yet", the caller loops.
                return n;
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }

            @Override
            String describe() {
                return description;
            }
        };
    }

    static ByteInput of(Path file) throws IOException {
        return of(FileChannel.open(file, StandardOpenOption.READ), "file " + file);
    }
}
