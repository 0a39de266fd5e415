package org.bbflow.net;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates made at test time with the JDK's own {@code keytool} (no Bouncy Castle):
 * a PKCS12 key store per identity, loaded into Netty server and client contexts.
 */
final class TestCerts {
    private static final char[] PASSWORD = "changeit".toCharArray();

    final KeyStore store;

    private TestCerts(KeyStore store) {
        this.store = store;
    }

    static TestCerts generate(Path dir, String name) throws Exception {
        return generate(dir, name, "localhost", "dns:localhost,ip:127.0.0.1");
    }

    /** An identity whose certificate names {@code commonName} and the subject alternative names {@code san} (keytool syntax). */
    static TestCerts generate(Path dir, String name, String commonName, String san) throws Exception {
        Path file = dir.resolve(name + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-validity", "2", "-dname", "CN=" + commonName,
                "-ext", "SAN=" + san, "-storetype", "PKCS12", "-keystore", file.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("keytool failed: " + out);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, PASSWORD);
        }
        return new TestCerts(ks);
    }

    static char[] password() {
        return PASSWORD.clone();
    }

    SslContext server() throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, PASSWORD);
        return SslContextBuilder.forServer(kmf).build();
    }

    /** A client context trusting exactly this identity's certificate. */
    SslContext clientTrustingThis() throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        return SslContextBuilder.forClient().trustManager(tmf).build();
    }
}
