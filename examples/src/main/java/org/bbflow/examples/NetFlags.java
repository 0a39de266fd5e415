package org.bbflow.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLException;
import org.bbflow.net.NetOptions;
import org.bbflow.net.TlsContexts;
import picocli.CommandLine.Option;

/**
 * The network options {@code worker} and {@code master} share: where to listen, a shared secret,
 * TLS, the peer timeout. Listening beyond this machine without a secret or TLS is refused unless
 * {@code --insecure}: anyone who can reach the port could otherwise feed the flow.
 */
final class NetFlags {
    /** Where a command listens unless told otherwise: this machine only. */
    static final String LOOPBACK = "127.0.0.1";
    /** The shortest shared secret accepted. */
    static final int MIN_SECRET_BYTES = 16;

    @Option(names = "--bind", paramLabel = "ADDRESS",
            description = "address to listen on (default ${DEFAULT-VALUE}: this machine only; another address needs"
                    + " --secret/--secret-file or --tls, or --insecure)")
    String bind = LOOPBACK;

    @Option(names = "--secret", paramLabel = "TEXT",
            description = "shared secret (>= 16 bytes) both ends prove before any channel opens;"
                    + " visible to other users in the process list, prefer --secret-file")
    String secret;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "file holding the shared secret (trailing newline ignored)")
    Path secretFile;

    @Option(names = "--tls", description = "TLS on every connection; needs --tls-cert, --tls-key and --tls-trust")
    boolean tls;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "this side's certificate chain (PEM)")
    Path cert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "this side's private key (PKCS#8 PEM, unencrypted)")
    Path key;

    @Option(names = "--tls-trust", paramLabel = "PEM", description = "certificates trusted when connecting (PEM)")
    Path trust;

    @Option(names = "--peer-timeout", paramLabel = "DURATION", converter = Converters.PositiveTime.class,
            description = "how long a peer may stay away before the run fails, e.g. 30s (default: the network"
                    + " module's default)")
    Duration peerTimeout;

    @Option(names = "--insecure", description = "allow listening beyond this machine without a secret or TLS")
    boolean insecure;

    /** The two sides' options: to listen (server TLS context) and to connect (client TLS context). */
    record Both(NetOptions server, NetOptions client) {
    }

    /**
     * Checks the flags and builds the options.
     *
     * @param command for error messages
     * @return options to listen and to connect with
     * @throws IllegalArgumentException on a usage error (the caller makes it one)
     * @throws IOException if a secret or certificate file cannot be read
     */
    Both options(Subcommand command) throws IOException {
        NetOptions base = NetOptions.defaults();
        if (peerTimeout != null) {
            base = base.withPeerTimeout(peerTimeout);
        }
        byte[] key = secretBytes(command);
        if (key != null) {
            base = base.withSharedSecret(key);
            Arrays.fill(key, (byte) 0);
        }
        if (!tls && (cert != null || this.key != null || trust != null)) {
            throw command.usage("--tls-cert, --tls-key and --tls-trust need --tls");
        }
        NetOptions server = base;
        NetOptions client = base;
        if (tls) {
            if (cert == null || this.key == null || trust == null) {
                throw command.usage("--tls needs --tls-cert, --tls-key and --tls-trust (this side listens and connects)");
            }
            for (Path p : new Path[] {cert, this.key, trust}) {
                Subcommand.inputFile(p); // a directory is named as such, not "no such file"
            }
            // Mutual: each side presents --tls-cert and accepts only peers --tls-trust holds. --tls
            // counts as authentication (it lets --bind reach beyond this machine), and a server that
            // asked clients for nothing let anyone who could reach it send tasks.
            try {
                server = base.withTls(TlsContexts.mutualServer(cert, this.key, trust));
                client = base.withTls(TlsContexts.mutualClient(cert, this.key, trust));
            } catch (IllegalArgumentException e) {
                throw new SSLException("cannot use --tls-cert " + cert + ", --tls-key " + this.key + " and --tls-trust "
                        + trust + ": " + e.getMessage(), e);
            }
        }
        if (!isLoopback(command, "--bind", bind) && key == null && !tls && !insecure) {
            throw command.usage("--bind " + bind + " would accept connections from other machines without"
                    + " authentication: give --secret-file FILE (or --secret) or --tls, or --insecure to allow it");
        }
        return new Both(server, client);
    }

    /** Whether a secret or TLS protects the connections. */
    boolean authenticated() {
        return secret != null || secretFile != null || tls;
    }

    private byte[] secretBytes(Subcommand command) throws IOException {
        if (secret != null && secretFile != null) {
            throw command.usage("give --secret or --secret-file, not both");
        }
        byte[] bytes;
        String what;
        if (secret != null) {
            bytes = secret.getBytes(StandardCharsets.UTF_8);
            what = "--secret";
        } else if (secretFile != null) {
            Subcommand.inputFile(secretFile); // a directory was the JDK's bare "Is a directory"
            byte[] raw = Files.readAllBytes(secretFile);
            int n = raw.length;
            while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r')) {
                n--;
            }
            bytes = Arrays.copyOf(raw, n);
            Arrays.fill(raw, (byte) 0);
            what = "--secret-file " + secretFile;
        } else {
            return null;
        }
        if (bytes.length < MIN_SECRET_BYTES) {
            throw command.usage(what + ": a secret must be at least " + MIN_SECRET_BYTES + " bytes, got "
                    + bytes.length);
        }
        return bytes;
    }

    /** Whether {@code host} names this machine only (a loopback address); {@code option} names it in errors. */
    static boolean isLoopback(Subcommand command, String option, String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw command.usage(option + ": unknown host '" + host + "'");
        }
    }
}
