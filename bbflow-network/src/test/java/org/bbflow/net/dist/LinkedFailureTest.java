package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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

    /**
     * The failure the last stand-in of a linked run of {@code stages} stages throws when its results
     * channel breaks, after {@code sendReports} has sent the groups' reports. Stage i runs in group
     * w(i+1), whose report channel is i+1; each stand-in is linked to the next.
     */
    @SuppressWarnings("unchecked")
    private static GroupFailedException blamed(int stages, Consumer<NetServer> sendReports) {
        Codec<Object> codec = (Codec<Object>) (Codec<?>) Codec.longs(); // nothing is sent here
        Map<String, Integer> reportIds = new LinkedHashMap<>();
        for (int i = 1; i <= stages; i++) {
            reportIds.put("w" + i, i);
        }
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             GroupReports reports = new GroupReports(server, reportIds)) {
            RemoteWorker[] run = new RemoteWorker[stages];
            for (int i = 0; i < stages; i++) {
                run[i] = new RemoteWorker("remote-stage[s" + i + "@w" + (i + 1) + "]", "w" + (i + 1), 11 + i, codec, codec);
                run[i].prepare(null, null, reports);
                if (i > 0) {
                    run[i - 1].linkTo(run[i]);
                }
            }
            reports.linkedRuns(DistributedJob.linkedRunsByGroup(List.of(run))); // as the job's master does
            sendReports.accept(server);
            RuntimeException e = run[stages - 1].explained(new RemoteChannelException("results of w" + stages + " ended"));
            return assertInstanceOf(GroupFailedException.class, e, () -> String.valueOf(e));
        }
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
        GroupFailedException g = blamed(2, server -> {
            report(server, 2, GroupReports.LINK + "\tstages/b\tthe link from w1 broke");
            vanish(server, 1);
        });
        assertEquals("w1", g.group(), g::getMessage);
        assertTrue(g.getMessage().contains("lost"), g::getMessage);
    }

    @Test
    void aBrokenLinkIsBlamedOnTheNodeThatFailedEvenWhenAnotherGroupWasLost() {
        GroupFailedException g = blamed(3, server -> {
            report(server, 3, GroupReports.LINK + "\tstages/c\tthe link from w2 broke");
            vanish(server, 1);
            report(server, 2, GroupReports.FAILED + "\tstages/b\tjava.lang.IllegalStateException: boom in b");
        });
        assertEquals("w2", g.group(), g::getMessage);
        assertTrue(g.getMessage().contains("boom in b"), g::getMessage);
    }

    @Test
    void aGroupThatFailedByItselfIsBlamedOnItself() {
        GroupFailedException g = blamed(2, server -> {
            report(server, 2, GroupReports.FAILED + "\tstages/b\tjava.lang.IllegalStateException: boom in b");
            vanish(server, 1); // lost too, later: a node's own failure in w2 is still w2's
        });
        assertEquals("w2", g.group(), g::getMessage);
    }

    /**
     * A group that runs a stage of a linked run and another block (here a farm's worker): when the
     * next group of the run is lost, the group's link breaks, its whole flow fails and it reports
     * {@code LINK}, and the worker's stand-in, not one of the run's, may be the first to hear. It must
     * trace the report along the run to the lost group, as the run's own stand-ins do. Before, it
     * blamed its own group (RandomJobTest, root seed 15, shape -4346196388617349806: w2 killed, the
     * job named w3).
     */
    @Test
    @SuppressWarnings("unchecked")
    void anotherBlockOfALinkedGroupBlamesTheGroupLostAlongTheRun() {
        Codec<Object> codec = (Codec<Object>) (Codec<?>) Codec.longs();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, OPTS);
             GroupReports reports = new GroupReports(server, Map.of("w1", 1, "w2", 2))) {
            RemoteWorker a = new RemoteWorker("remote-stage[a@w1]", "w1", 11, codec, codec);
            RemoteWorker b = new RemoteWorker("remote-stage[b@w2]", "w2", 12, codec, codec);
            RemoteWorker worker = new RemoteWorker("f", 0, "w1", 13, codec, codec); // the farm's worker in w1
            for (RemoteWorker r : new RemoteWorker[] {a, b, worker}) {
                r.prepare(null, null, reports);
            }
            a.linkTo(b);
            reports.linkedRuns(DistributedJob.linkedRunsByGroup(List.of(a, b, worker))); // as the job's master does
            report(server, 1, GroupReports.LINK + "\tw1/f/worker-0\tthe link to w2 broke");
            vanish(server, 2);
            RuntimeException e = worker.explained(new RemoteChannelException("results of w1 ended"));
            GroupFailedException g = assertInstanceOf(GroupFailedException.class, e, () -> String.valueOf(e));
            assertEquals("w2", g.group(), g::getMessage);
            assertTrue(g.getMessage().contains("lost"), g::getMessage);
        }
    }
}
