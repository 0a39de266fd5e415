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

/**
 * A TCP proxy for fault injection: forwards, cuts every connection, freezes (silent peer) or stops
 * (dead peer); and sabotages handshakes: the next connections are cut after a given number of the
 * server's bytes, or get the server's first bytes late.
 */
final class TestProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<AtomicBoolean> replyLosses = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    /** Bytes read from the clients, forwarded or not (while frozen they are read and held). */
    private final java.util.concurrent.atomic.AtomicLong fromClients = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean frozen;
    private volatile boolean stopped;
    /** Sabotage of the connections accepted next, one entry each, taken in order. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Sabotage> sabotage = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /**
     * What happens to the server's bytes on one connection: after {@code cutAfter} bytes (negative:
     * never) both sockets close; the first bytes are held back {@code delayMillis}.
     */
    record Sabotage(int cutAfter, long delayMillis) {}

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
                Sabotage plan = sabotage.poll();
                pump(a, b, new AtomicBoolean(), null, fromClients);
                pump(b, a, loseReplies, plan, new java.util.concurrent.atomic.AtomicLong());
            } catch (IOException e) {
                if (stopped) return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean discard, Sabotage plan, java.util.concurrent.atomic.AtomicLong read) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            long forwarded = 0;
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    read.addAndGet(n);
                    while (frozen && !stopped) Thread.sleep(5); // a silent peer: keep the socket, move nothing
                    if (discard.get()) continue; // lost on the way
                    if (plan != null && forwarded == 0 && plan.delayMillis() > 0) Thread.sleep(plan.delayMillis());
                    if (plan != null && plan.cutAfter() >= 0 && forwarded + n >= plan.cutAfter()) {
                        out.write(buf, 0, (int) (plan.cutAfter() - forwarded));
                        out.flush();
                        return; // cut: the finally closes both ends
                    }
                    out.write(buf, 0, n);
                    forwarded += n;
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

    /** Sabotages the connections accepted from now on, one plan each in order; later ones are forwarded as usual. */
    void sabotage(List<Sabotage> plans) {
        sabotage.addAll(plans);
    }

    /**
     * Closes every forwarded connection; new ones are still accepted. Forgets only what it closed: a
     * client reconnecting while this runs is the next cut's (clearing the lists lost its sockets, so
     * the next cut closed nothing: FaultTest saw six cuts and only five reconnects).
     */
    void cut() {
        List<AtomicBoolean> losses = List.copyOf(replyLosses);
        List<Socket> open = List.copyOf(sockets);
        for (Socket s : open) closeQuietly(s);
        sockets.removeAll(open);
        replyLosses.removeAll(losses);
    }

    /** From now on, discards what the server sends on the current connections (acknowledgements get lost); later connections are not affected. */
    void loseReplies() {
        for (AtomicBoolean b : replyLosses) b.set(true);
    }

    /** Keeps connections open but forwards nothing (a host that hangs or whose cable is pulled). */
    void freeze() {
        frozen = true;
    }

    /**
     * Cuts every connection while frozen, then forwards again: what the frozen connections held (read
     * from a peer, not yet forwarded) is lost with them, and new connections are forwarded as usual.
     */
    void cutAndThaw() {
        cut();
        frozen = false;
    }

    /** Bytes read from the clients so far, including those held while frozen. */
    long bytesFromClients() {
        return fromClients.get();
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
