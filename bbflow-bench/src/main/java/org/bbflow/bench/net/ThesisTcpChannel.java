package org.bbflow.bench.net;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.LongConsumer;

/**
 * A re-implementation of the thesis's network channel design, as a baseline: one socket per
 * channel, every item written with {@link ObjectOutputStream#writeObject} into a
 * {@link BufferedOutputStream}, flushed when 1 ms has passed since the last flush and at the end,
 * where the string {@code "EOS"} marks the end of the stream. One deviation: the stream is
 * {@code reset()} at each flush, else its handle table keeps every item ever sent (10M items would
 * not fit in a benchmark heap).
 */
public final class ThesisTcpChannel {
    private ThesisTcpChannel() {}

    static final long FLUSH_NANOS = 1_000_000L;

    /** The receiving side: accepts one connection and reads items until "EOS". */
    public static final class Receiver implements AutoCloseable {
        private final ServerSocket server;

        public Receiver() throws IOException {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        }

        public int port() {
            return server.getLocalPort();
        }

        /** Accepts the sender and hands every item to {@code sink}; returns the count. */
        public long receive(LongConsumer sink) throws IOException, ClassNotFoundException {
            try (Socket s = server.accept();
                 ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(s.getInputStream(), 65536))) {
                long n = 0;
                for (Object o; !((o = in.readObject()) instanceof String); n++) sink.accept((Long) o);
                return n;
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /** The sending side. */
    public static final class Sender implements AutoCloseable {
        private final Socket socket;
        private final ObjectOutputStream out;
        private long lastFlush = System.nanoTime();

        public Sender(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            out = new ObjectOutputStream(new BufferedOutputStream(socket.getOutputStream(), 8192));
        }

        public void send(Long item) {
            try {
                out.writeObject(item);
                long now = System.nanoTime();
                if (now - lastFlush >= FLUSH_NANOS) {
                    out.reset();
                    out.flush();
                    lastFlush = now;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            out.writeObject("EOS");
            out.flush();
            socket.shutdownOutput();
            socket.close();
        }
    }
}
