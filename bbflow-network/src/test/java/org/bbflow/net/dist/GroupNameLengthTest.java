package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group's name goes into every handshake of its process, as its member identity
 * ({@code name#generation}, at most 64 characters on the wire). A name too long for that must be
 * refused where the job is declared, naming the group, not by the group's process at run time
 * (after it listened and was admitted), which leaves the master waiting for a group that never comes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupNameLengthTest {

    @Test
    void aGroupNameTooLongForTheHandshakeIsRefusedByTheBuilder() {
        String longName = "w".repeat(63);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobSpec.builder().group("m", "127.0.0.1", 7100).group(longName, "127.0.0.1", 7101).build());
        assertTrue(e.getMessage().contains(longName), e.getMessage());
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class,
                () -> JobSpec.parse("master=m;group.m=127.0.0.1:7100;group." + longName + "=127.0.0.1:7101"));
        assertTrue(t.getMessage().contains(longName), t.getMessage());
    }

    /** The longest accepted name runs, up to a generation of many digits. */
    @Test
    void theLongestAcceptedNameRuns() {
        String name = "w".repeat(JobSpec.MAX_GROUP_NAME);
        JobSpec spec = DistributedJobTest.onSlicePorts("m", name).peerTimeout(Duration.ofSeconds(10))
                .livenessTimeout(Duration.ofSeconds(1)).build();
        try (LocalJob<Long> local = LocalJob.start(spec, job -> {
            var farm = job.farm("tasks", () -> Nodes.map((Long x) -> x + 1), Codec.longs(), Codec.longs(),
                    Placement.spread(1, "m", name));
            long[] sum = new long[1];
            job.run(Pipeline.of(Nodes.range(1, 1_000), farm, Nodes.sink((Long y) -> sum[0] += y)));
            return sum[0];
        })) {
            assertEquals(1_000L * 1_001 / 2 + 1_000, local.result("m"));
        }
    }
}
