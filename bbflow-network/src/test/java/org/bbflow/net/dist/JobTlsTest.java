package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.SslContextBuilder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job secured by TLS alone ({@code JobSpec.Builder.tls}, no secret): its processes run the job,
 * and a peer of another job, holding a certificate of its own, is refused by the job's servers in
 * the TLS handshake whatever job identity it claims (the identity is no secret: every server sends
 * its own in its challenge).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobTlsTest {
    @TempDir
    static Path dir;
    /** This job's certificate and key (also its trust), and another job's: made once, by two keytool runs at once. */
    private static Path[] a;
    private static Path[] b;

    @BeforeAll
    static void certificates() throws Exception {
        CompletableFuture<Path[]> other = CompletableFuture.supplyAsync(() -> {
            try {
                return pem(dir, "b");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        a = pem(dir, "a");
        b = other.get(30, TimeUnit.SECONDS);
    }

    /** A self-signed certificate for 127.0.0.1 and localhost, written as PEM files {@code name.crt} and {@code name.key}. */
    static Path[] pem(Path dir, String name) throws Exception {
        Path store = dir.resolve(name + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname",
                "secp256r1", "-sigalg", "SHA256withECDSA", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + out);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        X509Certificate cert = (X509Certificate) ks.getCertificate(name);
        PrivateKey key = (PrivateKey) ks.getKey(name, "changeit".toCharArray());
        Base64.Encoder b64 = Base64.getMimeEncoder(64, "\n".getBytes());
        Path crt = dir.resolve(name + ".crt");
        Path k = dir.resolve(name + ".key");
        Files.writeString(crt, "-----BEGIN CERTIFICATE-----\n" + b64.encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        Files.writeString(k, "-----BEGIN PRIVATE KEY-----\n" + b64.encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return new Path[] {crt, k};
    }

    @Test
    void aJobSecuredByTlsAloneRunsWithExactResults() {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2").tls(a[0], a[1], a[0])
                .peerTimeout(Duration.ofSeconds(10)).livenessTimeout(Duration.ofSeconds(1)).build();
        try (LocalJob<DistApp.Outcome> local = LocalJob.start(spec, job -> DistApp.run(job, 20_000, -1))) {
            DistApp.Outcome o = local.result("m", Duration.ofSeconds(20));
            assertTrue(o.exact(), o::toString);
            assertEquals(0, local.result("w1", Duration.ofSeconds(20)).count());
        }
    }

    /**
     * A peer of another job, with that job's certificate (which trusts this job's server, as peers
     * under one cluster CA do) and this job's identity, sends on a channel of this job's server: it
     * must be refused, and nothing it sent may arrive. The job's own peers (its client options) get
     * through. Before, the job's servers asked for no client certificate: any client that claimed
     * the job's identity, which the server itself sends in its challenge, was admitted.
     */
    @Test
    void aPeerOfAnotherTlsJobIsRefusedWhateverIdentityItClaims() throws Exception {
        JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1").tls(a[0], a[1], a[0]).peerTimeout(Duration.ofSeconds(5))
                .build();
        NetOptions[] options = spec.options();
        try (NetServer server = NetServer.bind("127.0.0.1", spec.port("m"), options[0]);
             RemoteInlet<Long> intruded = server.inlet(7, Codec.longs());
             RemoteInlet<Long> own = server.inlet(8, Codec.longs())) {
            // the other job's process: its own certificate and key, trusting this job's server
            NetOptions other = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(60))
                    .withTls(SslContextBuilder.forClient().keyManager(b[0].toFile(), b[1].toFile())
                            .trustManager(a[0].toFile()).build())
                    .withIdentity(spec.id(), "w1#1");
            long t0 = System.nanoTime();
            CompletableFuture<RuntimeException> refused = CompletableFuture.supplyAsync(() -> {
                try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", spec.port("m"), 7, Codec.longs(), other)) {
                    out.send(42L);
                    out.complete();
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            RuntimeException e = refused.get(25, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(e instanceof RemoteChannelException, () -> "a peer of another job was admitted: " + e);
            // the server's refusal is a verdict: the peer fails at once, not after retrying for its peer timeout
            assertTrue(e.getMessage().contains("certificate"), e::getMessage);
            assertTrue(ms < 10_000, () -> "refused after " + ms + " ms: " + e.getMessage());
            // the job's own peers get in
            try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", spec.port("m"), 8, Codec.longs(),
                    options[1].withIdentity(spec.id(), "w1#1"))) {
                out.send(43L);
                out.complete();
            }
            assertEquals(43L, own.take());
            assertEquals(null, own.take());
        }
    }
}
