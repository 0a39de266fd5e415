package org.bbflow.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A TCP proxy for fault injection: forwards, cuts every connection, freezes (silent peer) or stops (dead peer). */
final class TestProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<AtomicBoolean> replyLosses = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean frozen;
    private volatile boolean stopped;

    TestProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    int connectionsAccepted() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!stopped) {
            try {
                Socket a = listener.accept();
                accepted.incrementAndGet();
                sockets.add(a);
                if (frozen) continue; // accept, never answer
                Socket b = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(b);
                AtomicBoolean loseReplies = new AtomicBoolean();
                replyLosses.add(loseReplies);
                pump(a, b, new AtomicBoolean());
                pump(b, a, loseReplies);
            } catch (IOException e) {
                if (stopped) return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean discard) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    while (frozen && !stopped) Thread.sleep(5); // a silent peer: keep the socket, move nothing
                    if (discard.get()) continue; // lost on the way
                    out.write(buf, 0, n);
                }
            } catch (IOException | InterruptedException e) {
                // cut
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Closes every forwarded connection; new ones are still accepted. */
    void cut() {
        for (Socket s : sockets) closeQuietly(s);
        sockets.clear();
        replyLosses.clear();
    }

    /** From now on, discards what the server sends on the current connections (acknowledgements get lost); later connections are not affected. */
    void loseReplies() {
        for (AtomicBoolean b : replyLosses) b.set(true);
    }

    /** Keeps connections open but forwards nothing (a host that hangs or whose cable is pulled). */
    void freeze() {
        frozen = true;
    }

    @Override
    public void close() {
        stopped = true;
        closeQuietly(listener);
        cut();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }
}
