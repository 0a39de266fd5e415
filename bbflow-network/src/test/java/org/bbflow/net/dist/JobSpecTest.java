package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The job's text form and builder: strict values, named errors, identities. */
class JobSpecTest {
    private static String refusal(String text) {
        return assertThrows(IllegalArgumentException.class, () -> JobSpec.parse(text)).getMessage();
    }

    @Test
    void badPortsNameTheGroupAndTheValue() {
        String e = refusal("master=m;group.m=127.0.0.1:x25621");
        assertTrue(e.contains("group 'm'") && e.contains("'x25621'"), e);
        e = refusal("master=m;group.m=127.0.0.1:25621.7");
        assertTrue(e.contains("group 'm'") && e.contains("'25621.7'"), e);
        e = refusal("master=m;group.m=127.0.0.1:70000");
        assertTrue(e.contains("70000"), e);
        e = refusal("master=m;group.m=127.0.0.1");
        assertTrue(e.contains("needs host:port"), e);
    }

    @Test
    void unknownKeysAndLooseBooleansAreRefused() {
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;prot=3").contains("unknown key 'prot'"));
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;insecure=yes").contains("insecure must be true or false"));
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;peerTimeoutMs=3s").contains("peerTimeoutMs"));
    }

    @Test
    void timeoutsLongerThanAYearAreRefusedWhenTheJobIsRead() {
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;peerTimeoutMs=9223372036854775807")
                .contains("peer timeout must be from 100 ms to 365 days"));
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;livenessTimeoutMs=31622400000")
                .contains("liveness timeout must be from 100 ms to 365 days"));
    }

    @Test
    void theStallTimeoutIsOffByDefaultCarriedInTheTextAndRefusedOutOfRange() {
        JobSpec off = JobSpec.builder().group("m", "127.0.0.1", 7100).build();
        assertTrue(off.stallTimeout().isEmpty());
        assertTrue(!off.toText().contains("stallTimeout"), off::toText); // off: no key, the derived id as before
        JobSpec on = JobSpec.builder().group("m", "127.0.0.1", 7100).stallTimeout(Duration.ofSeconds(90)).build();
        assertEquals(Duration.ofSeconds(90), JobSpec.parse(on.toText()).stallTimeout().orElseThrow());
        assertNotEquals(off.id(), on.id());
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), Duration.ofDays(366)}) {
            String e = assertThrows(IllegalArgumentException.class, () -> JobSpec.builder().stallTimeout(bad)).getMessage();
            assertTrue(e.contains("stall timeout must be from 100 ms to 365 days"), e);
        }
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;stallTimeoutMs=31622400000")
                .contains("stall timeout must be from 100 ms to 365 days"));
        assertTrue(refusal("master=m;group.m=127.0.0.1:7100;stallTimeoutMs=0")
                .contains("stall timeout must be from 100 ms to 365 days"));
    }

    @Test
    void twoGroupsOnOneAddressAreRefusedBeforeStart() {
        String e = assertThrows(IllegalArgumentException.class, () -> JobSpec.builder().group("m", "127.0.0.1", 7100)
                .group("w1", "127.0.0.1", 7100)).getMessage();
        assertTrue(e.contains("'m' and 'w1' are both given 127.0.0.1:7100"), e);
        JobSpec.builder().group("m", "127.0.0.1", 7100).group("w1", "127.0.0.2", 7100).build(); // other hosts: fine
        JobSpec.builder().group("m", 7100).group("w1", 7100).build(); // hosts from the engine: one node each
    }

    @Test
    void theIdentityRoundTripsAndIsDerivedAlikeEverywhere() {
        JobSpec a = JobSpec.builder().group("m", "127.0.0.1", 7100).group("w1", "127.0.0.1", 7101).build();
        JobSpec b = JobSpec.builder().group("m", "127.0.0.1", 7100).group("w1", "127.0.0.1", 7101).build();
        JobSpec c = JobSpec.builder().group("m", "127.0.0.1", 7100).group("w1", "127.0.0.1", 7102).build();
        assertEquals(a.id(), b.id());
        assertNotEquals(a.id(), c.id());
        assertEquals(a.id(), JobSpec.parse(a.toText()).id());
        JobSpec named = JobSpec.builder().id("squares-run-7").group("m", "127.0.0.1", 7100)
                .livenessTimeout(Duration.ofMillis(900)).build();
        JobSpec back = JobSpec.parse(named.toText());
        assertEquals("squares-run-7", back.id());
        assertEquals(Duration.ofMillis(900), back.livenessTimeout());
        assertThrows(IllegalArgumentException.class, () -> JobSpec.builder().id("has space"));
        assertThrows(IllegalArgumentException.class, () -> JobSpec.builder().id("a;b"));
    }

    @Test
    void engineHostsAreEmptyUntilTheEngineGivesThem() {
        JobSpec s = JobSpec.parse("master=m;group.m=:7100;group.w1=10.0.0.2:7101");
        assertTrue(s.hostFromEngine("m"));
        assertTrue(!s.hostFromEngine("w1"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.checkListenAllowed("m"));
        assertTrue(e.getMessage().contains("leaves it to the engine"), e::getMessage);
        assertEquals("node-0", s.withEngineHosts(java.util.List.of("node-0", "node-1")).host("m"));
        assertEquals("10.0.0.2", s.withEngineHosts(java.util.List.of("node-0", "node-1")).host("w1"));
    }

    /**
     * Hunt 2: a host or file holding ';' was written into the text form as is, so every process read
     * another job (here with an extra group and insecure=true); a host starting with '-' became an
     * option of the remote-exec command.
     */
    @Test
    void hostsAndFilesTheTextFormCannotCarryAreRefused() {
        String e = assertThrows(IllegalArgumentException.class, () -> JobSpec.builder()
                .group("m", "10.0.0.1:7100;insecure=true;group.zz=10.0.0.9", 7100)).getMessage();
        assertTrue(e.contains("group 'm'") && e.contains("host"), e);
        for (String host : new String[] {"-oProxyCommand=x", "a b", " ", "a\nb", "h=1"}) {
            assertThrows(IllegalArgumentException.class, () -> JobSpec.builder().group("m", host, 7100), host);
        }
        e = assertThrows(IllegalArgumentException.class, () -> JobSpec.builder()
                .secretFile(java.nio.file.Path.of("/s;insecure=true"))).getMessage();
        assertTrue(e.contains("secret file") && e.contains("';'"), e);
        assertEquals("::1", JobSpec.parse(JobSpec.builder().group("m", "::1", 7100).build().toText()).host("m"));
    }
}
