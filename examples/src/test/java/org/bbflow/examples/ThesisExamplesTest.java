package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.bbflow.examples.thesis.ThesisExamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThesisExamplesTest {
    private static final int N = 30;

    private static List<String> run(String name) {
        return ThesisExamples.run(name, N, Output.silent()).lines();
    }

    private static List<String> sinkLines(LongStream values) {
        return values.mapToObj(v -> "sink got " + v).collect(Collectors.toList());
    }

    @Test
    void pipelinesDeliverEveryItemInOrder() {
        assertEquals(sinkLines(LongStream.rangeClosed(1, N)), run("two-stage"));
        assertEquals(sinkLines(LongStream.rangeClosed(1, N)), run("manual-channel"));
        assertEquals(sinkLines(LongStream.rangeClosed(1, N).map(x -> 2 * x)), run("three-stage"));
    }

    @Test
    void farmInPipelineDoublesEveryItemOnce() {
        List<String> sorted = new ArrayList<>(run("farm-pipeline"));
        sorted.sort((a, b) -> Long.compare(Long.parseLong(a.substring(9)), Long.parseLong(b.substring(9))));
        assertEquals(sinkLines(LongStream.rangeClosed(1, N).map(x -> 2 * x)), sorted);
    }

    private static final Pattern FROM_WORKER = Pattern.compile("collector got (\\d+) from worker (\\d)");

    /** value -> worker, from "collector got V from worker W" lines. */
    private static Map<Long, Integer> workerOfEachResult(List<String> lines) {
        Map<Long, Integer> m = new HashMap<>();
        for (String line : lines) {
            Matcher x = FROM_WORKER.matcher(line);
            if (x.matches()) {
                m.put(Long.parseLong(x.group(1)), Integer.parseInt(x.group(2)));
            }
        }
        return m;
    }

    @Test
    void customEmitterDealsRoundRobinAndCollectorKnowsTheWorker() {
        List<String> lines = run("custom-farm");
        assertEquals(N, lines.size());
        Map<Long, Integer> worker = workerOfEachResult(lines);
        assertEquals(N, worker.size());
        for (long i = 1; i <= N; i++) {
            assertEquals((int) ((i - 1) % 3), worker.get(2 * i), "item " + i);
        }
    }

    @Test
    void emptyFarmEmitterPicksTheWorkerItself() {
        Map<Long, Integer> worker = workerOfEachResult(run("empty-farm"));
        assertEquals(N, worker.size());
        for (long i = 1; i <= N; i++) {
            assertEquals((int) (i % 3), worker.get(2 * i), "item " + i);
        }
    }

    @Test
    void combine2RoutesThroughFusedWorkersCollectorAndLastStage() {
        List<String> lines = run("combine2");
        assertEquals(3 * N, lines.size());
        for (long i = 1; i <= N; i++) {
            int w = (int) (i % 3);
            assertTrue(lines.contains("worker " + w + " in=" + i), "worker line of " + i);
            assertTrue(lines.contains("collector got " + i + " from worker " + w), "collector line of " + i);
            assertTrue(lines.contains("last stage got " + i), "last stage line of " + i);
            assertTrue(lines.indexOf("worker " + w + " in=" + i) < lines.indexOf("last stage got " + i));
        }
        // each worker handles its items in the order the emitter sent them
        for (int w = 0; w < 3; w++) {
            String prefix = "worker " + w + " in=";
            List<Long> seen = lines.stream().filter(l -> l.startsWith(prefix))
                    .map(l -> Long.parseLong(l.substring(prefix.length()))).collect(Collectors.toList());
            List<Long> sorted = new ArrayList<>(seen);
            sorted.sort(null);
            assertEquals(sorted, seen);
        }
    }

    @Test
    void allToAllSendsEachParityToOneRightMember() {
        List<String> lines = run("all-to-all");
        assertEquals(N, lines.size());
        Pattern p = Pattern.compile("right (\\d) got (\\d+) from left (\\d)");
        Map<Long, Set<Integer>> rightsByParity = new HashMap<>();
        Set<Long> values = new HashSet<>();
        for (String line : lines) {
            Matcher m = p.matcher(line);
            assertTrue(m.matches(), line);
            long v = Long.parseLong(m.group(2));
            values.add(v);
            rightsByParity.computeIfAbsent(v % 2, k -> new HashSet<>()).add(Integer.parseInt(m.group(1)));
        }
        assertEquals(LongStream.rangeClosed(101, 100 + N).boxed().collect(Collectors.toSet()), values);
        assertEquals(1, rightsByParity.get(0L).size(), "even results went to several right members");
        assertEquals(1, rightsByParity.get(1L).size(), "odd results went to several right members");
    }

    @Test
    void combinedFarmsApplyLeftRGAndRightInThatOrder() {
        Set<String> expected = LongStream.rangeClosed(1, N).map(x -> ((x + 1) * 10 + 5) * 2)
                .mapToObj(v -> "sink got " + v).collect(Collectors.toSet());
        List<String> lines = run("combine-farms");
        assertEquals(N, lines.size());
        assertEquals(expected, new HashSet<>(lines));
    }

    @Test
    void labelsRestoreInputOrderAfterAnUnorderedFarm() {
        List<String> expected = LongStream.range(0, N).mapToObj(i -> "label " + i + " value " + i * i)
                .collect(Collectors.toList());
        assertEquals(expected, run("ordered-labels"));
    }

    @Test
    void unknownExampleIsRejectedWithTheList() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ThesisExamples.run("four-stage", 3, Output.silent()));
        assertTrue(e.getMessage().contains("two-stage"), e.getMessage());
    }
}
