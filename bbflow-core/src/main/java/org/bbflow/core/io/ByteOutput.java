package org.bbflow.core.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Where a {@link ChunkSink} writes: the few calls it needs of a stream, channel or file. */
abstract class ByteOutput implements AutoCloseable {
    abstract void write(byte[] array, int off, int len) throws IOException;

    abstract void flush() throws IOException;

    @Override
    public abstract void close() throws IOException;

    /** Whether a write after {@link #close()} starts afresh (a file: created or truncated again). */
    boolean reopens() {
        return false;
    }

    static ByteOutput of(OutputStream out) {
        return new ByteOutput() {
            @Override
            void write(byte[] array, int off, int len) throws IOException {
                out.write(array, off, len);
            }

            @Override
            void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }

    static ByteOutput of(WritableByteChannel ch) {
        return new ByteOutput() {
            private byte[] lastArray;
            private ByteBuffer view;

            @Override
            void write(byte[] array, int off, int len) throws IOException {
                if (array != lastArray) {
                    lastArray = array;
                    view = ByteBuffer.wrap(array);
                }
                view.limit(off + len).position(off);
                while (view.hasRemaining()) {
                    ch.write(view);
                }
            }

            @Override
            void flush() {
                // channels do not buffer
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    /** Opens the file on first use (truncating it). */
    static ByteOutput of(Path file) {
        return new ByteOutput() {
            private ByteOutput delegate;

            private ByteOutput open() throws IOException {
                if (delegate == null) {
                    delegate = of(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING));
                }
                return delegate;
            }

            @Override
            void write(byte[] array, int off, int len) throws IOException {
                open().write(array, off, len);
            }

            @Override
            void flush() {
            }

            @Override
            public void close() throws IOException {
                ByteOutput d = open(); // an empty output still creates an (empty) file
                delegate = null; // a later run writes the file afresh
                d.close();
            }

            @Override
            boolean reopens() {
                return true;
            }
        };
    }
}
