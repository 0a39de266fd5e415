package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.testbench.TestBench;
import org.bbflow.examples.testbench.TestBench.Options;
import org.bbflow.examples.testbench.TestBench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TestBenchTest {
    @TempDir
    Path dir;

    @Test
    void everySampleArrivesOnceAndInSensorOrder() throws IOException {
        Path file = dir.resolve("bench.rec");
        // 5 sensors x 40,000 samples at 100,000/s each: a 0.4 s run, batches that do not divide the total
        Result r = TestBench.run(new Options(5, 100_000, 40_000, 777, file, false));
        assertEquals(200_000, r.expected());
        assertArrayEquals(new long[] {40_000, 40_000, 40_000, 40_000, 40_000}, r.perSensorAtMonitor());
        assertEquals(0, r.orderErrors());
        assertEquals(200_000, r.recorded());
        assertTrue(r.fileInOrder());
        assertEquals(200_000L * TestBench.RECORD_BYTES, Files.size(file));
        assertEquals(200_000, r.latencies().count());
        assertTrue(r.lossless());
        assertEquals(200_000, r.stats().node("acquisition[0]/right-0").itemsIn(), "the processing node's input");
        assertEquals(400_000, r.stats().node("acquisition[0]/right-0").itemsOut(), "broadcast to two outputs");
    }

    @Test
    void aSlowRecorderSlowsTheSensorsInsteadOfLosingSamples() throws IOException {
        // batch of 1: one write per sample, far slower than 4 x 200,000 samples/s
        Result r = TestBench.run(new Options(4, 200_000, 20_000, 1, dir.resolve("slow.rec"), false));
        assertTrue(r.lossless(), "lost or reordered samples under backpressure");
        assertEquals(80_000, r.recorded());
    }
}
