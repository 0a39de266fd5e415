package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found by {@code RandomJobTest} (root seed 7, shape -6670554768298613880: {@code [local(x4),
 * local(x2 failOn=53), loop[w2, w1, w3](x4)]}): a node of the master's own flow fails, before a
 * feedback farm whose workers run in other groups. The master's flow is cancelled and its stand-ins
 * abort the streams they send; a worker group whose task stream was aborted fails and reports it as
 * its own failure ({@code FAILED}), and when that report reaches the master before its flow has
 * ended, the job's failure was a {@link GroupFailedException} naming that group ("sender ... aborted
 * the stream: sender closed the stream without complete()"), the master's own cause only suppressed
 * under it. The job's failure must be the master's node's own.
 *
 * <p>Without the fix ({@code DistributedJob.failedByItself}) it failed in a few of its 30 rounds (round 4 in
 * the first run: {@code group 'w2' failed: ... remote-inlet[#...]+flatMap+to-master[loop/worker-0][0] failed:
 * RemoteChannelException: channel ...: sender /127.0.0.1:... aborted the stream: sender closed the stream
 * without complete()}). The master's join now keeps its flow's own failure as the job's when a node of
 * the master failed by itself, the group's report attached to it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MasterFailureCauseTest {
    @Test
    void aFailingNodeOfTheMasterIsTheJobsCauseNotAGroupWhoseStreamItAborted() {
        for (int round = 0; round < 30; round++) {
            JobSpec spec = DistributedJobTest.onSlicePorts("m", "w1", "w2", "w3").peerTimeout(Duration.ofSeconds(15))
                    .livenessTimeout(Duration.ofSeconds(1)).build();
            try (LocalJob<Long> local = LocalJob.start(spec, job -> {
                Farm<Long, Long> loop = job.farm("loop", () -> Nodes.<Long, Long>flatMap((v, o) -> {
                    if (v <= 64) {
                        o.sendTo(1, v);
                    } else {
                        o.send(v / 2);
                    }
                }), Codec.longs(), Codec.longs(), Placement.of("w2", "w1", "w3"));
                long[] count = new long[1];
                job.run(Pipeline.of(Nodes.range(1, 20_000), Nodes.map((Long x) -> {
                    if (x == 2) {
                        throw new IllegalStateException("the master's node failed on " + x);
                    }
                    return x * 4;
                }), (Block<Long, Long>) loop.feedback(), Nodes.sink((Long y) -> count[0]++)));
                return count[0];
            })) {
                FlowException e = assertThrows(FlowException.class, () -> local.result("m", Duration.ofSeconds(40)));
                int r = round;
                assertNull(DistributedJobTest.groupFailure(e), () -> "round " + r + ": the job's failure names a group whose"
                        + " stream the failing master aborted: " + LocalJobTest.messages(e));
                assertEquals("the master's node failed on 2", e.getCause().getMessage(), LocalJobTest.messages(e));
            }
        }
    }
}
