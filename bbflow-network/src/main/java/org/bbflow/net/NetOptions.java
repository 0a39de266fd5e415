package org.bbflow.net;

import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * Settings of a {@link NetServer} or {@link NetClient}; immutable, each {@code withX} returns a copy.
 *
 * <p>Defaults: batches of 64 KiB, flushed after at most 1 ms; a send window of 4 MiB per channel;
 * frames of at most 1 MiB; a peer may stay away 10 s before both ends fail; heartbeats every
 * second; no TLS; no shared secret; a server closes a connection that has not completed the
 * handshake within 5 s and holds at most 512 connections, 128 from one address. Both ends of a
 * channel should use the same window and maximum frame size.
 */
public final class NetOptions {
    private final int batchBytes;
    private final Duration flushDelay;
    private final long windowBytes;
    private final int maxFrameBytes;
    private final Duration peerTimeout;
    private final Duration heartbeat;
    private final SslContext ssl;
    private final byte[] secret;
    private final Duration handshakeTimeout;
    private final int maxConnections;
    private final int maxConnectionsPerAddress;

    private NetOptions(int batchBytes, Duration flushDelay, long windowBytes, int maxFrameBytes,
                       Duration peerTimeout, Duration heartbeat, SslContext ssl, byte[] secret,
                       Duration handshakeTimeout, int maxConnections, int maxConnectionsPerAddress) {
        this.batchBytes = batchBytes;
        this.flushDelay = flushDelay;
        this.windowBytes = windowBytes;
        this.maxFrameBytes = maxFrameBytes;
        this.peerTimeout = peerTimeout;
        this.heartbeat = heartbeat;
        this.ssl = ssl;
        this.secret = secret;
        this.handshakeTimeout = handshakeTimeout;
        this.maxConnections = maxConnections;
        this.maxConnectionsPerAddress = maxConnectionsPerAddress;
    }

    /** The defaults. */
    public static NetOptions defaults() {
        return new NetOptions(64 * 1024, Duration.ofMillis(1), 4L << 20, 1 << 20,
                Duration.ofSeconds(10), Duration.ofSeconds(1), null, null,
                Duration.ofSeconds(5), 512, 128);
    }

    /** Bytes of encoded items per batch (frame payload), at least 64; capped by the maximum frame size. */
    public NetOptions withBatchBytes(int bytes) {
        if (bytes < 64) throw new IllegalArgumentException("batchBytes must be >= 64, was " + bytes);
        return new NetOptions(bytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, heartbeat, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /** The longest an item waits in a partly filled batch before it is sent (Flink's buffer timeout); at least 50 µs. */
    public NetOptions withFlushDelay(Duration delay) {
        if (delay.compareTo(Duration.ofNanos(50_000)) < 0) {
            throw new IllegalArgumentException("flushDelay must be >= 50us, was " + delay);
        }
        return new NetOptions(batchBytes, delay, windowBytes, maxFrameBytes, peerTimeout, heartbeat, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /** Encoded bytes a channel may have sent but not yet seen consumed; bounds memory on both ends. */
    public NetOptions withWindowBytes(long bytes) {
        if (bytes < 1024) throw new IllegalArgumentException("windowBytes must be >= 1024, was " + bytes);
        return new NetOptions(batchBytes, flushDelay, bytes, maxFrameBytes, peerTimeout, heartbeat, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /** The largest frame accepted or sent; a longer length prefix closes the connection. */
    public NetOptions withMaxFrameBytes(int bytes) {
        if (bytes < 1024) throw new IllegalArgumentException("maxFrameBytes must be >= 1024, was " + bytes);
        return new NetOptions(batchBytes, flushDelay, windowBytes, bytes, peerTimeout, heartbeat, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /** How long a peer may stay disconnected (or silent) before its channels fail. */
    public NetOptions withPeerTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("peerTimeout must be > 0");
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, timeout, heartbeat, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /** Interval of heartbeats on an idle connection; a connection silent for three intervals is dropped. */
    public NetOptions withHeartbeat(Duration interval) {
        if (interval.toMillis() < 10) throw new IllegalArgumentException("heartbeat must be >= 10ms");
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, interval, ssl, secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /**
     * TLS for every connection: a server context (with key and certificate) on a {@link NetServer},
     * a client context (with the trusted certificates) on a {@link NetClient}.
     */
    public NetOptions withTls(SslContext context) {
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, heartbeat,
                Objects.requireNonNull(context, "context"), secret,
                handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /**
     * A shared secret: both ends prove they know it with an HMAC-SHA256 challenge-response before any
     * channel opens. Use at least 16 random bytes.
     */
    public NetOptions withSharedSecret(byte[] key) {
        if (key.length == 0) throw new IllegalArgumentException("secret must not be empty");
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, heartbeat, ssl,
                key.clone(), handshakeTimeout, maxConnections, maxConnectionsPerAddress);
    }

    /**
     * How long an accepted connection may take to complete the handshake (TLS and the protocol's
     * challenge-response) before the server closes it; default 5 s.
     *
     * @param timeout the handshake timeout, at least 10 ms
     * @return a copy with this setting
     * @throws IllegalArgumentException if {@code timeout} is shorter than 10 ms
     */
    public NetOptions withHandshakeTimeout(Duration timeout) {
        if (timeout.toMillis() < 10) throw new IllegalArgumentException("handshakeTimeout must be >= 10ms, was " + timeout);
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, heartbeat, ssl, secret,
                timeout, maxConnections, maxConnectionsPerAddress);
    }

    /**
     * Limits on a {@link NetServer}'s open connections: at most {@code total} at once, and at most
     * {@code perAddress} from one remote IP address; a connection beyond a limit is closed as soon
     * as it is accepted. Defaults: 512 and 128.
     *
     * @param total the most connections open at once, at least 1
     * @param perAddress the most connections open at once from one remote address, 1 to {@code total}
     * @return a copy with these limits
     * @throws IllegalArgumentException if a limit is below 1 or {@code perAddress > total}
     */
    public NetOptions withMaxConnections(int total, int perAddress) {
        if (total < 1 || perAddress < 1 || perAddress > total) {
            throw new IllegalArgumentException("need 1 <= perAddress <= total, was total=" + total + ", perAddress=" + perAddress);
        }
        return new NetOptions(batchBytes, flushDelay, windowBytes, maxFrameBytes, peerTimeout, heartbeat, ssl, secret,
                handshakeTimeout, total, perAddress);
    }

    int batchBytes() { return Math.min(batchBytes, maxFrameBytes - Wire.DATA_HEADER); }
    Duration flushDelay() { return flushDelay; }
    long windowBytes() { return windowBytes; }
    int maxFrameBytes() { return maxFrameBytes; }
    Duration peerTimeout() { return peerTimeout; }
    Duration heartbeat() { return heartbeat; }
    SslContext ssl() { return ssl; }
    byte[] secret() { return secret; }
    Duration handshakeTimeout() { return handshakeTimeout; }
    int maxConnections() { return maxConnections; }
    int maxConnectionsPerAddress() { return maxConnectionsPerAddress; }

    @Override
    public String toString() {
        return "NetOptions[batchBytes=" + batchBytes + ", flushDelay=" + flushDelay + ", windowBytes=" + windowBytes
                + ", maxFrameBytes=" + maxFrameBytes + ", peerTimeout=" + peerTimeout + ", heartbeat=" + heartbeat
                + ", tls=" + (ssl != null) + ", secret=" + (secret != null ? "set" : "none")
                + ", handshakeTimeout=" + handshakeTimeout + ", maxConnections=" + maxConnections
                + ", maxConnectionsPerAddress=" + maxConnectionsPerAddress + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NetOptions n && n.toString().equals(toString()) && Arrays.equals(n.secret, secret)
                && n.ssl == ssl;
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
