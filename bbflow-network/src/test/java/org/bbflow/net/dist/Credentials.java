package org.bbflow.net.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A shared secret and a TLS certificate for {@link RandomJobTest}'s secured jobs, made once per test
 * JVM in a temporary directory (deleted at exit): the certificate names 127.0.0.1 and localhost,
 * and trusts itself ({@link JobTlsTest#pem}).
 */
final class Credentials {
    private static Path dir;
    private static Path secret;
    private static Path[] tls;

    private Credentials() {
    }

    private static synchronized Path dir() throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory("bbflow-random-job");
            dir.toFile().deleteOnExit();
        }
        return dir;
    }

    /** A secret file of 32 bytes. */
    static synchronized Path secret() {
        try {
            if (secret == null) {
                Path f = dir().resolve("secret");
                Files.writeString(f, "random-job-secret-0123456789abcdef\n");
                f.toFile().deleteOnExit();
                secret = f;
            }
            return secret;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The certificate (also the trust) and its key. */
    static synchronized Path[] tls() {
        try {
            if (tls == null) {
                Path[] made = JobTlsTest.pem(dir(), "job");
                for (Path p : made) {
                    p.toFile().deleteOnExit();
                }
                dir().resolve("job.p12").toFile().deleteOnExit();
                tls = made;
            }
            return tls.clone();
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the test's TLS certificate", e);
        }
    }
}
