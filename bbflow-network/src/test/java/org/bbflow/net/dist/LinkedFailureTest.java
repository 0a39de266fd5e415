package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteOutlet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which group a failure of a linked run of stages is blamed on, with the groups' reports sent in an
 * order chosen by the test. In a real run the upstream group's own report (or the master's early
 * cancel on it) usually wins the race against the downstream group's {@code LINK} report, so
 * {@code DistributedJobTest} cannot force the case where the stand-in must look past {@code LINK}
 * to the group that failed or was lost first; here the reports are real report channels, and the
 * stand-ins are the ones {@code linkTo} joins.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LinkedFailureTest {
    private static final NetOptions OPTS = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(5));

    /** The stand-ins of a linked run of n stages, stage i in group w(i+1), each linked to the next. */
    @SuppressWarnings("unchecked")
    private static RemoteWorker[] linkedRun(GroupReports reports, int n) {
        Codec<Object> codec = (Codec<Object>) (Codec<?>) Codec.longs(); // nothing is sent here
        RemoteWorker[] run = new RemoteWorker[n];
        for (int i = 0; i < n; i++) {
            run[i] = new RemoteWorker("remote-stage[s" + i + "@w" + (i + 1) + "]", "w" + (i + 1), 11 + i, codec, codec);
            run[i].prepare(null, null, reports);
            if (i > 0) {
                run[i - 1].linkTo(run[i]);
            }
        }
        return run;
    }

    private static void report(NetServer server, int channel, String text) {
        try (RemoteOutlet<String> out = NetClient.outlet("127.0.0.1", server.port(), channel, Codec.strings(), OPTS)) {
            out.send(text);
            out.complete();
        }
    }

    /** A report channel that breaks before its report: the master reads the group as lost. */
    private static void vanish(NetServer server, int channel) {
        RemoteOutlet<String> out = NetClient.outlet("127.0.0.1", server.port(), channel, Codec.strings(), OPTS);
        out.close(); // without complete(): the report channel aborts
    }

    @Test
    void aBrokenLinkIsBlamedOnTheGroupThatWasLostFirst() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             GroupReports reports = new GroupReports(server, Map.of("w1", 1, "w2", 2))) {
            RemoteWorker[] run = linkedRun(reports, 2);
            report(server, 2, GroupReports.LINK + "\tstages/b\tthe link from w1 broke");
            vanish(server, 1);
            RuntimeException e = run[1].explained(new RemoteChannelException("results of w2 ended"));
            GroupFailedException g = assertInstanceOf(GroupFailedException.class, e, () -> String.valueOf(e));
            assertEquals("w1", g.group(), g::getMessage);
            assertTrue(g.getMessage().contains("lost"), g::getMessage);
        }
    }

    @Test
    void aBrokenLinkIsBlamedOnTheNodeThatFailedEvenWhenAnotherGroupWasLost() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             GroupReports reports = new GroupReports(server, Map.of("w1", 1, "w2", 2, "w3", 3))) {
            RemoteWorker[] run = linkedRun(reports, 3);
            report(server, 3, GroupReports.LINK + "\tstages/c\tthe link from w2 broke");
            vanish(server, 1);
            report(server, 2, GroupReports.FAILED + "\tstages/b\tjava.lang.IllegalStateException: boom in b");
            RuntimeException e = run[2].explained(new RemoteChannelException("results of w3 ended"));
            GroupFailedException g = assertInstanceOf(GroupFailedException.class, e, () -> String.valueOf(e));
            assertEquals("w2", g.group(), g::getMessage);
            assertTrue(g.getMessage().contains("boom in b"), g::getMessage);
        }
    }

    @Test
    void aGroupThatFailedByItselfIsBlamedOnItself() {
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             GroupReports reports = new GroupReports(server, Map.of("w1", 1, "w2", 2))) {
            RemoteWorker[] run = linkedRun(reports, 2);
            report(server, 2, GroupReports.FAILED + "\tstages/b\tjava.lang.IllegalStateException: boom in b");
            vanish(server, 1); // lost too, later: a node's own failure in w2 is still w2's
            RuntimeException e = run[1].explained(new RemoteChannelException("results of w2 ended"));
            GroupFailedException g = assertInstanceOf(GroupFailedException.class, e, () -> String.valueOf(e));
            assertEquals("w2", g.group(), g::getMessage);
        }
    }
}
