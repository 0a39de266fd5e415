package org.bbflow.net;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS contexts for {@link NetOptions#withTls}, built from Java key stores (PKCS12 files as made by
 * {@code keytool} or {@code openssl pkcs12}). TLS 1.3 and 1.2 only.
 *
 * <ul>
 *   <li>{@link #server}: the server proves its identity; any client that completes the handshake
 *       (and, if set, proves the shared secret) may connect.</li>
 *   <li>{@link #client}: the client trusts exactly the certificates (or issuers) in its trust store, and
 *       checks that the server's certificate names the host it connects to.</li>
 *   <li>{@link #mutualServer} and {@link #mutualClient}: mutual TLS. The server requires a client
 *       certificate issued by (or equal to) one in its trust store and refuses the connection
 *       otherwise.</li>
 * </ul>
 * Trust a private certificate authority (or the peers' own certificates), not the JDK's public trust
 * store: any publicly trusted certificate for the right host name would pass.
 */
public final class TlsContexts {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private TlsContexts() {}

    /**
     * Loads a PKCS12 key store.
     *
     * @param file the key store file
     * @param password its password
     * @return the loaded store
     * @throws IllegalArgumentException if the file cannot be read or is not a PKCS12 store with this password
     */
    public static KeyStore load(Path file, char[] password) {
        Objects.requireNonNull(file, "file");
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            return ks;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot load key store " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A server context presenting the key and certificate in {@code keys}; clients are not asked for certificates.
     *
     * @param keys a store with the server's private key and certificate chain
     * @param password the password of the key
     * @return the server context
     * @throws IllegalArgumentException if the store holds no usable key
     */
    public static SslContext server(KeyStore keys, char[] password) {
        return build(() -> SslContextBuilder.forServer(keyManagers(keys, password)));
    }

    /**
     * A server context for mutual TLS: presents {@code keys} and requires every client to present a
     * certificate that {@code trustedClients} vouches for; other clients fail the TLS handshake.
     *
     * @param keys a store with the server's private key and certificate chain
     * @param password the password of the key
     * @param trustedClients the client certificates, or their issuers, to accept
     * @return the server context
     * @throws IllegalArgumentException if a store is unusable
     */
    public static SslContext mutualServer(KeyStore keys, char[] password, KeyStore trustedClients) {
        return build(() -> SslContextBuilder.forServer(keyManagers(keys, password))
                .trustManager(trustManagers(trustedClients)).clientAuth(ClientAuth.REQUIRE));
    }

    /**
     * A client context trusting the server certificates (or issuers) in {@code trustedServers}.
     *
     * @param trustedServers the certificates to trust
     * @return the client context
     * @throws IllegalArgumentException if the store is unusable
     */
    public static SslContext client(KeyStore trustedServers) {
        return build(() -> SslContextBuilder.forClient().trustManager(trustManagers(trustedServers)));
    }

    /**
     * A client context for mutual TLS: trusts {@code trustedServers} and presents the key and
     * certificate in {@code keys} when the server asks for one.
     *
     * @param trustedServers the certificates to trust
     * @param keys a store with the client's private key and certificate chain
     * @param password the password of the key
     * @return the client context
     * @throws IllegalArgumentException if a store is unusable
     */
    public static SslContext mutualClient(KeyStore trustedServers, KeyStore keys, char[] password) {
        return build(() -> SslContextBuilder.forClient().trustManager(trustManagers(trustedServers))
                .keyManager(keyManagers(keys, password)));
    }

    /**
     * {@link #mutualServer(KeyStore, char[], KeyStore)} from PEM files: presents {@code cert} (a
     * certificate chain) with {@code key} (PKCS#8, unencrypted) and requires every client to present
     * a certificate that {@code trust} (certificates) vouches for.
     *
     * @param cert this side's certificate chain
     * @param key its private key
     * @param trust the client certificates, or their issuers, to accept
     * @return the server context
     * @throws IllegalArgumentException if a file is missing or unusable
     */
    public static SslContext mutualServer(Path cert, Path key, Path trust) {
        return build(() -> SslContextBuilder.forServer(cert.toFile(), key.toFile()).trustManager(trust.toFile())
                .clientAuth(ClientAuth.REQUIRE));
    }

    /**
     * {@link #mutualClient(KeyStore, KeyStore, char[])} from PEM files: trusts the servers that
     * {@code trust} vouches for and presents {@code cert} with {@code key} when the server asks.
     *
     * @param cert this side's certificate chain
     * @param key its private key (PKCS#8, unencrypted)
     * @param trust the server certificates, or their issuers, to trust
     * @return the client context
     * @throws IllegalArgumentException if a file is missing or unusable
     */
    public static SslContext mutualClient(Path cert, Path key, Path trust) {
        return build(() -> SslContextBuilder.forClient().keyManager(cert.toFile(), key.toFile())
                .trustManager(trust.toFile()));
    }

    private interface Builder {
        SslContextBuilder get() throws GeneralSecurityException;
    }

    private static SslContext build(Builder b) {
        try {
            return b.get().protocols(PROTOCOLS).build();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot build TLS context: " + e.getMessage(), e);
        }
    }

    private static KeyManagerFactory keyManagers(KeyStore keys, char[] password) throws GeneralSecurityException {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(Objects.requireNonNull(keys, "keys"), password);
        return kmf;
    }

    private static TrustManagerFactory trustManagers(KeyStore trusted) throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(Objects.requireNonNull(trusted, "trusted"));
        return tmf;
    }
}
