package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * The Java blocks of {@code docs/distributed.md}, compiled and run: each block follows a
 * {@code <!-- snippet: NAME -->} line and must equal, whitespace aside, the region of this file
 * between {@code // tag::NAME[]} and {@code // end::NAME[]}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedDocsSnippetsTest {
    private static final Path DOC = Path.of("..", "docs", "distributed.md");
    private static final Path SELF = Path.of("src", "test", "java", "org", "bbflow", "examples",
            "DistributedDocsSnippetsTest.java");

    @Test
    void docBlocksEqualTaggedRegions() throws Exception {
        String doc = Files.readString(DOC);
        String self = Files.readString(SELF);
        Matcher m = Pattern.compile("<!--\\s*snippet:\\s*([\\w-]+)\\s*-->\\s*```java\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        Map<String, String> blocks = new LinkedHashMap<>();
        while (m.find()) {
            blocks.put(m.group(1), m.group(2));
        }
        int javaBlocks = 0;
        for (Matcher j = Pattern.compile("```java").matcher(doc); j.find(); ) {
            javaBlocks++;
        }
        assertEquals(javaBlocks, blocks.size(), "every java block of docs/distributed.md needs a snippet marker");
        List<String> problems = new ArrayList<>();
        blocks.forEach((name, block) -> {
            Matcher r = Pattern.compile("// tag::" + Pattern.quote(name) + "\\[\\]\\n(.*?)// end::" + Pattern.quote(name)
                    + "\\[\\]", Pattern.DOTALL).matcher(self);
            if (!r.find()) {
                problems.add("no tagged region " + name);
            } else if (!squash(r.group(1)).equals(squash(block))) {
                problems.add("snippet " + name + " differs from its tagged region:\n" + block + "\nvs\n" + r.group(1));
            }
        });
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }

    private static String squash(String s) {
        return s.replaceAll("\\s+", "");
    }

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
