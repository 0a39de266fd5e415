package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.bbflow.examples.demo.MandelbrotDemo;
import org.bbflow.examples.demo.MandelbrotDemo.Options;
import org.bbflow.examples.demo.MandelbrotDemo.Result;
import org.bbflow.examples.demo.MandelbrotDemo.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MandelbrotDemoTest {

    @Test
    void everyFarmWidthReproducesTheSequentialRowsInOrder() {
        Options o = new Options(90, 64, 300, 3, false);
        Result r = MandelbrotDemo.run(o);
        assertEquals(4, r.runs().size(), "sequential + farms of 1, 2, 3 workers");
        long[] expected = new long[90];
        for (int y = 0; y < 90; y++) {
            expected[y] = MandelbrotDemo.renderRow(y, 64, 90, 300).iterations();
        }
        assertArrayEquals(expected, r.sequentialRows());
        for (Run run : r.runs().subList(1, 4)) {
            assertTrue(run.sameAsSequential(), "farm of " + run.workers() + " differs");
            assertTrue(run.inOrder(), "farm of " + run.workers() + " delivered rows out of order");
            assertEquals(90, run.stats().node("image[2]").itemsIn());
            assertEquals(run.workers(), run.stats().nodes().stream().filter(n -> n.path().contains("worker-")).count());
        }
        assertTrue(r.parallelFor().sameAsSequential(), "the parallel loop differs");
        assertEquals(3, r.parallelFor().workers());
        assertTrue(r.allMatch());
    }

    @Test
    void rowsHaveTheExpectedEscapeTimes() {
        // the row through the middle of the set: many pixels never escape and count the full budget
        MandelbrotDemo.Row middle = MandelbrotDemo.renderRow(50, 100, 100, 1000);
        assertTrue(middle.iterations() > 20 * 1000L, "middle row too cheap: " + middle.iterations());
        // the top row lies outside the set: every pixel escapes quickly
        assertTrue(MandelbrotDemo.renderRow(0, 100, 100, 1000).iterations() < 100 * 10L);
    }
}
