package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.dist.DistributedJob;
import org.bbflow.net.dist.JobSpec;
import org.bbflow.net.dist.LocalJob;
import org.bbflow.net.dist.Placement;
import org.bbflow.net.dist.WorkerLoss;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The local-mode example of {@code docs/distributed.md}, run ({@code ReadmeSnippetsTest} checks that
 * the document's block equals the tagged region here): a job of three groups in this JVM, one
 * killed, exact results.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedDocsSnippetsTest {
    @Test
    void localJob() {
        // tag::local-job[]
        JobSpec spec = LocalJob.spec("m", "w1", "w2").livenessTimeout(Duration.ofSeconds(1)).build();
        try (LocalJob<Long> local = LocalJob.start(spec, (DistributedJob job, LocalJob<Long> running) -> {
            Farm<Long, Long> farm = job.farm("squares", () -> Nodes.map((Long x) -> x * x), Codec.longs(), Codec.longs(),
                    Placement.spread(2, "m", "w1", "w2"), WorkerLoss.RESEND_TASKS);
            LongAdder sum = new LongAdder();
            LongAdder seen = new LongAdder();
            job.run(Pipeline.of(Nodes.range(1, 100_000), farm, Nodes.sink((Long y) -> {
                sum.add(y);
                seen.increment();
                if (seen.sum() == 25_000 && job.isMaster()) {
                    running.kill("w1");                     // as kill -9 of w1's process
                }
            })));
            return sum.sum();
        })) {
            long sum = local.result("m");                   // the master's return value, or its exception
            assertEquals(LongStream.rangeClosed(1, 100_000).map(x -> x * x).sum(), sum);
            assertEquals(Set.of("w1"), local.part("m").lostGroups());
        }
        // end::local-job[]
    }
}
