package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class PipelineTest {

    @Test
    void twoStagePipelineDeliversEveryItemInOrder() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        RunStats stats = Runs.run(Pipeline.of(Nodes.range(1, 100_000), Nodes.map((Long x) -> x * 2), out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 100_000; i++) {
            expected.add(2 * i);
        }
        assertEquals(expected, out.get());
        assertEquals(100_000, stats.node("map[1]").itemsIn());
        assertEquals(100_000, stats.node("map[1]").itemsOut());
        assertEquals(100_000, stats.node("range[0]").itemsOut());
    }

    @Test
    void threeStagePipelineWithThen() {
        Runs.Collector<String> out = new Runs.Collector<>();
        Pipeline<Void, Void> p = Pipeline.of(Nodes.range(1, 10), Nodes.map((Long x) -> x * 2))
                .then(Nodes.map((Long x) -> "v" + x))
                .then(out.sink());
        Runs.run(p);
        assertEquals(List.of("v2", "v4", "v6", "v8", "v10", "v12", "v14", "v16", "v18", "v20"), out.get());
    }

    @Test
    void emptySourceEndsTheFlow() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.<Long>source(o -> { }), Nodes.map((Long x) -> x), out.sink()));
        assertTrue(out.get().isEmpty());
    }

    @Test
    void nullItemIsRefused() {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(
                Nodes.<Long>source(o -> o.send(null)), Nodes.sink(x -> { }))));
        assertTrue(e.getCause() instanceof IllegalArgumentException, e.toString());
        assertTrue(e.nodePath().endsWith("source[0]"), e.nodePath());
    }
}
