package org.bbflow.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy between a {@link NetClient} and a {@link NetServer} (no TLS) that can play a slow
 * reader: while {@linkplain #hold() held} it reads nothing from the client, so the client's socket
 * and queue fill up. While {@linkplain #chatter chattering} it sends the client a stream of
 * heartbeat frames (inserted between the server's frames), so the client nearly always has unread
 * input; only the connections made since the last {@code chatter(false)} chatter, so that earlier
 * rounds' connections, still closing, are left alone. Half-closes
 * are passed on: the client's end of output reaches the server only after every byte before it.
 * Every thread it starts ends when its connection closes or the proxy is closed.
 */
final class HoldingProxy implements AutoCloseable {
    /**
     * One heartbeat frame padded to 1 KiB (a client ignores a heartbeat's body): a flood of bytes in
     * few frames. Tiny frames at the same byte rate (one frame per 5 bytes, 800,000 a second) cost the
     * client one leak-detector stack trace each under paranoid leak detection: its event loop then
     * spent seconds per read cycle on them and wrote nothing meanwhile, and the server dropped the
     * connection as silent; that measured the test's load, not the close.
     */
    private static final byte[] PING = padded(1024);

    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean held;
    private volatile boolean chatter;
    /** Counts {@code chatter(false)} calls: a connection chatters only in the round it was made in. */
    private volatile int round;
    private volatile boolean stopped;

    HoldingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.setReceiveBufferSize(16 * 1024); // a small socket buffer: holding backs the client up soon
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        start("holding-proxy-accept", this::acceptLoop);
    }

    private static byte[] padded(int bodyBytes) {
        byte[] b = new byte[4 + bodyBytes];
        b[2] = (byte) (bodyBytes >>> 8); // length, big-endian
        b[3] = (byte) bodyBytes;
        b[4] = Wire.PING;
        return b;
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Stops reading from the clients (their bytes stay in their sockets and queues). */
    void hold() {
        held = true;
    }

    /** Reads and forwards from the clients again. */
    void release() {
        held = false;
    }

    /**
     * Starts or stops flooding the clients with heartbeats; start only once their handshakes are done.
     *
     * @param on whether to flood
     */
    void chatter(boolean on) {
        if (!on) round++; // only the test's thread calls this
        chatter = on;
    }

    private static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private void acceptLoop() {
        while (!stopped) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(server);
                Object writeLock = new Object();
                start("holding-proxy-up", () -> up(client, server));
                start("holding-proxy-down", () -> down(server, client, writeLock));
                int born = round;
                start("holding-proxy-chatter", () -> chatter(client, writeLock, born));
            } catch (IOException e) {
                if (stopped) return;
            }
        }
    }

    /** Client to server; waits while held; passes the client's end of output on as a half-close. */
    private void up(Socket client, Socket server) {
        byte[] buf = new byte[64 * 1024];
        try {
            InputStream in = client.getInputStream();
            OutputStream out = server.getOutputStream();
            for (;;) {
                while (held && !stopped && !client.isClosed()) LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                int n = in.read(buf);
                if (n < 0) {
                    server.shutdownOutput();
                    return;
                }
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** Server to client, frame by frame (so that heartbeats can go in between); closes both at the server's end. */
    private void down(Socket server, Socket client, Object writeLock) {
        try {
            DataInputStream in = new DataInputStream(server.getInputStream());
            OutputStream out = client.getOutputStream();
            for (;;) {
                int len = in.readInt();
                byte[] frame = new byte[4 + len];
                frame[0] = (byte) (len >>> 24);
                frame[1] = (byte) (len >>> 16);
                frame[2] = (byte) (len >>> 8);
                frame[3] = (byte) len;
                in.readFully(frame, 4, len);
                synchronized (writeLock) {
                    out.write(frame);
                }
            }
        } catch (IOException e) {
            // the server closed (EOF) or the connection broke
        } finally {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    private void chatter(Socket client, Object writeLock, int born) {
        try {
            OutputStream out = client.getOutputStream();
            while (!stopped && !client.isClosed() && round == born) {
                if (!chatter) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    continue;
                }
                synchronized (writeLock) {
                    out.write(PING);
                }
                // several MB/s in some thousand frames: input is nearly always waiting, yet the client is never
                // far behind (a backlog of heartbeats would delay its seeing the end of the connection)
                LockSupport.parkNanos(100_000);
            }
        } catch (IOException e) {
            // the connection is gone
        }
    }

    @Override
    public void close() {
        stopped = true;
        closeQuietly(listener);
        for (Socket s : sockets) closeQuietly(s);
        sockets.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }
}
