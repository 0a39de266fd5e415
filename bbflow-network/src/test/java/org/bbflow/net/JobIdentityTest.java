package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Finding 34.5: the job identity in the handshake. A peer of another job is refused, with or without
 * a secret (also with a different secret: the job is checked before the MAC), and the refusal names
 * both jobs; a fenced member is refused and its open connections closed; the same job and member
 * still connect.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobIdentityTest {
    private static final byte[] SECRET_A = "job-a-secret-0123456789".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SECRET_B = "job-b-secret-9876543210".getBytes(StandardCharsets.US_ASCII);

    private static NetOptions opts(byte[] secret) {
        NetOptions o = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));
        return secret == null ? o : o.withSharedSecret(secret);
    }

    /** Sends one item from a client of {@code clientJob} to a server of {@code serverJob}; the failure, or null. */
    private static RemoteChannelException cross(String serverJob, byte[] serverSecret, String clientJob, byte[] clientSecret)
            throws Exception {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts(serverSecret).withIdentity(serverJob, ""))) {
            RemoteInlet<Long> in = server.inlet(7, Codec.longs());
            try (RemoteOutlet<Long> out = NetClient.outlet("127.0.0.1", server.port(), 7, Codec.longs(),
                    opts(clientSecret).withIdentity(clientJob, "w1#1"))) {
                out.send(42L);
                out.complete();
                assertEquals(42L, in.take());
                return null;
            } catch (RemoteChannelException e) {
                return e;
            } finally {
                in.close();
            }
        }
    }

    @Test
    void aPeerOfAnotherJobIsRefusedNamingBothJobsWithoutASecret() throws Exception {
        RemoteChannelException e = cross("squares-1", null, "squares-2", null);
        assertTrue(e != null && e.getMessage().contains("'squares-1'") && e.getMessage().contains("'squares-2'"),
                () -> String.valueOf(e));
    }

    @Test
    void aPeerOfAnotherJobIsRefusedNamingBothJobsWhateverItsSecret() throws Exception {
        RemoteChannelException same = cross("squares-1", SECRET_A, "squares-2", SECRET_A);
        assertTrue(same != null && same.getMessage().contains("'squares-1'") && same.getMessage().contains("'squares-2'"),
                () -> String.valueOf(same));
        RemoteChannelException other = cross("squares-1", SECRET_A, "squares-2", SECRET_B);
        assertTrue(other != null && other.getMessage().contains("'squares-1'") && other.getMessage().contains("'squares-2'"),
                () -> String.valueOf(other));
    }

    @Test
    void aPeerOfNoJobIsRefusedByAJobsServer() throws Exception {
        RemoteChannelException e = cross("squares-1", null, "", null);
        assertTrue(e != null && e.getMessage().contains("'squares-1'"), () -> String.valueOf(e));
    }

    @Test
    void theSameJobConnectsWithAndWithoutASecret() throws Exception {
        assertEquals(null, cross("squares-1", null, "squares-1", null));
        assertEquals(null, cross("squares-1", SECRET_A, "squares-1", SECRET_A));
        assertEquals(null, cross("", null, "", null));
    }

    @Test
    void aFencedMemberIsRefusedAndItsConnectionsClosed() throws Exception {
        NetOptions o = opts(SECRET_A);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, o.withIdentity("job", ""));
             NetClient old = NetClient.connect("127.0.0.1", server.port(), o.withIdentity("job", "w1#1"))) {
            RemoteInlet<Long> in = server.inlet(8, Codec.longs());
            RemoteOutlet<Long> out = old.outlet(8, Codec.longs());
            out.send(1L);
            assertEquals(1L, in.take());
            server.fence("w1#1", "replaced by generation 2");
            RemoteChannelException e = assertThrows(RemoteChannelException.class, () -> {
                for (long i = 0; i < 10_000_000; i++) {
                    out.send(i);
                    if (i % 1000 == 0) {
                        Thread.sleep(1);
                    }
                }
            });
            assertTrue(e.getMessage().contains("fenced"), e::getMessage);
            in.close();
            RemoteInlet<Long> in2 = server.inlet(9, Codec.longs());
            try (RemoteOutlet<Long> fresh = NetClient.outlet("127.0.0.1", server.port(), 9, Codec.longs(),
                    o.withIdentity("job", "w1#2"))) {
                fresh.send(2L);
                fresh.complete();
                assertEquals(2L, in2.take());
            }
            in2.close();
        }
    }

    @Test
    void identitiesAreCheckedAtTheBoundary() {
        assertThrows(IllegalArgumentException.class, () -> NetOptions.defaults().withIdentity("x".repeat(65), ""));
        assertThrows(IllegalArgumentException.class, () -> NetOptions.defaults().withIdentity("caf\u00e9", ""));
        assertThrows(NullPointerException.class, () -> NetOptions.defaults().withIdentity(null, ""));
    }
}
