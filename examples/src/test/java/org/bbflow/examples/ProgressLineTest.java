package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.bbflow.core.NodeStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ProgressLineTest {

    private static NodeStats node(String path, String name) {
        return new NodeStats(path, name, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void stagesAreNamedByTheNodeOrByItsPlaceForGenericNodes() {
        assertEquals("worker", ProgressLine.stageOf(node("pipeline/farm[1]/worker-3", "map")));
        assertEquals("source", ProgressLine.stageOf(node("pipeline/source[0]", "source")));
        assertEquals("sensor", ProgressLine.stageOf(node("pipeline/acquisition[0]/left-7", "sensor")));
        assertEquals("emitter", ProgressLine.stageOf(node("pipeline/farm[1]/emitter", "identity")));
    }
}
