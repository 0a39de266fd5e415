package org.bbflow.core.io;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Where a {@link ChunkSource} reads from: the few calls it needs of a stream, channel or file. */
abstract class ByteInput implements AutoCloseable {
    /** Reads up to {@code len} bytes; -1 at end of input; may return fewer than asked. */
    abstract int read(byte[] array, int off, int len) throws IOException;

    @Override
    public abstract void close() throws IOException;

    abstract String describe();

    /**
     * Reads a stream so that a cancelled flow does not wait for it: the flow interrupts the reading
     * thread, and a blocking {@code java.io} read ignores interrupts. So a plain
     * {@link FileInputStream} (a file, a named pipe, a device) is read through its channel, which an
     * interrupt closes, waking the read; any other stream is closed by the interrupting thread, which
     * wakes a read whose stream's close does (a socket's, a stream that honours close). A stream
     * wrapped around a {@code FileInputStream} of a pipe ({@code System.in}, a process's output) does
     * not wake on Linux: its read goes on until data or end of input comes.
     */
    static ByteInput of(InputStream in) {
        if (in.getClass() == FileInputStream.class) { // exactly: a subclass may read otherwise
            return of(((FileInputStream) in).getChannel(), "input stream FileInputStream"); // closing it closes the stream
        }
        ClosingOnInterrupt guard = new ClosingOnInterrupt(in);
        return new ByteInput() {
            @Override
            int read(byte[] array, int off, int len) throws IOException {
                return guard.read(array, off, len);
            }

            @Override
            public void close() throws IOException {
                guard.close();
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

    /**
     * The thread that interrupts a read in progress closes the stream (as an interruptible channel
     * closes itself); the read then ends with {@link java.nio.channels.ClosedByInterruptException}.
     */
    private static final class ClosingOnInterrupt extends AbstractInterruptibleChannel {
        private final InputStream in;

        ClosingOnInterrupt(InputStream in) {
            this.in = in;
        }

        int read(byte[] array, int off, int len) throws IOException {
            boolean completed = false;
            begin(); // an interrupt from here to end() closes the stream, on the interrupting thread
            try {
                int n = in.read(array, off, len);
                completed = true;
                return n;
            } finally {
                end(completed);
            }
        }

        @Override
        protected void implCloseChannel() throws IOException {
            in.close();
        }
    }

    static ByteInput of(Path file) throws IOException {
        return of(FileChannel.open(file, StandardOpenOption.READ), "file " + file);
    }
}
