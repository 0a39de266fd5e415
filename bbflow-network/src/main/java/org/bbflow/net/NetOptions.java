package org.bbflow.net;

import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * Settings of a {@link NetServer} or {@link NetClient}; immutable, each {@code withX} returns a copy.
 *
 * <p>Defaults: batches of 64 KiB, flushed after at most 1 ms; a send window of 4 MiB per channel;
 * frames of at most 1 MiB; a peer may stay away (disconnected, silent or unreachable) 30 s before
 * both ends fail; heartbeats every second; an inlet waits 5 minutes for its first sender; no TLS;
 * no shared secret; a server closes a connection that has not completed the handshake within 5 s
 * and holds at most 512 connections, 128 from one address. Both ends of a channel should use the
 * same window and maximum frame size.
 */
public final class NetOptions {
    /** The shortest shared secret accepted, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;
    /**
     * The longest duration any setting takes (365 days): deadlines are counted in nanoseconds, which a
     * long holds for 292 years, so longer ones would overflow; for "for ever", this is long enough.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    private int batchBytes = 64 * 1024;
    private Duration flushDelay = Duration.ofMillis(1);
    private long windowBytes = 4L << 20;
    private int maxFrameBytes = 1 << 20;
    private Duration peerTimeout = Duration.ofSeconds(30);
    private Duration heartbeat = Duration.ofSeconds(1);
    private Duration firstConnectTimeout = Duration.ofMinutes(5);
    private SslContext ssl;
    private boolean verifyHostName = true;
    private byte[] secret;
    private Duration handshakeTimeout = Duration.ofSeconds(5);
    private int maxConnections = 512;
    private int maxConnectionsPerAddress = 128;
    private String job = "";
    private String member = "";

    private NetOptions() {}

    private static void atMostMax(String setting, Duration d) {
        if (d.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(setting + " must be at most 365 days (NetOptions.MAX_DURATION), was " + d);
        }
    }

    private NetOptions copy() {
        NetOptions c = new NetOptions();
        c.batchBytes = batchBytes;
        c.flushDelay = flushDelay;
        c.windowBytes = windowBytes;
        c.maxFrameBytes = maxFrameBytes;
        c.peerTimeout = peerTimeout;
        c.heartbeat = heartbeat;
        c.firstConnectTimeout = firstConnectTimeout;
        c.ssl = ssl;
        c.verifyHostName = verifyHostName;
        c.secret = secret;
        c.handshakeTimeout = handshakeTimeout;
        c.maxConnections = maxConnections;
        c.maxConnectionsPerAddress = maxConnectionsPerAddress;
        c.job = job;
        c.member = member;
        return c;
    }

    /**
     * The defaults: batches of 64 KiB flushed after at most 1 ms, a 4 MiB window, 1 MiB frames, a
     * 30 s peer timeout, 1 s heartbeats, a 5 min first-connect timeout for inlets, no TLS, no secret,
     * a 5 s handshake timeout and at most 512 connections per server, 128 from one address.
     *
     * @return the default options
     */
    public static NetOptions defaults() {
        return new NetOptions();
    }

    /**
     * Bytes of encoded items per batch (frame payload), at least 64; capped by the maximum frame size.
     *
     * @param bytes the batch size
     * @return a copy with this batch size
     * @throws IllegalArgumentException if {@code bytes < 64}
     */
    public NetOptions withBatchBytes(int bytes) {
        if (bytes < 64) throw new IllegalArgumentException("batchBytes must be >= 64, was " + bytes);
        NetOptions c = copy();
        c.batchBytes = bytes;
        return c;
    }

    /**
     * The longest an item waits in a partly filled batch before it is sent (Flink's buffer timeout).
     *
     * @param delay the flush delay, at least 50 µs
     * @return a copy with this delay
     * @throws IllegalArgumentException if {@code delay} is shorter than 50 µs or longer than {@link #MAX_DURATION}
     */
    public NetOptions withFlushDelay(Duration delay) {
        atMostMax("flushDelay", delay);
        if (delay.compareTo(Duration.ofNanos(50_000)) < 0) {
            throw new IllegalArgumentException("flushDelay must be >= 50us, was " + delay);
        }
        NetOptions c = copy();
        c.flushDelay = delay;
        return c;
    }

    /**
     * Encoded bytes a channel may have sent but not yet seen consumed; bounds memory on both ends.
     * Each frame counts 256 bytes more than its payload, for what an end holds per frame, so the
     * bound holds however small the frames (a server holds at most about twice the window plus a
     * frame per channel; see docs/network.md, "Server limits").
     *
     * @param bytes the window, at least 1024
     * @return a copy with this window
     * @throws IllegalArgumentException if {@code bytes < 1024}
     */
    public NetOptions withWindowBytes(long bytes) {
        if (bytes < 1024) throw new IllegalArgumentException("windowBytes must be >= 1024, was " + bytes);
        NetOptions c = copy();
        c.windowBytes = bytes;
        return c;
    }

    /**
     * The largest frame accepted or sent; a longer length prefix closes the connection.
     *
     * @param bytes the maximum frame size, at least 1024
     * @return a copy with this maximum
     * @throws IllegalArgumentException if {@code bytes < 1024}
     */
    public NetOptions withMaxFrameBytes(int bytes) {
        if (bytes < 1024) throw new IllegalArgumentException("maxFrameBytes must be >= 1024, was " + bytes);
        NetOptions c = copy();
        c.maxFrameBytes = bytes;
        return c;
    }

    /**
     * How long a peer may stay disconnected (or silent, or unreachable) before its channels fail
     * with a {@link RemoteChannelException}. Default 30 s.
     *
     * @param timeout the peer timeout, positive
     * @return a copy with this timeout
     * @throws IllegalArgumentException if {@code timeout} is not positive or longer than {@link #MAX_DURATION}
     */
    public NetOptions withPeerTimeout(Duration timeout) {
        atMostMax("peerTimeout", timeout);
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("peerTimeout must be > 0");
        NetOptions c = copy();
        c.peerTimeout = timeout;
        return c;
    }

    /**
     * Interval of heartbeats on an idle connection; a connection silent for three intervals is dropped.
     *
     * @param interval the heartbeat interval, at least 10 ms
     * @return a copy with this interval
     * @throws IllegalArgumentException if {@code interval} is shorter than 10 ms or longer than {@link #MAX_DURATION}
     */
    public NetOptions withHeartbeat(Duration interval) {
        atMostMax("heartbeat", interval);
        if (interval.toMillis() < 10) throw new IllegalArgumentException("heartbeat must be >= 10ms");
        NetOptions c = copy();
        c.heartbeat = interval;
        return c;
    }

    /**
     * How long an inlet registered on a {@link NetServer} waits for its first sender to attach before
     * it fails with a {@link RemoteChannelException} (once a sender has attached, the peer timeout
     * applies instead). Default 5 minutes, generous enough for peers that start one after another.
     *
     * @param timeout the first-connect timeout, positive
     * @return a copy with this timeout
     * @throws IllegalArgumentException if {@code timeout} is not positive or longer than {@link #MAX_DURATION}
     */
    public NetOptions withFirstConnectTimeout(Duration timeout) {
        atMostMax("firstConnectTimeout", timeout);
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("firstConnectTimeout must be > 0");
        NetOptions c = copy();
        c.firstConnectTimeout = timeout;
        return c;
    }

    /**
     * TLS for every connection: a server context (with key and certificate) on a {@link NetServer},
     * a client context (with the trusted certificates) on a {@link NetClient}. A client verifies that
     * the server's certificate names the host it connects to (endpoint identification "HTTPS": a
     * subject alternative name matching the host name or IP address) unless
     * {@link #withoutHostNameVerification()} is set. For mutual TLS give the server a context that
     * requires client certificates and trusts their issuer, and the client a context with its own key;
     * {@link TlsContexts} builds all four from key stores.
     *
     * @param context the Netty SSL context
     * @return a copy using TLS
     * @throws NullPointerException if {@code context} is null
     */
    public NetOptions withTls(SslContext context) {
        NetOptions c = copy();
        c.ssl = Objects.requireNonNull(context, "context");
        return c;
    }

    /**
     * Turns off the client's check that the server's certificate names the host connected to; the
     * certificate chain is still verified against the trusted certificates. Meant for tests with
     * certificates made for another name; on a network it lets anyone holding any certificate the
     * client trusts impersonate the server.
     *
     * @return a copy without host name verification
     */
    public NetOptions withoutHostNameVerification() {
        NetOptions c = copy();
        c.verifyHostName = false;
        return c;
    }

    /**
     * A shared secret: both ends prove they know it with an HMAC-SHA256 challenge-response before any
     * channel opens. Use at least 16 random bytes (32 recommended).
     *
     * @param key the secret, at least {@value #MIN_SECRET_BYTES} bytes; copied
     * @return a copy with this secret
     * @throws IllegalArgumentException if {@code key} is shorter than {@value #MIN_SECRET_BYTES} bytes
     */
    public NetOptions withSharedSecret(byte[] key) {
        if (key.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("shared secret must be at least " + MIN_SECRET_BYTES
                    + " bytes (random, e.g. from SecureRandom or `openssl rand -base64 32`), was " + key.length);
        }
        NetOptions c = copy();
        c.secret = key.clone();
        return c;
    }

    /**
     * How long an accepted connection may take to complete the handshake (TLS and the protocol's
     * challenge-response) before the server closes it; default 5 s.
     *
     * @param timeout the handshake timeout, at least 10 ms
     * @return a copy with this setting
     * @throws IllegalArgumentException if {@code timeout} is shorter than 10 ms or longer than {@link #MAX_DURATION}
     */
    public NetOptions withHandshakeTimeout(Duration timeout) {
        atMostMax("handshakeTimeout", timeout);
        if (timeout.toMillis() < 10) throw new IllegalArgumentException("handshakeTimeout must be >= 10ms, was " + timeout);
        NetOptions c = copy();
        c.handshakeTimeout = timeout;
        return c;
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
        NetOptions c = copy();
        c.maxConnections = total;
        c.maxConnectionsPerAddress = perAddress;
        return c;
    }

    /**
     * The job this end belongs to, and which member of it this end is, both carried in the handshake:
     * a server refuses a client of another job, and a client a server of another job, each with a
     * message naming both jobs, whether or not a secret is set (two jobs on one host never cross,
     * even when one of them starts on a port the other just freed). The member (e.g. a group and its
     * generation, {@code "w1#2"}) lets a server {@linkplain NetServer#fence fence} a replaced member.
     * Default: no job and no member, which matches only peers that name none either.
     *
     * @param job the job's identity, at most 64 UTF-8 bytes of printable ASCII
     * @param member this end's name in the job, at most 64 UTF-8 bytes of printable ASCII (may be empty)
     * @return a copy with this identity
     * @throws IllegalArgumentException if either is too long or not printable ASCII
     */
    public NetOptions withIdentity(String job, String member) {
        NetOptions c = copy();
        c.job = checkIdentity("job", job);
        c.member = checkIdentity("member", member);
        return c;
    }

    private static String checkIdentity(String what, String id) {
        Objects.requireNonNull(id, what);
        if (id.length() > Wire.MAX_IDENTITY || !id.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f)) {
            throw new IllegalArgumentException(what + " identity must be at most " + Wire.MAX_IDENTITY
                    + " printable ASCII characters, was '" + id + "'");
        }
        return id;
    }

    int batchBytes() { return Math.min(batchBytes, maxFrameBytes - Wire.DATA_HEADER); }
    Duration flushDelay() { return flushDelay; }
    long windowBytes() { return windowBytes; }
    int maxFrameBytes() { return maxFrameBytes; }
    Duration peerTimeout() { return peerTimeout; }
    Duration heartbeat() { return heartbeat; }
    SslContext ssl() { return ssl; }
    boolean verifyHostName() { return verifyHostName; }
    Duration firstConnectTimeout() { return firstConnectTimeout; }
    byte[] secret() { return secret; }
    Duration handshakeTimeout() { return handshakeTimeout; }
    int maxConnections() { return maxConnections; }
    int maxConnectionsPerAddress() { return maxConnectionsPerAddress; }
    String job() { return job; }
    String member() { return member; }

    @Override
    public String toString() {
        return "NetOptions[batchBytes=" + batchBytes + ", flushDelay=" + flushDelay + ", windowBytes=" + windowBytes
                + ", maxFrameBytes=" + maxFrameBytes + ", peerTimeout=" + peerTimeout + ", heartbeat=" + heartbeat
                + ", firstConnectTimeout=" + firstConnectTimeout + ", tls=" + (ssl != null)
                + (ssl != null && !verifyHostName ? " (host name not verified)" : "")
                + ", secret=" + (secret != null ? "set" : "none")
                + ", handshakeTimeout=" + handshakeTimeout + ", maxConnections=" + maxConnections
                + ", maxConnectionsPerAddress=" + maxConnectionsPerAddress
                + (job.isEmpty() && member.isEmpty() ? "" : ", job=" + job + ", member=" + member) + "]";
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
