package org.bbflow.net.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bbflow.net.NetOptions;
import org.bbflow.net.TlsContexts;

/**
 * What every process of a distributed job knows about the job: its groups (each a name with the
 * {@code host:port} its process listens on), which group is the master (the one that runs the main
 * flow: the farms' emitters and collectors), and how the connections are secured (a shared-secret
 * file, or TLS certificate files).
 *
 * <p>Every job has an identity ({@link #id()}), carried in every connection's handshake: a process
 * of another job (two jobs on one host, one started on a port the other just freed) is refused with
 * a message naming both jobs, with or without a secret.
 *
 * <p>A group's host may be left to the engine that places the processes ({@link Builder#group(String,
 * int)}, or an empty host in the text form): {@link DistributedJob#fromEnvironment()} then takes it
 * from Slurm's node list or a host pattern such as a Kubernetes Indexed Job's DNS names.
 *
 * <p>Safe by default: a group whose host is not a loopback address refuses to listen unless a secret
 * or TLS is configured, or {@link Builder#allowInsecure()} says so explicitly.
 *
 * <p>The launcher hands a job to each process as one text argument ({@link #toText()}, read back with
 * {@link #parse(String)}), e.g. in the system property {@value DistributedJob#JOB_PROPERTY}:
 * {@code master=m;group.m=10.0.0.1:7100;group.w1=10.0.0.2:7100;secretFile=/etc/bbflow/secret}. The text
 * names the secret's file, never the secret itself (command lines are visible to other users).
 */
public final class JobSpec {
    private final String master;
    private final Map<String, String> hosts;
    private final Map<String, Integer> ports;
    private final Path secretFile;
    private final Path tlsCert;
    private final Path tlsKey;
    private final Path tlsTrust;
    private final boolean insecure;
    private final Duration peerTimeout;
    private final Duration livenessTimeout;
    /** Null: off (the default). */
    private final Duration stallTimeout;
    private final String id;

    private JobSpec(Builder b) {
        this.master = b.master;
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(b.hosts));
        this.ports = Collections.unmodifiableMap(new LinkedHashMap<>(b.ports));
        this.secretFile = b.secretFile;
        this.tlsCert = b.tlsCert;
        this.tlsKey = b.tlsKey;
        this.tlsTrust = b.tlsTrust;
        this.insecure = b.insecure;
        this.peerTimeout = b.peerTimeout;
        this.livenessTimeout = b.livenessTimeout;
        this.stallTimeout = b.stallTimeout;
        this.id = b.id != null ? b.id : derivedId();
    }

    /** The identity of a job that names none: a digest of what every process of it knows alike. */
    private String derivedId() {
        String text = String.join(";", textParts(false));
        return "job-" + String.format("%08x", text.hashCode());
    }

    /**
     * The longest group name: a group's process says who it is in every handshake as
     * {@code name#generation}, at most 64 characters ({@code NetOptions.withIdentity}), and a
     * generation is a {@code long} of up to 19 digits. A longer name used to pass here and fail in the
     * group's process at run time, after its admission, so that its master waited out the peer timeout
     * for a group that never connected.
     */
    static final int MAX_GROUP_NAME = 64 - 1 - 19;

    /**
     * A new builder.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The master group: the one that runs the main flow.
     *
     * @return the master group's name
     */
    public String master() {
        return master;
    }

    /**
     * The groups, in the order they were added (the master first).
     *
     * @return the group names
     */
    public List<String> groups() {
        return List.copyOf(hosts.keySet());
    }

    /**
     * The host (name or address) the group's process listens on and is reached at.
     *
     * @param group a group of this job
     * @return its host
     * @throws IllegalArgumentException if the job has no such group
     */
    public String host(String group) {
        return hosts.get(check(group));
    }

    /**
     * The port the group's process listens on.
     *
     * @param group a group of this job
     * @return its port
     * @throws IllegalArgumentException if the job has no such group
     */
    public int port(String group) {
        return ports.get(check(group));
    }

    /**
     * The job's identity, carried in every connection's handshake: given ({@link Builder#id}), or
     * derived from the groups, addresses and options, so that every process of the job agrees on it
     * without configuration.
     *
     * @return the identity, at most 64 printable ASCII characters
     */
    public String id() {
        return id;
    }

    /**
     * How long a process may show no sign of life before it is suspected lost: a group that runs only
     * workers of farms that re-send a lost worker's tasks is then fenced and its unfinished tasks go
     * to the others; other groups fail the job only after the {@link #peerTimeout()}.
     *
     * @return the liveness timeout
     */
    public Duration livenessTimeout() {
        return livenessTimeout;
    }

    /**
     * How long a remote worker (or stage, or all-to-all member) with tasks outstanding may make no
     * progress before the master treats its group as stuck; empty (the default) when off. Progress is
     * a task sent to it, or a result or end-of-task mark taken from it; a group that keeps beating but
     * never reads its tasks, or takes one and never finishes it (hung or deadlocked user code), is
     * noticed by neither the liveness nor the peer timeout, only by this. A stuck group is then
     * handled as a lost one under its farm's {@link WorkerLoss}: with {@link WorkerLoss#RESEND_TASKS}
     * (and only such workers in the group) it is fenced and its unfinished tasks go to the others;
     * otherwise the job fails naming the group.
     *
     * <p>Tasks are outstanding from their send until the group's end-of-task mark comes back: with
     * the watch on, every group marks the end of each task's results (as a re-sending farm's always
     * does), so a hung task is caught in every phase: while a send waits for the window, while the
     * stand-in waits for its next item (the source slow or paused, the emitter busy with other
     * workers), and at the end of the stream. A worker that is idle with every task finished, or whose
     * tasks give no result but finish, is not stuck. Such a block of another group must then be a
     * {@link org.bbflow.core.Node} (the end of its {@code onItem} is where a task ends): its group
     * refuses another block at {@code run}. Two linked stages ({@link DistributedJob#stage}) are judged
     * as one run: items sent to the first, results and marks taken from the last (each group of the
     * run passes the marks of the one before it on); the failure names all of the run's groups, since
     * the master cannot tell which of them holds the item: {@code groups 'w1', 'w2' failed: linked run
     * ...}, with {@link GroupFailedException#group()} the run's first group (the one the master sent
     * the item to) and {@link GroupFailedException#groups()} every group of the run in order, each a
     * real group of the job.
     *
     * <p>Off by default because no default fits: a single task may legitimately take longer than
     * any fixed bound, and would then be taken for a stuck one. Set it above the longest task. With it
     * on, each result frame carries one more byte and each task one more frame back.
     *
     * @return the stall timeout, or empty when off
     */
    public java.util.Optional<Duration> stallTimeout() {
        return java.util.Optional.ofNullable(stallTimeout);
    }

    /**
     * Whether the engine that places the processes gives this group's host (the job names none).
     *
     * @param group a group of this job
     * @return true if its host is left to the engine
     * @throws IllegalArgumentException if the job has no such group
     */
    public boolean hostFromEngine(String group) {
        return host(group).isEmpty();
    }

    /** This job with the host of every group given by the engine filled in, in group order. */
    JobSpec withEngineHosts(List<String> hostOfRank) {
        Builder b = builder();
        List<String> gs = groups();
        for (int i = 0; i < gs.size(); i++) {
            String g = gs.get(i);
            b.group(g, hostFromEngine(g) ? hostOfRank.get(i) : host(g), port(g));
        }
        b.master(master);
        b.secretFile = secretFile;
        b.tlsCert = tlsCert;
        b.tlsKey = tlsKey;
        b.tlsTrust = tlsTrust;
        b.insecure = insecure;
        b.peerTimeout = peerTimeout;
        b.livenessTimeout = livenessTimeout;
        b.stallTimeout = stallTimeout;
        b.id = id;
        return b.build();
    }

    /**
     * Whether connections are authenticated (a shared secret or TLS).
     *
     * @return true if a secret file or TLS is configured
     */
    public boolean authenticated() {
        return secretFile != null || tlsCert != null;
    }

    /**
     * Whether the job explicitly allows listening on a non-loopback address without authentication.
     *
     * @return the job's {@code insecure} flag
     */
    public boolean insecure() {
        return insecure;
    }

    /**
     * How long a peer may stay away before the job fails.
     *
     * @return the peer timeout
     */
    public Duration peerTimeout() {
        return peerTimeout;
    }

    String check(String group) {
        if (!hosts.containsKey(Objects.requireNonNull(group, "group"))) {
            throw new IllegalArgumentException("the job has no group '" + group + "'; its groups are " + hosts.keySet());
        }
        return group;
    }

    /**
     * Refuses to listen for {@code group} beyond this machine without a secret or TLS (unless the job is
     * marked insecure).
     *
     * @param group the group about to listen
     * @throws IllegalStateException if listening would accept unauthenticated connections from other machines
     */
    public void checkListenAllowed(String group) {
        String host = host(group);
        if (host.isEmpty()) {
            throw new IllegalStateException("group '" + group + "' has no host: the job leaves it to the engine"
                    + " (DistributedJob.fromEnvironment fills it in), and none gave it");
        }
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("group '" + group + "': unknown host '" + host + "'", e);
        }
        if (!loopback && !authenticated() && !insecure) {
            throw new IllegalStateException("group '" + group + "' would listen on " + host + ":" + port(group)
                    + " without authentication, accepting connections from other machines: give the job a secret"
                    + " file or TLS, or mark it insecure explicitly");
        }
    }

    /**
     * The options to listen with (server TLS context) and to connect with (client TLS context).
     *
     * @return two options: index 0 to listen, index 1 to connect
     */
    NetOptions[] options() {
        // a peer that takes longer than the peer timeout to start counts as lost, so a group started
        // after the job already failed gives up then, not after the 5-minute default
        NetOptions base = NetOptions.defaults().withPeerTimeout(peerTimeout).withFirstConnectTimeout(peerTimeout)
                .withHeartbeat(Duration.ofMillis(Math.max(10, Math.min(1000, peerTimeout.toMillis() / 4))))
                .withIdentity(id, "");
        if (secretFile != null) {
            byte[] raw;
            try {
                raw = Files.readAllBytes(secretFile);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the job's secret file " + secretFile, e);
            }
            int n = raw.length;
            while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r')) {
                n--;
            }
            byte[] key = Arrays.copyOf(raw, n);
            Arrays.fill(raw, (byte) 0);
            try {
                base = base.withSharedSecret(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("secret file " + secretFile + ": " + e.getMessage(), e);
            } finally {
                Arrays.fill(key, (byte) 0);
            }
        }
        if (tlsCert == null) {
            return new NetOptions[] {base, base};
        }
        // Mutual TLS: every process holds the job's certificate, key and trust, so each end checks the
        // other. A server that asked for no client certificate admitted any client that claimed the
        // job's identity, and that identity is no secret (every server sends its own in its challenge):
        // a process of another job, or anyone who could reach the port, got in.
        try {
            return new NetOptions[] {base.withTls(TlsContexts.mutualServer(tlsCert, tlsKey, tlsTrust)),
                base.withTls(TlsContexts.mutualClient(tlsCert, tlsKey, tlsTrust))};
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the job's TLS files " + tlsCert + ", " + tlsKey + ", " + tlsTrust
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The job as one line of text, read back by {@link #parse(String)}; names files, never holds a secret.
     *
     * @return the text form
     */
    public String toText() {
        return String.join(";", textParts(true));
    }

    private List<String> textParts(boolean withId) {
        List<String> parts = new ArrayList<>();
        if (withId) {
            parts.add("id=" + id);
        }
        parts.add("master=" + master);
        for (String g : hosts.keySet()) {
            parts.add("group." + g + "=" + hosts.get(g) + ":" + ports.get(g));
        }
        if (secretFile != null) {
            parts.add("secretFile=" + secretFile);
        }
        if (tlsCert != null) {
            parts.add("tlsCert=" + tlsCert);
            parts.add("tlsKey=" + tlsKey);
            parts.add("tlsTrust=" + tlsTrust);
        }
        if (insecure) {
            parts.add("insecure=true");
        }
        parts.add("peerTimeoutMs=" + peerTimeout.toMillis());
        parts.add("livenessTimeoutMs=" + livenessTimeout.toMillis());
        if (stallTimeout != null) { // absent when off: a job without one keeps its derived id
            parts.add("stallTimeoutMs=" + stallTimeout.toMillis());
        }
        return parts;
    }

    /**
     * Reads the text form written by {@link #toText()}: {@code key=value} pairs separated by {@code ;}.
     *
     * @param text the text form
     * @return the job
     * @throws IllegalArgumentException if the text is malformed or describes an invalid job
     */
    public static JobSpec parse(String text) {
        Objects.requireNonNull(text, "text");
        Builder b = builder();
        String master = null;
        Path cert = null;
        Path key = null;
        Path trust = null;
        for (String part : text.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("job text: expected key=value, got '" + part + "'");
            }
            String k = part.substring(0, eq).trim();
            String v = part.substring(eq + 1).trim();
            if (k.startsWith("group.")) {
                String g = k.substring(6);
                int colon = v.lastIndexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("job text: group '" + g + "' needs host:port (an empty host: the"
                            + " engine's), got '" + v + "'");
                }
                b.group(g, v.substring(0, colon), port("job text: group '" + g + "'", v.substring(colon + 1)));
                continue;
            }
            switch (k) {
                case "id" -> b.id(v);
                case "livenessTimeoutMs" -> b.livenessTimeout(Duration.ofMillis(millis(k, v)));
                case "master" -> master = v;
                case "secretFile" -> b.secretFile(Path.of(v));
                case "tlsCert" -> cert = Path.of(v);
                case "tlsKey" -> key = Path.of(v);
                case "tlsTrust" -> trust = Path.of(v);
                case "insecure" -> {
                    if (!v.equals("true") && !v.equals("false")) {
                        throw new IllegalArgumentException("job text: insecure must be true or false, got '" + v + "'");
                    }
                    if (v.equals("true")) {
                        b.allowInsecure();
                    }
                }
                case "peerTimeoutMs" -> b.peerTimeout(Duration.ofMillis(millis(k, v)));
                case "stallTimeoutMs" -> b.stallTimeout(Duration.ofMillis(millis(k, v)));
                default -> throw new IllegalArgumentException("job text: unknown key '" + k + "'");
            }
        }
        if (cert != null || key != null || trust != null) {
            b.tls(cert, key, trust);
        }
        if (master != null) {
            b.master(master);
        }
        return b.build();
    }

    /**
     * A port given as text: a whole number from 1 to 65535, or an {@link IllegalArgumentException}
     * saying where ({@code where}) and what was wrong.
     */
    static int port(String where, String text) {
        int p;
        try {
            p = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": port '" + text + "' is not a whole number from 1 to 65535");
        }
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException(where + ": port " + p + " is not from 1 to 65535");
        }
        return p;
    }

    private static long millis(String key, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("job text: " + key + " must be a whole number of milliseconds, got '" + text + "'");
        }
    }

    @Override
    public String toString() {
        return toText();
    }

    /** Builds a {@link JobSpec}. */
    public static final class Builder {
        private String master;
        private final Map<String, String> hosts = new LinkedHashMap<>();
        private final Map<String, Integer> ports = new LinkedHashMap<>();
        /** Hosts resolved by {@link #sameEndpoint} (only when two groups share a port): to a loopback address, else null. */
        private final Map<String, InetAddress> loopbacks = new java.util.HashMap<>();
        private Path secretFile;
        private Path tlsCert;
        private Path tlsKey;
        private Path tlsTrust;
        private boolean insecure;
        private Duration peerTimeout = Duration.ofSeconds(30);
        private Duration livenessTimeout = Duration.ofMillis(1500);
        private Duration stallTimeout;
        private String id;

        private Builder() {}

        /**
         * Adds a group whose host the engine that places the processes gives
         * ({@link DistributedJob#fromEnvironment()}: Slurm's node list, or a host pattern).
         *
         * @param name the group's name (letters, digits, '-', '_' and '.'; at most 44 characters)
         * @param port the port, 1..65535
         * @return this builder
         * @throws IllegalArgumentException if the name is invalid or taken, or the port out of range
         */
        public Builder group(String name, int port) {
            return group(name, "", port);
        }

        /**
         * The job's identity (default: derived from the groups and options). Give each run its own
         * (the launcher does) so that even two runs of one job file never cross.
         *
         * @param id at most 64 printable ASCII characters, not empty
         * @return this builder
         * @throws IllegalArgumentException if empty, longer, or not printable ASCII
         */
        public Builder id(String id) {
            Objects.requireNonNull(id, "id");
            if (id.isEmpty() || id.length() > 64 || !id.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != ';')) {
                throw new IllegalArgumentException("job id must be 1 to 64 printable ASCII characters without spaces or"
                        + " ';', got '" + id + "'");
            }
            this.id = id;
            return this;
        }

        /**
         * How long a process may show no sign of life before it is suspected lost (default 1.5 s); see
         * {@link JobSpec#livenessTimeout()}.
         *
         * @param timeout the timeout, at least 100 ms and at most the peer timeout
         * @return this builder
         * @throws IllegalArgumentException if shorter than 100 ms or longer than {@link NetOptions#MAX_DURATION}
         */
        public Builder livenessTimeout(Duration timeout) {
            this.livenessTimeout = timeout("liveness timeout", timeout);
            return this;
        }

        /**
         * Turns the stall watch on (it is off by default): a remote worker (stage, member, or linked run
         * of stages) with tasks outstanding (sent, and their end-of-task mark not back) whose counts of
         * tasks sent and results and marks taken do not move for {@code timeout} has its group treated
         * as lost; see {@link JobSpec#stallTimeout()}. It watches in every phase: a send waiting for the
         * window, the stand-in waiting for its next item with tasks unfinished, the end of the stream;
         * an idle worker whose tasks all finished is never stuck. With it on, every block placed in
         * another group must be a {@link org.bbflow.core.Node} (its group refuses another block at
         * {@link DistributedJob#run}), since the end of its {@code onItem} marks where a task ends.
         * Off by default since a task may legitimately take longer than any default: set it above the
         * longest task a worker may run.
         *
         * @param timeout the timeout, at least 100 ms
         * @return this builder
         * @throws IllegalArgumentException if shorter than 100 ms (zero and negative included) or longer
         *     than {@link NetOptions#MAX_DURATION}
         */
        public Builder stallTimeout(Duration timeout) {
            this.stallTimeout = timeout("stall timeout", Objects.requireNonNull(timeout, "timeout"));
            return this;
        }

        /**
         * Adds a group and the address its process listens on.
         *
         * @param name the group's name (letters, digits, '-', '_' and '.'; at most 44 characters)
         * @param host the host name or address (no spaces, ';' or '=', not starting with '-')
         * @param port the port, 1..65535
         * @return this builder
         * @throws IllegalArgumentException if the name is invalid or taken, the host not a host, the port out
         *     of range, or another group already listens on that endpoint (the same name, or another name of
         *     the same loopback address, as {@code localhost} and {@code 127.0.0.1}; a name that does not
         *     resolve here is compared as written)
         */
        public Builder group(String name, String host, int port) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(host, "host");
            if (!name.matches("[A-Za-z0-9_.-]+")) {
                throw new IllegalArgumentException("group name must be letters, digits, '-', '_' or '.', got '" + name + "'");
            }
            if (name.length() > MAX_GROUP_NAME) {
                throw new IllegalArgumentException("group name '" + name + "' is " + name.length() + " characters, at most "
                        + MAX_GROUP_NAME + " (every handshake of its process carries it as 'name#generation', at most 64)");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("group '" + name + "': port out of range: " + port);
            }
            if (!host.isEmpty() && !host.matches("[^\\s\\p{Cntrl};=-][^\\s\\p{Cntrl};=]*")) {
                throw new IllegalArgumentException("group '" + name + "': host '" + host + "' is not a host name or"
                        + " address (no spaces, ';' or '=', not starting with '-')");
            }
            if (hosts.containsKey(name)) {
                throw new IllegalArgumentException("group '" + name + "' is given twice");
            }
            for (Map.Entry<String, String> other : hosts.entrySet()) {
                if (host.isEmpty() || ports.get(other.getKey()) != port || other.getValue().isEmpty()) {
                    continue;
                }
                String same = sameEndpoint(other.getValue(), host);
                if (same != null) {
                    throw new IllegalArgumentException("groups '" + other.getKey() + "' and '" + name + "' are both given "
                            + same.replace("{port}", Integer.toString(port))
                            + "; each group listens on an address of its own");
                }
            }
            hosts.put(name, host);
            ports.put(name, port);
            return this;
        }

        /**
         * Whether two hosts name one endpoint, as the text of the refusal ({@code {port}} for the port),
         * or null. Equal names are one endpoint; so are two names of one loopback address (resolved
         * here: {@code localhost} and {@code 127.0.0.1}, which would otherwise pass and fail only when
         * the second group binds). Names that do not resolve here are compared as written, ignoring
         * case: they may resolve where the job runs (a cluster's names, seen from a laptop), and the
         * bind stays the final judge. Other addresses are not compared: whether two names reach one
         * machine is the network's say, not this machine's.
         */
        private String sameEndpoint(String a, String b) {
            if (a.equals(b)) {
                return a + ":{port}";
            }
            InetAddress ra = loopback(a);
            InetAddress rb = loopback(b);
            if (ra != null && ra.equals(rb)) {
                String addr = ra.getHostAddress();
                List<String> names = new ArrayList<>();
                for (String h : List.of(a, b)) {
                    if (!h.equals(addr)) {
                        names.add(h + " is " + addr);
                    }
                }
                return addr + ":{port} (" + String.join(", ", names) + ")";
            }
            if (ra == null && rb == null && a.equalsIgnoreCase(b)) {
                return a + ":{port} (" + b + " is the same name: host names ignore case)";
            }
            return null;
        }

        /** The loopback address {@code host} names (what binding it would take), or null if it names another or none here. */
        private InetAddress loopback(String host) {
            if (loopbacks.containsKey(host)) {
                return loopbacks.get(host); // null remembered too: one lookup per name
            }
            InetAddress found;
            try {
                InetAddress a = InetAddress.getByName(host);
                found = a.isLoopbackAddress() ? a : null;
            } catch (UnknownHostException | SecurityException e) {
                found = null;
            }
            loopbacks.put(host, found);
            return found;
        }

        /**
         * Names the master group (default: the first group added).
         *
         * @param group the master group's name
         * @return this builder
         */
        public Builder master(String group) {
            this.master = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * Authenticates every connection with the shared secret held in a file (at least 16 bytes; a
         * trailing newline is ignored). The file is read by every process, on its host.
         *
         * @param file the secret's file
         * @return this builder
         * @throws IllegalArgumentException if its name holds ';' or control characters, or begins or ends with a space
         */
        public Builder secretFile(Path file) {
            this.secretFile = carried("secret file", Objects.requireNonNull(file, "file"));
            return this;
        }

        /**
         * Mutual TLS on every connection, from PEM files present on every host: each process
         * presents {@code cert} both as a server and as a client, and each end refuses a peer whose
         * certificate {@code trust} does not accept, so a process of another job is refused in the
         * handshake whatever job identity it claims. The certificate must name the hosts clients
         * dial, and serve for client authentication too (no extended key usage, or both
         * {@code serverAuth} and {@code clientAuth}).
         *
         * @param cert this process's certificate chain
         * @param key its private key (PKCS#8, unencrypted)
         * @param trust the certificates trusted, of servers when connecting and of clients when listening
         * @return this builder
         * @throws IllegalArgumentException if a file is not given, or its name holds ';' or control characters
         */
        public Builder tls(Path cert, Path key, Path trust) {
            if (cert == null || key == null || trust == null) {
                throw new IllegalArgumentException("TLS needs a certificate, a key and trusted certificates");
            }
            this.tlsCert = carried("TLS certificate file", cert);
            this.tlsKey = carried("TLS key file", key);
            this.tlsTrust = carried("TLS trust file", trust);
            return this;
        }

        /** A job's timeout: from 100 ms to {@link NetOptions#MAX_DURATION} (longer ones overflow the nanosecond clock). */
        private static Duration timeout(String what, Duration timeout) {
            if (timeout.compareTo(NetOptions.MAX_DURATION) > 0 || timeout.toMillis() < 100) {
                throw new IllegalArgumentException(what + " must be from 100 ms to 365 days, got " + timeout);
            }
            return timeout;
        }

        /** A file the text form can carry: no ';' (it ends a value), no space at either end (trimmed). */
        private static Path carried(String what, Path file) {
            String text = file.toString();
            if (text.contains(";") || !text.equals(text.trim()) || text.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException(what + " '" + text + "': a job's files cannot hold ';', control"
                        + " characters or spaces at either end (the job's text form separates its values with ';')");
            }
            return file;
        }

        /**
         * Allows groups to listen on non-loopback addresses without a secret or TLS. Anyone who can
         * reach such a port can feed the job; use only on a trusted network.
         *
         * @return this builder
         */
        public Builder allowInsecure() {
            this.insecure = true;
            return this;
        }

        /**
         * How long a peer may stay away (or take to start) before the job fails; default 30 s.
         *
         * @param timeout the timeout, at least 100 ms
         * @return this builder
         * @throws IllegalArgumentException if shorter than 100 ms or longer than {@link NetOptions#MAX_DURATION}
         */
        public Builder peerTimeout(Duration timeout) {
            this.peerTimeout = timeout("peer timeout", timeout);
            return this;
        }

        /**
         * The job.
         *
         * @return the job
         * @throws IllegalArgumentException if it has no group or the master is not one of them
         */
        public JobSpec build() {
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("a job needs at least one group");
            }
            if (master == null) {
                master = hosts.keySet().iterator().next();
            }
            if (!hosts.containsKey(master)) {
                throw new IllegalArgumentException("master group '" + master + "' is not one of the groups " + hosts.keySet());
            }
            if (livenessTimeout.compareTo(peerTimeout) > 0) {
                livenessTimeout = peerTimeout;
            }
            if (!master.equals(hosts.keySet().iterator().next())) {
                Map<String, String> h = new LinkedHashMap<>();
                Map<String, Integer> p = new LinkedHashMap<>();
                h.put(master, hosts.get(master));
                p.put(master, ports.get(master));
                h.putAll(hosts);
                p.putAll(ports);
                hosts.clear();
                ports.clear();
                hosts.putAll(h);
                ports.putAll(p);
            }
            return new JobSpec(this);
        }
    }

}
